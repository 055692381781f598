import Foundation
import Testing
import WaymarkCore

/// PRK-13: every wallet movement is a balanced ledger transaction, and no wallet goes negative.
@Suite("Wallet ledger (PRK-13)")
struct LedgerTests {
    static let t0 = Date(timeIntervalSince1970: 1_740_000_000)
    static func cop(_ minor: Int) -> Money { Money(minor, "COP") }

    func error(_ body: () throws -> Void) -> LedgerError? {
        do { try body(); return nil } catch let e as LedgerError { return e } catch { return nil }
    }

    @Test("PRK-13: top-up, payment, settlement and refund move money between the right accounts and always sum to zero")
    func prk13Movements() throws {
        var book = LedgerBook()
        try book.post(.topUp(id: "t1", userId: "ana", provider: "demo", amount: Self.cop(50_000_00), at: Self.t0))
        try book.post(.bookingPayment(id: "t2", userId: "ana", operatorId: "sd", amount: Self.cop(12_000_00), bookingId: "b1", at: Self.t0))
        try book.post(.modificationSettlement(id: "t3", userId: "ana", operatorId: "sd", userPays: Self.cop(3_000_00), bookingId: "b1", at: Self.t0))
        try book.post(.modificationSettlement(id: "t4", userId: "ana", operatorId: "sd", userPays: Self.cop(-1_000_00), bookingId: "b1", at: Self.t0))
        try book.post(.cancellationRefund(id: "t5", userId: "ana", operatorId: "sd", amount: Self.cop(14_000_00), bookingId: "b1", at: Self.t0))
        try book.post(.bookingPayment(id: "t6", userId: "ana", operatorId: "sd", amount: Self.cop(8_000_00), bookingId: "b2", at: Self.t0))
        try book.post(.forfeit(id: "t7", bookingId: "b2", at: Self.t0))

        #expect(book.balance(of: .wallet("ana"), currency: "COP") == Self.cop(42_000_00))
        #expect(book.balance(of: .operator("sd"), currency: "COP") == Self.cop(8_000_00))
        #expect(book.balance(of: .provider("demo"), currency: "COP") == Self.cop(-50_000_00))
        #expect(book.totals == ["COP": 0])
        #expect(Ledger.balances(of: book.transactions) == book.balances)
        #expect(Ledger.balance(of: .wallet("ana"), currency: "COP", in: book.transactions) == Self.cop(42_000_00))
        for transaction in book.transactions { #expect(Ledger.imbalance(of: transaction.entries).isEmpty) }
    }

    @Test("PRK-13: a wallet may be spent to exactly zero but not one minor unit below")
    func prk13NeverNegative() throws {
        #expect(Ledger.allowsDebit(Self.cop(100), from: Self.cop(100)))
        #expect(!Ledger.allowsDebit(Self.cop(101), from: Self.cop(100)))
        #expect(!Ledger.allowsDebit(Self.cop(1), from: Self.cop(0)))
        #expect(!Ledger.allowsDebit(Self.cop(-1), from: Self.cop(0)))
        #expect(!Ledger.allowsDebit(Money(1, "USD"), from: Self.cop(100)))

        var book = LedgerBook()
        try book.post(.topUp(id: "t1", userId: "ana", provider: "demo", amount: Self.cop(100), at: Self.t0))
        let tooMuch = LedgerTransaction.bookingPayment(id: "t2", userId: "ana", operatorId: "sd", amount: Self.cop(101), bookingId: "b1", at: Self.t0)
        #expect(error { try book.post(tooMuch) } == .insufficientFunds(.wallet("ana"), balance: Self.cop(100), debit: Self.cop(101)))
        // Nothing of the refused transaction is kept, and its id stays free.
        #expect(book.transactions.count == 1)
        #expect(book.balance(of: .wallet("ana"), currency: "COP") == Self.cop(100))
        try book.post(.bookingPayment(id: "t2", userId: "ana", operatorId: "sd", amount: Self.cop(100), bookingId: "b1", at: Self.t0))
        #expect(book.balance(of: .wallet("ana"), currency: "COP") == .zero("COP"))
        // A settlement that takes more from an empty wallet is refused too; one that refunds is not.
        #expect(error { try book.post(.modificationSettlement(id: "t3", userId: "ana", operatorId: "sd", userPays: Self.cop(1), bookingId: "b1", at: Self.t0)) }
                == .insufficientFunds(.wallet("ana"), balance: .zero("COP"), debit: Self.cop(1)))
        try book.post(.modificationSettlement(id: "t3", userId: "ana", operatorId: "sd", userPays: Self.cop(-40), bookingId: "b1", at: Self.t0))
        #expect(book.balance(of: .wallet("ana"), currency: "COP") == Self.cop(40))
    }

    @Test("PRK-13: checkWallets reads the balances the caller passes, per currency")
    func prk13CheckWalletsPerCurrency() {
        let pay = LedgerTransaction.bookingPayment(id: "x", userId: "ana", operatorId: "sd", amount: Money(500, "USD"), bookingId: "b", at: Self.t0)
        let rich: (LedgerAccount, String) -> Int = { account, currency in account == .wallet("ana") && currency == "COP" ? 1_000_000 : 0 }
        // Plenty of pesos do not pay in dollars.
        #expect(error { try Ledger.checkWallets(pay, currentBalance: rich) } == .insufficientFunds(.wallet("ana"), balance: Money(0, "USD"), debit: Money(500, "USD")))
        #expect(error { try Ledger.checkWallets(pay) { _, c in c == "USD" ? 500 : 0 } } == nil)
        // Operators and providers have no floor.
        let refund = LedgerTransaction.cancellationRefund(id: "y", userId: "ana", operatorId: "sd", amount: Money(500, "USD"), bookingId: "b", at: Self.t0)
        #expect(error { try Ledger.checkWallets(refund) { _, _ in 0 } } == nil)
    }

    @Test("PRK-13: unbalanced, empty, repeated or badly-coded entries are refused")
    func prk13Validation() {
        let ana = LedgerAccount.wallet("ana"), sd = LedgerAccount.operator("sd")
        func tx(_ movement: LedgerMovement, _ entries: [LedgerEntry], reference: String? = "b1") -> LedgerTransaction {
            LedgerTransaction(id: "x", movement: movement, entries: entries, at: Self.t0, reference: reference)
        }
        #expect(error { try Ledger.validate(tx(.bookingPayment, [LedgerEntry(ana, Self.cop(-100)), LedgerEntry(sd, Self.cop(99))])) }
                == .unbalanced(currency: "COP", sum: -1))
        #expect(error { try Ledger.validate(tx(.bookingPayment, [LedgerEntry(ana, Money(-100, "COP")), LedgerEntry(sd, Money(100, "USD"))])) }
                == .unbalanced(currency: "COP", sum: -100))
        #expect(error { try Ledger.validate(tx(.bookingPayment, [LedgerEntry(ana, Self.cop(0)), LedgerEntry(sd, Self.cop(0))])) } == .zeroEntry(ana))
        #expect(error { try Ledger.validate(tx(.bookingPayment, [LedgerEntry(ana, Self.cop(-100)), LedgerEntry(ana, Self.cop(100))])) } == .accountRepeated(ana))
        #expect(error { try Ledger.validate(tx(.bookingPayment, [LedgerEntry(ana, Money(-1, "pesos")), LedgerEntry(sd, Money(1, "pesos"))])) } == .invalidCurrency("pesos"))
        #expect(error { try Ledger.validate(tx(.bookingPayment, [])) } == .wrongShape(.bookingPayment, "exactly two entries are expected."))
        // A zero settlement is no transaction at all.
        #expect(error { try Ledger.validate(.modificationSettlement(id: "x", userId: "ana", operatorId: "sd", userPays: Self.cop(0), bookingId: "b1", at: Self.t0)) } == .zeroEntry(ana))
        // Balanced in every currency but three-way: not a shape any movement has.
        let three = tx(.bookingPayment, [LedgerEntry(ana, Self.cop(-100)), LedgerEntry(sd, Self.cop(60)), LedgerEntry(.operator("other"), Self.cop(40))])
        #expect(Ledger.imbalance(of: three.entries).isEmpty)
        #expect(error { try Ledger.validate(three) } == .wrongShape(.bookingPayment, "exactly two entries are expected."))
    }

    @Test("PRK-13: each movement only moves money the way it says")
    func prk13Shapes() {
        let ana = LedgerAccount.wallet("ana"), ben = LedgerAccount.wallet("ben")
        let sd = LedgerAccount.operator("sd"), demo = LedgerAccount.provider("demo")
        func shapeError(_ movement: LedgerMovement, from giver: LedgerAccount, to taker: LedgerAccount) -> LedgerError? {
            error { try Ledger.validate(LedgerTransaction(id: "x", movement: movement,
                entries: [LedgerEntry(giver, Self.cop(-5)), LedgerEntry(taker, Self.cop(5))], at: Self.t0, reference: "r")) }
        }
        let allowed: [(LedgerMovement, LedgerAccount, LedgerAccount)] = [
            (.topUp, demo, ana), (.bookingPayment, ana, sd), (.modificationSettlement, ana, sd),
            (.modificationSettlement, sd, ana), (.cancellationRefund, sd, ana), (.cardRefund, ana, demo),
        ]
        let accounts = [ana, ben, sd, demo]
        for movement in LedgerMovement.allCases {
            for giver in accounts {
                for taker in accounts where taker != giver {
                    let ok = allowed.contains { $0.0 == movement && $0.1.kind == giver.kind && $0.2.kind == taker.kind }
                    let e = shapeError(movement, from: giver, to: taker)
                    if ok { #expect(e == nil, "\(movement) \(giver) → \(taker)") }
                    else {
                        guard case .wrongShape(movement, _)? = e else {
                            Issue.record("\(movement) \(giver) → \(taker) gave \(String(describing: e))")
                            continue
                        }
                    }
                }
            }
        }
        // Wallet to wallet is no movement we have: no transfers between users.
        #expect(shapeError(.modificationSettlement, from: ana, to: ben) == .wrongShape(.modificationSettlement, "money cannot move from wallet to wallet."))
    }

    @Test("PRK-13: a forfeit moves nothing, and booking movements must name their booking")
    func prk13ForfeitAndReferences() throws {
        #expect(error { try Ledger.validate(.forfeit(id: "f", bookingId: "b1", at: Self.t0)) } == nil)
        let moving = LedgerTransaction(id: "f", movement: .forfeit, entries: [LedgerEntry(.operator("sd"), Self.cop(-5)), LedgerEntry(.wallet("ana"), Self.cop(5))], at: Self.t0, reference: "b1")
        #expect(error { try Ledger.validate(moving) } == .wrongShape(.forfeit, "a forfeit moves no money."))
        for movement in LedgerMovement.allCases where movement != .topUp {
            for reference in [nil, ""] as [String?] {
                let tx = LedgerTransaction(id: "x", movement: movement, entries: [], at: Self.t0, reference: reference)
                #expect(error { try Ledger.validate(tx) } == .missingReference(movement))
            }
        }
        // A top-up needs none.
        #expect(error { try Ledger.validate(.topUp(id: "t", userId: "ana", provider: "demo", amount: Self.cop(5), at: Self.t0)) } == nil)
    }

    @Test("PRK-13: the same transaction id cannot be posted twice, so a retried request does not pay twice")
    func prk13Idempotent() throws {
        var book = LedgerBook()
        let topUp = LedgerTransaction.topUp(id: "t1", userId: "ana", provider: "demo", amount: Self.cop(500), at: Self.t0)
        try book.post(topUp)
        #expect(error { try book.post(topUp) } == .duplicateTransaction("t1"))
        #expect(book.balance(of: .wallet("ana"), currency: "COP") == Self.cop(500))
    }

    @Test("PRK-13: the wallet history lists every movement with the balance after it, forfeits of own bookings included")
    func prk13Statement() throws {
        var book = LedgerBook()
        try book.post(.topUp(id: "t1", userId: "ana", provider: "demo", amount: Self.cop(1_000), at: Self.t0))
        try book.post(.topUp(id: "t2", userId: "ben", provider: "demo", amount: Self.cop(7_000), at: Self.t0))
        try book.post(.bookingPayment(id: "t3", userId: "ana", operatorId: "sd", amount: Self.cop(300), bookingId: "b1", at: Self.t0.addingTimeInterval(60)))
        try book.post(.bookingPayment(id: "t4", userId: "ben", operatorId: "sd", amount: Self.cop(300), bookingId: "b2", at: Self.t0))
        try book.post(.modificationSettlement(id: "t5", userId: "ana", operatorId: "sd", userPays: Self.cop(-100), bookingId: "b1", at: Self.t0))
        try book.post(.forfeit(id: "t6", bookingId: "b1", at: Self.t0))
        try book.post(.forfeit(id: "t7", bookingId: "b2", at: Self.t0))
        try book.post(.topUp(id: "t8", userId: "ana", provider: "demo", amount: Money(5, "USD"), at: Self.t0))

        let lines = Ledger.statement(of: .wallet("ana"), currency: "COP", in: book.transactions, ownBookings: ["b1"])
        #expect(lines.map(\.transactionId) == ["t1", "t3", "t5", "t6"])
        #expect(lines.map(\.amount.minorUnits) == [1_000, -300, 100, 0])
        #expect(lines.map(\.balanceAfter.minorUnits) == [1_000, 700, 800, 800])
        #expect(lines.map(\.movement) == [.topUp, .bookingPayment, .modificationSettlement, .forfeit])
        #expect(lines.last?.balanceAfter == book.balance(of: .wallet("ana"), currency: "COP"))
        // Without her booking ids, forfeits are not hers to show.
        #expect(Ledger.statement(of: .wallet("ana"), currency: "COP", in: book.transactions).count == 3)
        #expect(Ledger.statement(of: .wallet("ana"), currency: "USD", in: book.transactions).map(\.balanceAfter) == [Money(5, "USD")])
    }

    @Test("PRK-13: accounts are stored as one key and read back")
    func prk13AccountKeys() {
        for account in [LedgerAccount.wallet("u-42"), .provider("demo"), .operator("op:with:colons")] {
            #expect(LedgerAccount(key: account.key) == account)
        }
        #expect(LedgerAccount.wallet("u-42").key == "wallet:u-42")
        #expect(LedgerAccount(key: "bank:x") == nil)
        #expect(LedgerAccount(key: "wallet:") == nil)
        #expect(LedgerAccount(key: "wallet") == nil)
    }

    @Test("PRK-13: money is integer minor units; adding across currencies is not done")
    func prk13Money() {
        #expect(Self.cop(10) + Self.cop(-3) == Self.cop(7))
        #expect(Self.cop(10) - Self.cop(13) == Self.cop(-3))
        #expect((-Self.cop(4)).magnitude == Self.cop(4))
        #expect(Money.isValidCurrency("COP") && !Money.isValidCurrency("CO") && !Money.isValidCurrency("cop") && !Money.isValidCurrency("ÇOP"))
        // 0.1 + 0.2 is exactly 0.3 here.
        #expect(Money(10, "USD") + Money(20, "USD") == Money(30, "USD"))
    }

    @Test("PRK-13: amounts in sentences use the currency's own decimals")
    func prk13MoneyText() {
        #expect(Money(1_200, "USD").displayText == "12.00 USD")
        #expect(Money(5, "USD").displayText == "0.05 USD")
        #expect(Money(-780, "EUR").displayText == "-7.80 EUR")
        #expect(Money(500, "JPY").displayText == "500 JPY")
        #expect(Money(1_005, "KWD").displayText == "1.005 KWD")
        let short = LedgerError.insufficientFunds(.wallet("u"), balance: Money(800, "USD"), debit: Money(1_200, "USD"))
        #expect(short.description == "The wallet holds 8.00 USD and 12.00 USD is needed.")
    }

    // MARK: Random workload

    /// Thousands of mixed operations through BookingRules and the ledger, checked after every
    /// step against an independent model.
    @Test("PRK-13: a random mixed workload keeps every currency at zero and every wallet at or above zero", arguments: [1, 2, 3, 42] as [UInt64])
    func prk13RandomWorkload(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let users = (0..<20).map { "u\($0)" }
        let operators = ["op0", "op1", "op2"]
        let currencies = ["COP", "USD"]
        var book = LedgerBook()
        var bookings: [String: (booking: Booking, operatorId: String)] = [:]
        var expectedWallet: [String: [String: Int]] = [:]
        var counts: [String: Int] = [:]
        var nextId = 0
        var now = Self.t0
        func newId() -> String { nextId += 1; return "tx\(nextId)" }

        for step in 0..<5_000 {
            now = now.addingTimeInterval(60)
            let user = users.randomElement(using: &rng)!
            let currency = currencies.randomElement(using: &rng)!
            let wallet = expectedWallet[user]?[currency] ?? 0
            // Sorted: a dictionary's order changes from run to run, and the seed must decide everything.
            let open = bookings.values.filter { $0.booking.state == .booked && $0.booking.range.start > now }
                .sorted { $0.booking.id < $1.booking.id }
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                let amount = Int.random(in: 1...50_000, using: &rng)
                try book.post(.topUp(id: newId(), userId: user, provider: "demo", amount: Money(amount, currency), at: now))
                expectedWallet[user, default: [:]][currency, default: 0] += amount
                counts["topUp", default: 0] += 1
            case 2, 3, 4:
                // Sometimes more than the wallet holds, to exercise the floor.
                let price = Int.random(in: 1...max(1, wallet + wallet / 4 + 100), using: &rng)
                let start = now.addingTimeInterval(TimeInterval(Int.random(in: 1...2_000, using: &rng) * 60))
                let booking = Booking(id: "b\(step)", userId: user, lotId: "lot", range: BookingRange(start: start, end: start.addingTimeInterval(3_600)), paid: Money(price, currency))
                let operatorId = operators.randomElement(using: &rng)!
                let pay = LedgerTransaction.bookingPayment(id: newId(), userId: user, operatorId: operatorId, amount: booking.paid, bookingId: booking.id, at: now)
                do {
                    try book.post(pay)
                    #expect(price <= wallet)
                    bookings[booking.id] = (booking, operatorId)
                    expectedWallet[user, default: [:]][currency, default: 0] -= price
                    counts["bookingPayment", default: 0] += 1
                } catch {
                    #expect(error == .insufficientFunds(.wallet(user), balance: Money(wallet, currency), debit: Money(price, currency)))
                    #expect(price > wallet)
                    counts["refused", default: 0] += 1
                }
            case 5, 6:
                guard let (booking, operatorId) = open.randomElement(using: &rng) else { continue }
                let owner = booking.userId, cur = booking.paid.currency
                let ownerWallet = expectedWallet[owner]?[cur] ?? 0
                let newPrice = Money(max(1, booking.paid.minorUnits + Int.random(in: -5_000...5_000, using: &rng)), cur)
                let newRange = BookingRange(start: booking.range.start, end: booking.range.end.addingTimeInterval(1_800))
                let outcome = try BookingRules.modify(booking, to: newRange, newPrice: newPrice, at: now)
                if outcome.settlement.isZero {
                    bookings[booking.id]!.booking = outcome.booking
                    continue
                }
                do {
                    try book.post(.modificationSettlement(id: newId(), userId: owner, operatorId: operatorId, userPays: outcome.settlement, bookingId: booking.id, at: now))
                    #expect(outcome.settlement.minorUnits <= ownerWallet)
                    bookings[booking.id]!.booking = outcome.booking
                    expectedWallet[owner, default: [:]][cur, default: 0] -= outcome.settlement.minorUnits
                    counts["modificationSettlement", default: 0] += 1
                } catch {
                    // The modification is refused as a whole: the booking keeps its old range and price.
                    #expect(outcome.settlement.minorUnits > ownerWallet)
                    counts["refused", default: 0] += 1
                }
            case 7, 8:
                guard let (booking, operatorId) = open.randomElement(using: &rng) else { continue }
                let outcome = try BookingRules.cancel(booking, at: now)
                #expect(outcome.settlement == -booking.paid)
                try book.post(.cancellationRefund(id: newId(), userId: booking.userId, operatorId: operatorId, amount: outcome.settlement.magnitude, bookingId: booking.id, at: now))
                bookings[booking.id]!.booking = outcome.booking
                expectedWallet[booking.userId, default: [:]][booking.paid.currency, default: 0] += booking.paid.minorUnits
                counts["cancellationRefund", default: 0] += 1
            default:
                // Jump past a booking's deadline and forfeit it.
                guard let (booking, _) = open.randomElement(using: &rng) else { continue }
                let later = max(now, BookingRules.forfeitDeadline(of: booking.range))
                let outcome = try BookingRules.forfeit(booking, at: later)
                #expect(outcome.settlement.isZero)
                try book.post(.forfeit(id: newId(), bookingId: booking.id, at: later))
                bookings[booking.id]!.booking = outcome.booking
                counts["forfeit", default: 0] += 1
            }

            // Invariants after every step.
            #expect(book.totals.values.allSatisfy { $0 == 0 }, "step \(step)")
            for (account, perCurrency) in book.balances where account.kind == .wallet {
                #expect(perCurrency.values.allSatisfy { $0 >= 0 }, "\(account) at step \(step)")
            }
        }

        // The running balances match the model and a recount from scratch.
        for user in users {
            for currency in currencies {
                #expect(book.balance(of: .wallet(user), currency: currency).minorUnits == expectedWallet[user]?[currency] ?? 0)
            }
        }
        #expect(Ledger.balances(of: book.transactions) == book.balances)
        // Operators hold exactly what is paid for bookings that were not cancelled.
        for operatorId in operators {
            for currency in currencies {
                let kept = bookings.values
                    .filter { $0.operatorId == operatorId && $0.booking.state != .cancelled && $0.booking.paid.currency == currency }
                    .reduce(0) { $0 + $1.booking.paid.minorUnits }
                #expect(book.balance(of: .operator(operatorId), currency: currency).minorUnits == kept)
            }
        }
        // Every kind of operation happened, refusals included.
        for kind in ["topUp", "bookingPayment", "modificationSettlement", "cancellationRefund", "forfeit", "refused"] {
            #expect(counts[kind, default: 0] > 50, "\(kind): \(counts[kind, default: 0])")
        }
        #expect(book.transactions.count > 3_000)
    }
}
