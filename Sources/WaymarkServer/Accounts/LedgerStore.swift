import Foundation
import SQLKit
import WaymarkCore

/// The double-entry ledger of PRK-13 in tables. Posting runs the core's rules
/// (`Ledger.validate`, then `Ledger.checkWallets` on balances read on the caller's transaction
/// connection) before anything is written; callers hold the lock of every user whose wallet a
/// transaction takes from (`AdvisoryLocks.lockUser`), so the balance read is still true at
/// commit. `ledger_balances` keeps running totals; its CHECK refuses a negative wallet even if
/// a caller forgot the lock.
enum LedgerStore {
    static let insufficientFunds = "insufficient-funds"

    /// Posts all of `transaction` or nothing. A wallet that holds too little is 402
    /// `insufficient-funds`; any other rule broken is a bug and stays a 500.
    static func post(_ transaction: LedgerTransaction, sql: any SQLDatabase) async throws {
        do {
            try Ledger.validate(transaction)
            var balances: [LedgerAccount: [String: Int]] = [:]
            for entry in transaction.entries where entry.account.kind == .wallet && entry.amount.isNegative {
                balances[entry.account, default: [:]][entry.amount.currency] =
                    try await balance(of: entry.account, currency: entry.amount.currency, sql: sql).minorUnits
            }
            let read = balances
            try Ledger.checkWallets(transaction) { read[$0]?[$1] ?? 0 }
        } catch let error as LedgerError {
            if case .insufficientFunds = error {
                throw Problem(type: insufficientFunds, title: "Not enough money in the wallet", status: 402,
                              detail: error.description + " Top up your wallet first.")
            }
            throw error
        }
        try await sql.raw("""
            INSERT INTO ledger_transactions (id, movement, at, reference)
            VALUES (\(bind: transaction.id), \(bind: transaction.movement.rawValue), \(bind: transaction.at.millis), \(bind: transaction.reference))
            """).run()
        for entry in transaction.entries {
            try await sql.raw("""
                INSERT INTO ledger_entries (transaction_id, account, currency, amount_minor)
                VALUES (\(bind: transaction.id), \(bind: entry.account.key), \(bind: entry.amount.currency), \(bind: entry.amount.minorUnits))
                """).run()
            // A zero row first, then the change: an upsert would test the CHECK against the
            // entry alone, and a debit on its own is negative.
            try await sql.raw("""
                INSERT INTO ledger_balances (account, currency, kind, balance_minor)
                VALUES (\(bind: entry.account.key), \(bind: entry.amount.currency), \(bind: entry.account.kind.rawValue), 0)
                ON CONFLICT (account, currency) DO NOTHING
                """).run()
            try await sql.raw("""
                UPDATE ledger_balances SET balance_minor = balance_minor + \(bind: entry.amount.minorUnits)
                WHERE account = \(bind: entry.account.key) AND currency = \(bind: entry.amount.currency)
                """).run()
        }
    }

    static func balance(of account: LedgerAccount, currency: String, sql: any SQLDatabase) async throws -> Money {
        let row = try await sql.raw("""
            SELECT balance_minor FROM ledger_balances WHERE account = \(bind: account.key) AND currency = \(bind: currency)
            """).first()
        return Money(try row?.decode(column: "balance_minor", as: Int.self) ?? 0, currency)
    }

    /// Every currency the account has held, by code.
    static func balances(of account: LedgerAccount, sql: any SQLDatabase) async throws -> [Money] {
        try await sql.raw("""
            SELECT currency, balance_minor FROM ledger_balances WHERE account = \(bind: account.key) ORDER BY currency
            """).all().map { Money(try $0.decode(column: "balance_minor", as: Int.self), try $0.decode(column: "currency", as: String.self)) }
    }

    /// The user's wallet history in `currency`, oldest first, as the core's statement: every
    /// transaction with an entry on the wallet, and the forfeits of the user's bookings.
    static func statement(userId: String, currency: String, sql: any SQLDatabase) async throws -> [StatementLine] {
        let account = LedgerAccount.wallet(userId)
        let rows = try await sql.raw("""
            SELECT t.id, t.movement, t.at, t.reference FROM ledger_transactions t
            WHERE t.id IN (SELECT transaction_id FROM ledger_entries WHERE account = \(bind: account.key) AND currency = \(bind: currency))
               OR (t.movement = 'forfeit' AND t.reference IN (SELECT id FROM bookings WHERE user_id = \(bind: userId) AND currency = \(bind: currency)))
            ORDER BY t.seq
            """).all()
        let transactions = try await load(rows, sql: sql)
        let forfeited = Set(transactions.filter { $0.movement == .forfeit }.compactMap(\.reference))
        return Ledger.statement(of: account, currency: currency, in: transactions, ownBookings: forfeited)
    }

    /// Every transaction, in posting order: for audits and tests.
    static func all(sql: any SQLDatabase) async throws -> [LedgerTransaction] {
        try await load(try await sql.raw("SELECT id, movement, at, reference FROM ledger_transactions ORDER BY seq").all(), sql: sql)
    }

    private static func load(_ rows: [any SQLRow], sql: any SQLDatabase) async throws -> [LedgerTransaction] {
        var transactions: [LedgerTransaction] = []
        var index: [String: Int] = [:]
        for row in rows {
            let id = try row.decode(column: "id", as: String.self)
            guard let movement = LedgerMovement(rawValue: try row.decode(column: "movement", as: String.self)) else { continue }
            index[id] = transactions.count
            transactions.append(LedgerTransaction(
                id: id, movement: movement, entries: [], at: Date(millis: try row.decode(column: "at", as: Int64.self)),
                reference: try row.decode(column: "reference", as: String?.self)))
        }
        for chunk in transactions.map(\.id).chunked(500) {
            let entries = try await sql.raw("""
                SELECT transaction_id, account, currency, amount_minor FROM ledger_entries
                WHERE transaction_id IN (\(binds: Array(chunk))) ORDER BY transaction_id, account
                """).all()
            for entry in entries {
                guard let i = index[try entry.decode(column: "transaction_id", as: String.self)],
                      let account = LedgerAccount(key: try entry.decode(column: "account", as: String.self)) else { continue }
                transactions[i].entries.append(LedgerEntry(account, Money(try entry.decode(column: "amount_minor", as: Int.self),
                                                                          try entry.decode(column: "currency", as: String.self))))
            }
        }
        return transactions
    }

    /// ACC-5: the wallet's rows stay, since the operator's and the provider's sides would not
    /// balance without them, but they name a random tombstone instead of the user.
    static func anonymise(userId: String, tombstone: String, sql: any SQLDatabase) async throws {
        let from = LedgerAccount.wallet(userId).key, to = LedgerAccount.wallet(tombstone).key
        try await sql.raw("UPDATE ledger_entries SET account = \(bind: to) WHERE account = \(bind: from)").run()
        try await sql.raw("UPDATE ledger_balances SET account = \(bind: to) WHERE account = \(bind: from)").run()
        // Card payments are money records too; a payment still open is refunded when it succeeds.
        try await sql.raw("UPDATE card_payments SET user_id = \(bind: tombstone), client_secret = NULL WHERE user_id = \(bind: userId)").run()
    }
}
