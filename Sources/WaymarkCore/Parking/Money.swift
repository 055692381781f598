/// An amount in the minor unit of an ISO 4217 currency: cents for USD, centavos for COP.
///
/// Always an integer. Bookings are paid from a wallet whose ledger must sum to exactly zero
/// (PRK-13), and binary floating point cannot even hold 0.10, so a single Double anywhere in the
/// chain would leave fractions of a cent that no balance check can reconcile.
public struct Money: Hashable, Codable, Sendable, CustomStringConvertible {
    public var minorUnits: Int
    /// Three upper-case letters, e.g. "USD", "COP".
    public var currency: String

    public init(_ minorUnits: Int, _ currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static func zero(_ currency: String) -> Money { Money(0, currency) }

    public var isZero: Bool { minorUnits == 0 }
    public var isPositive: Bool { minorUnits > 0 }
    public var isNegative: Bool { minorUnits < 0 }
    public var magnitude: Money { Money(abs(minorUnits), currency) }

    /// Checks only the shape, not membership of the ISO list: an operator's local currency must
    /// not need a code change here.
    public static func isValidCurrency(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (65...90).contains($0) }
    }

    public var description: String { "\(minorUnits) \(currency)" }

    /// "12.00 USD", "500 JPY": for sentences a person reads (problem details). Apps format
    /// amounts in the reader's locale themselves from `minorUnits`.
    public var displayText: String {
        let digits = Self.minorDigits(currency)
        let sign = minorUnits < 0 ? "-" : ""
        let units = minorUnits.magnitude
        guard digits > 0 else { return "\(sign)\(units) \(currency)" }
        var scale: UInt = 1
        for _ in 0..<digits { scale *= 10 }
        let fraction = String(units % scale)
        return "\(sign)\(units / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction) \(currency)"
    }

    /// Digits after the decimal point (ISO 4217): 2 for most currencies.
    public static func minorDigits(_ currency: String) -> Int {
        switch currency {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF": 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": 3
        default: 2
        }
    }

    // Adding amounts of two currencies is a programming error, not bad input: every price of a
    // booking comes from one lot's tariff, and the ledger keeps currencies apart by itself.
    public static func + (a: Money, b: Money) -> Money {
        precondition(a.currency == b.currency, "adding \(a.currency) to \(b.currency)")
        return Money(a.minorUnits + b.minorUnits, a.currency)
    }

    public static func - (a: Money, b: Money) -> Money {
        precondition(a.currency == b.currency, "subtracting \(b.currency) from \(a.currency)")
        return Money(a.minorUnits - b.minorUnits, a.currency)
    }

    public static prefix func - (a: Money) -> Money { Money(-a.minorUnits, a.currency) }
}
