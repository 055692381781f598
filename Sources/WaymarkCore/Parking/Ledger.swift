import Foundation

/// The double-entry rules behind the wallet (PRK-13: "never negative; every movement is a
/// ledger entry"). Money is never created or destroyed inside Waymark: every transaction takes
/// from some accounts exactly what it gives to others, per currency, so the balances of all
/// accounts always sum to zero and any drift is a bug that a single query can find.

/// Someone who can hold money in the ledger.
public struct LedgerAccount: Hashable, Codable, Sendable, CustomStringConvertible {
    public enum Kind: String, CaseIterable, Codable, Sendable {
        /// A user's prepaid balance; the only kind with a floor (zero).
        case wallet
        /// Money a payment provider has collected for us. It goes negative by every top-up: that
        /// is what the provider owes, until it pays out.
        case providerClearing
        /// What a lot operator has earned from bookings. Refunds of cancelled bookings come
        /// back out of it, so it needs no separate refunds account.
        case operatorRevenue
    }

    public var kind: Kind
    /// User id, provider name or operator id, depending on `kind`.
    public var owner: String

    public init(kind: Kind, owner: String) {
        self.kind = kind
        self.owner = owner
    }

    public static func wallet(_ userId: String) -> LedgerAccount { LedgerAccount(kind: .wallet, owner: userId) }
    public static func provider(_ name: String) -> LedgerAccount { LedgerAccount(kind: .providerClearing, owner: name) }
    public static func `operator`(_ operatorId: String) -> LedgerAccount { LedgerAccount(kind: .operatorRevenue, owner: operatorId) }

    /// "wallet:u-42": one text column for storage and indexes.
    public var key: String { "\(kind.rawValue):\(owner)" }

    public init?(key: String) {
        guard let colon = key.firstIndex(of: ":"), let kind = Kind(rawValue: String(key[..<colon])) else { return nil }
        let owner = String(key[key.index(after: colon)...])
        guard !owner.isEmpty else { return nil }
        self.init(kind: kind, owner: owner)
    }

    public var description: String { key }
}

/// Why money moved. Each kind has one fixed shape (see `Ledger.validate`), so a history line
/// can always be explained to the user.
public enum LedgerMovement: String, CaseIterable, Codable, Sendable {
    /// Provider → wallet ("add budget").
    case topUp
    /// Wallet → operator, up front when booking (PRK-12).
    case bookingPayment
    /// Wallet → operator when a modified booking costs more, operator → wallet when less.
    case modificationSettlement
    /// Operator → wallet, the whole net amount paid, when a booking is cancelled before start.
    case cancellationRefund
    /// A no-show: nothing moves, the operator keeps the payment. Recorded so that the wallet
    /// history explains why no refund came.
    case forfeit
    /// Wallet → provider: the processor gave (part of) a card top-up back, a refund made at the
    /// processor rather than by Waymark; names the provider's payment.
    case cardRefund

    /// Booking movements must name their booking; a top-up may name the provider's payment.
    public var needsReference: Bool { self != .topUp }
}

/// One line of a transaction. Signed: positive adds to the account's balance, negative takes.
public struct LedgerEntry: Hashable, Codable, Sendable {
    public var account: LedgerAccount
    public var amount: Money

    public init(_ account: LedgerAccount, _ amount: Money) {
        self.account = account
        self.amount = amount
    }
}

public struct LedgerTransaction: Hashable, Codable, Sendable, Identifiable {
    /// Chosen by the caller, so that a retried request posts nothing twice.
    public var id: String
    public var movement: LedgerMovement
    public var entries: [LedgerEntry]
    public var at: Date
    /// The booking id, or the provider's payment id for a top-up.
    public var reference: String?

    public init(id: String, movement: LedgerMovement, entries: [LedgerEntry], at: Date, reference: String? = nil) {
        self.id = id
        self.movement = movement
        self.entries = entries
        self.at = at
        self.reference = reference
    }

    /// `amount` is what the user adds, positive.
    public static func topUp(id: String, userId: String, provider: String, amount: Money, at: Date,
                             providerPaymentId: String? = nil) -> LedgerTransaction {
        LedgerTransaction(id: id, movement: .topUp,
                          entries: [LedgerEntry(.provider(provider), -amount), LedgerEntry(.wallet(userId), amount)],
                          at: at, reference: providerPaymentId)
    }

    /// `amount` is the booking's price, positive.
    public static func bookingPayment(id: String, userId: String, operatorId: String, amount: Money,
                                      bookingId: String, at: Date) -> LedgerTransaction {
        LedgerTransaction(id: id, movement: .bookingPayment,
                          entries: [LedgerEntry(.wallet(userId), -amount), LedgerEntry(.operator(operatorId), amount)],
                          at: at, reference: bookingId)
    }

    /// `userPays` is `BookingOutcome.settlement`: positive when the user pays more, negative
    /// for a refund. Zero moves nothing and is not a valid transaction: post none.
    public static func modificationSettlement(id: String, userId: String, operatorId: String, userPays: Money,
                                              bookingId: String, at: Date) -> LedgerTransaction {
        LedgerTransaction(id: id, movement: .modificationSettlement,
                          entries: [LedgerEntry(.wallet(userId), -userPays), LedgerEntry(.operator(operatorId), userPays)],
                          at: at, reference: bookingId)
    }

    /// `amount` is what goes back to the user, positive (the magnitude of a cancellation's settlement).
    public static func cancellationRefund(id: String, userId: String, operatorId: String, amount: Money,
                                          bookingId: String, at: Date) -> LedgerTransaction {
        LedgerTransaction(id: id, movement: .cancellationRefund,
                          entries: [LedgerEntry(.operator(operatorId), -amount), LedgerEntry(.wallet(userId), amount)],
                          at: at, reference: bookingId)
    }

    /// `amount` is what leaves the wallet, positive: at most what it holds.
    public static func cardRefund(id: String, userId: String, provider: String, amount: Money, providerPaymentId: String,
                                  at: Date) -> LedgerTransaction {
        LedgerTransaction(id: id, movement: .cardRefund,
                          entries: [LedgerEntry(.wallet(userId), -amount), LedgerEntry(.provider(provider), amount)],
                          at: at, reference: providerPaymentId)
    }

    public static func forfeit(id: String, bookingId: String, at: Date) -> LedgerTransaction {
        LedgerTransaction(id: id, movement: .forfeit, entries: [], at: at, reference: bookingId)
    }
}

public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidCurrency(String)
    case zeroEntry(LedgerAccount)
    case accountRepeated(LedgerAccount)
    /// The entries of `currency` sum to `sum` instead of zero.
    case unbalanced(currency: String, sum: Int)
    case missingReference(LedgerMovement)
    /// The entries do not have the one shape allowed for the movement.
    case wrongShape(LedgerMovement, String)
    /// PRK-13: the wallet has `balance` and the transaction would take `debit` from it.
    case insufficientFunds(LedgerAccount, balance: Money, debit: Money)
    case duplicateTransaction(String)

    public var description: String {
        switch self {
        case .invalidCurrency(let code): "\"\(code)\" is not a currency code."
        case .zeroEntry(let account): "An entry for \(account) moves nothing."
        case .accountRepeated(let account): "\(account) appears twice in one transaction."
        case .unbalanced(let currency, let sum): "The \(currency) entries sum to \(sum), not zero."
        case .missingReference(let movement): "A \(movement.rawValue) must name its booking."
        case .wrongShape(let movement, let why): "Not a valid \(movement.rawValue): \(why)"
        case .insufficientFunds(_, let balance, let debit):
            "The wallet holds \(balance.displayText) and \(debit.displayText) is needed."
        case .duplicateTransaction(let id): "Transaction \(id) was already posted."
        }
    }
}

/// Balances per account and currency, in minor units.
public typealias LedgerBalances = [LedgerAccount: [String: Int]]

public enum Ledger {
    /// Per currency, what the entries add up to; only currencies that do not balance appear,
    /// so a correct set of entries gives an empty dictionary.
    public static func imbalance(of entries: some Sequence<LedgerEntry>) -> [String: Int] {
        var sums: [String: Int] = [:]
        for entry in entries { sums[entry.amount.currency, default: 0] += entry.amount.minorUnits }
        return sums.filter { $0.value != 0 }
    }

    /// Checks a transaction on its own, before any balance is read.
    public static func validate(_ transaction: LedgerTransaction) throws(LedgerError) {
        let movement = transaction.movement
        if movement.needsReference, (transaction.reference ?? "").isEmpty { throw .missingReference(movement) }
        var seen: Set<LedgerAccount> = []
        for entry in transaction.entries {
            guard Money.isValidCurrency(entry.amount.currency) else { throw .invalidCurrency(entry.amount.currency) }
            guard !entry.amount.isZero else { throw .zeroEntry(entry.account) }
            guard seen.insert(entry.account).inserted else { throw .accountRepeated(entry.account) }
        }
        if let (currency, sum) = imbalance(of: transaction.entries).min(by: { $0.key < $1.key }) {
            throw .unbalanced(currency: currency, sum: sum)
        }
        try validateShape(transaction)
    }

    /// Every movement but a forfeit is one amount from one account to another, in one currency;
    /// which kinds of account give and take is fixed by the movement.
    private static func validateShape(_ transaction: LedgerTransaction) throws(LedgerError) {
        let movement = transaction.movement
        if movement == .forfeit {
            guard transaction.entries.isEmpty else { throw .wrongShape(movement, "a forfeit moves no money.") }
            return
        }
        guard transaction.entries.count == 2 else { throw .wrongShape(movement, "exactly two entries are expected.") }
        // Balanced with two non-zero entries: one gives, one takes, the same amount.
        let giver = transaction.entries.first { $0.amount.isNegative }!.account.kind
        let taker = transaction.entries.first { $0.amount.isPositive }!.account.kind
        let allowed: Bool
        switch movement {
        case .topUp: allowed = giver == .providerClearing && taker == .wallet
        case .bookingPayment: allowed = giver == .wallet && taker == .operatorRevenue
        case .modificationSettlement:
            allowed = (giver == .wallet && taker == .operatorRevenue) || (giver == .operatorRevenue && taker == .wallet)
        case .cancellationRefund: allowed = giver == .operatorRevenue && taker == .wallet
        case .cardRefund: allowed = giver == .wallet && taker == .providerClearing
        case .forfeit: allowed = false
        }
        guard allowed else { throw .wrongShape(movement, "money cannot move from \(giver.rawValue) to \(taker.rawValue).") }
    }

    /// PRK-13: a wallet may give only what it holds; it may reach zero exactly.
    /// `debit` is the positive amount to take.
    public static func allowsDebit(_ debit: Money, from balance: Money) -> Bool {
        debit.currency == balance.currency && debit.minorUnits >= 0 && debit.minorUnits <= balance.minorUnits
    }

    /// Checks that no wallet goes below zero if `transaction` is posted on top of the balances
    /// `currentBalance` reports. The server calls this inside the database transaction that
    /// locks the wallet rows, with the balances it has just read.
    public static func checkWallets(_ transaction: LedgerTransaction,
                                    currentBalance: (LedgerAccount, String) -> Int) throws(LedgerError) {
        for entry in transaction.entries where entry.account.kind == .wallet && entry.amount.isNegative {
            let balance = Money(currentBalance(entry.account, entry.amount.currency), entry.amount.currency)
            guard allowsDebit(entry.amount.magnitude, from: balance) else {
                throw .insufficientFunds(entry.account, balance: balance, debit: entry.amount.magnitude)
            }
        }
    }

    /// Balances from scratch, e.g. to audit the running totals a store keeps.
    public static func balances(of transactions: some Sequence<LedgerTransaction>) -> LedgerBalances {
        var result: LedgerBalances = [:]
        for transaction in transactions { add(transaction, to: &result) }
        return result
    }

    public static func balance(of account: LedgerAccount, currency: String,
                               in transactions: some Sequence<LedgerTransaction>) -> Money {
        var sum = 0
        for transaction in transactions {
            for entry in transaction.entries where entry.account == account && entry.amount.currency == currency {
                sum += entry.amount.minorUnits
            }
        }
        return Money(sum, currency)
    }

    /// A wallet's history for PRK-13, oldest first, with the balance after each line. A forfeit
    /// has no entry to tie it to a wallet, so it appears (with a zero amount) only when its
    /// booking is in `ownBookings`.
    public static func statement(of account: LedgerAccount, currency: String,
                                 in transactions: some Sequence<LedgerTransaction>,
                                 ownBookings: Set<String> = []) -> [StatementLine] {
        var balance = 0
        var lines: [StatementLine] = []
        for transaction in transactions {
            let amount = transaction.entries
                .filter { $0.account == account && $0.amount.currency == currency }
                .reduce(0) { $0 + $1.amount.minorUnits }
            let touches = transaction.entries.contains { $0.account == account && $0.amount.currency == currency }
            let forfeit = transaction.movement == .forfeit && transaction.reference.map(ownBookings.contains) == true
            guard touches || forfeit else { continue }
            balance += amount
            lines.append(StatementLine(transactionId: transaction.id, movement: transaction.movement, at: transaction.at,
                                       reference: transaction.reference, amount: Money(amount, currency),
                                       balanceAfter: Money(balance, currency)))
        }
        return lines
    }

    static func add(_ transaction: LedgerTransaction, to balances: inout LedgerBalances) {
        for entry in transaction.entries {
            balances[entry.account, default: [:]][entry.amount.currency, default: 0] += entry.amount.minorUnits
        }
    }
}

public struct StatementLine: Hashable, Sendable {
    public var transactionId: String
    public var movement: LedgerMovement
    public var at: Date
    public var reference: String?
    /// Signed from the account's side: a top-up is positive, a payment negative.
    public var amount: Money
    public var balanceAfter: Money
}

/// An in-memory ledger that applies every rule on posting: for tests, demos and clients that
/// replay a downloaded history. A database-backed store runs the same two checks
/// (`Ledger.validate`, `Ledger.checkWallets`) before inserting.
public struct LedgerBook: Sendable {
    public private(set) var transactions: [LedgerTransaction] = []
    public private(set) var balances: LedgerBalances = [:]
    private var ids: Set<String> = []

    public init() {}

    /// Posts all of `transaction` or, when a rule fails, nothing.
    public mutating func post(_ transaction: LedgerTransaction) throws(LedgerError) {
        guard !ids.contains(transaction.id) else { throw .duplicateTransaction(transaction.id) }
        try Ledger.validate(transaction)
        let current = balances
        try Ledger.checkWallets(transaction) { current[$0]?[$1] ?? 0 }
        ids.insert(transaction.id)
        transactions.append(transaction)
        Ledger.add(transaction, to: &balances)
    }

    public func balance(of account: LedgerAccount, currency: String) -> Money {
        Money(balances[account]?[currency] ?? 0, currency)
    }

    /// Sum over all accounts per currency; zero for every currency unless a rule is broken.
    public var totals: [String: Int] {
        var sums: [String: Int] = [:]
        for (_, perCurrency) in balances {
            for (currency, amount) in perCurrency { sums[currency, default: 0] += amount }
        }
        return sums
    }
}
