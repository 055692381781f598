import Foundation

/// What a lot offers to drivers who book ahead (PRK-12): a number of its spaces set aside for
/// bookings and the tariff they are paid at.
///
/// This is not `LotPrice`. `LotPrice` is what the pay station charges a driver who turns up
/// without booking (whole hours, capped per 24 hours from arrival); a booking is paid up front
/// from the wallet at this tariff, which may add a fee for the guarantee of a space and is
/// capped per site-local day (see `LotPricing`). A lot without an offer cannot be booked.
public struct BookingOffer: Hashable, Codable, Sendable {
    /// Spaces set aside for bookings; at no instant do more bookings than this hold a space.
    public var capacity: Int
    public var pricing: LotPricing

    /// Above any real lot's size; keeps the capacity sweep and the contract's bounds small.
    public static let maximumCapacity = 100_000

    public init(capacity: Int, pricing: LotPricing) {
        self.capacity = capacity
        self.pricing = pricing
    }

    /// How far ahead a booking may start: a term's timetable is known about that long, and
    /// capacity promised further out would mostly be cancelled again.
    public static let maximumAdvance: TimeInterval = 90 * 86_400

    /// Why `range` cannot be booked at `now` beyond what `LotPricing.quote` checks, or nil.
    public static func advanceProblem(_ range: BookingRange, now: Date) -> String? {
        range.start.timeIntervalSince(now) > maximumAdvance
            ? "A booking can start at most \(Int(maximumAdvance / 86_400)) days ahead." : nil
    }

    /// Why this offer cannot take bookings, or nil.
    public var problem: String? {
        guard (1...Self.maximumCapacity).contains(capacity) else {
            return "capacity must be 1 to \(Self.maximumCapacity), not \(capacity)."
        }
        return pricing.problem
    }
}

/// The limits of a wallet (PRK-13), in minor units of the wallet's currency.
///
/// One top-up is at least a dollar, so that card fees never exceed what is added, and at most
/// 500 dollars; a wallet holds at most 2,000. Prepaid balances are money owed to users, and
/// small limits keep the amount at stake if an account is taken over small too. The same
/// numbers apply to every currency: an operator of a campus in Colombian pesos would raise them.
public enum WalletRules {
    public static let topUpRange = 100...50_000
    public static let maximumBalanceMinor = 200_000

    public enum TopUpError: Error, Hashable, Sendable, CustomStringConvertible {
        case invalidCurrency(String)
        case amountOutOfRange(ClosedRange<Int>)
        /// The wallet would hold more than `maximumBalanceMinor`.
        case balanceLimit(balance: Money, maximum: Int)

        public var description: String {
            switch self {
            case .invalidCurrency(let code): "\"\(code)\" is not a currency code (three upper-case letters)."
            case .amountOutOfRange(let range): "A top-up is \(range.lowerBound) to \(range.upperBound) minor units."
            case .balanceLimit(let balance, let maximum):
                "A wallet holds at most \(maximum) minor units; this one holds \(balance.minorUnits) \(balance.currency)."
            }
        }
    }

    /// Checks a top-up of `amount` onto a wallet holding `balance` (same currency).
    public static func checkTopUp(_ amount: Money, onto balance: Money) throws(TopUpError) {
        guard Money.isValidCurrency(amount.currency) else { throw .invalidCurrency(amount.currency) }
        guard topUpRange.contains(amount.minorUnits) else { throw .amountOutOfRange(topUpRange) }
        guard balance.minorUnits + amount.minorUnits <= maximumBalanceMinor else {
            throw .balanceLimit(balance: balance, maximum: maximumBalanceMinor)
        }
    }
}
