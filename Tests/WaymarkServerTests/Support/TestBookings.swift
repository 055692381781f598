import Foundation
import SQLKit
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// Bookings and wallets (PRK-12, PRK-13) in server tests.
extension TestContext {
    /// An instant in the test site's time zone (America/Los_Angeles), November 2026.
    static func local(day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        return calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute))!
    }

    static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    /// Accounts made straight in the database (no password: they only use their tokens), each
    /// topped up with `cents` through the demo provider.
    func members(_ count: Int, cents: Int = 0) async throws -> [(token: String, id: String)] {
        let now = clock.now
        let made = try await services.store.write { sql in
            var made: [(String, String)] = []
            for _ in 0..<count {
                let id = UUID().uuidString.lowercased()
                try await sql.raw("""
                    INSERT INTO users (id, kind, username, username_key, units, created_at, updated_at)
                    VALUES (\(bind: id), 'account', \(bind: "m" + id.prefix(8)), \(bind: "m" + id), 'metric', \(bind: now.millis), \(bind: now.millis))
                    """).run()
                made.append((try await Sessions.create(userId: id, kind: .account, now: now, on: sql).token, id))
            }
            return made
        }
        var remaining = cents
        while remaining > 0 {
            let part = min(remaining, WalletRules.topUpRange.upperBound)
            for member in made {
                _ = try await services.accounts.wallet.topUp(Principal(userId: member.1, kind: .account, tokenHash: ""),
                                                    amount: Money(part, "USD"), idempotencyKey: nil)
            }
            remaining -= part
        }
        return made.map { (token: $0.0, id: $0.1) }
    }

    func lotId(_ code: String) async throws -> String {
        guard let id = try await lotIds()[code] else { throw TestFailure("no lot \(code)") }
        return id
    }

    @discardableResult
    func book(_ token: String?, lot: String, _ start: Date, _ end: Date, key: String? = nil) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        return try await call(.POST, "/v1/bookings", token: token, json: ["lotId": lot, "start": Self.iso(start), "end": Self.iso(end)],
                              headers: headers)
    }

    @discardableResult
    func topUp(_ token: String?, cents: Int, currency: String = "USD", key: String? = nil) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        return try await call(.POST, "/v1/wallet/top-ups", token: token, json: ["amountMinor": cents, "currency": currency], headers: headers)
    }

    /// The wallet's USD balance as the API shows it.
    func balance(_ token: String) async throws -> Int {
        let balances = try await call(.GET, "/v1/wallet", token: token).json["balances"] as? [[String: Any]] ?? []
        return balances.first { $0["currency"] as? String == "USD" }?["minorUnits"] as? Int ?? 0
    }

    /// PRK-13's invariants over the whole database: every currency's entries sum to zero, the
    /// stored running balances equal the ledger recomputed by WaymarkCore, no wallet is negative,
    /// and every wallet's statement ends at its balance without ever going below zero.
    func checkLedger() async throws {
        let sql = services.store.sql
        let sums = try await sql.raw("SELECT currency, CAST(SUM(amount_minor) AS BIGINT) AS total FROM ledger_entries GROUP BY currency").all()
        for row in sums {
            let total = try row.decode(column: "total", as: Int.self)
            if total != 0 { throw TestFailure("\(try row.decode(column: "currency", as: String.self)) entries sum to \(total)") }
        }
        let transactions = try await LedgerStore.all(sql: sql)
        for transaction in transactions { try Ledger.validate(transaction) }
        let recomputed = Ledger.balances(of: transactions)
        let stored = try await sql.raw("SELECT account, currency, balance_minor FROM ledger_balances").all()
        var seen = 0
        for row in stored {
            let key = try row.decode(column: "account", as: String.self)
            let currency = try row.decode(column: "currency", as: String.self)
            let balance = try row.decode(column: "balance_minor", as: Int.self)
            guard let account = LedgerAccount(key: key) else { throw TestFailure("bad account \(key)") }
            if recomputed[account]?[currency] ?? 0 != balance { throw TestFailure("\(key) stores \(balance), the ledger says \(recomputed[account]?[currency] ?? 0)") }
            if account.kind == .wallet {
                if balance < 0 { throw TestFailure("\(key) is negative") }
                let statement = try await LedgerStore.statement(userId: account.owner, currency: currency, sql: sql)
                if statement.last?.balanceAfter.minorUnits != balance { throw TestFailure("\(key): statement ends at \(String(describing: statement.last?.balanceAfter)), balance \(balance)") }
                if statement.contains(where: { $0.balanceAfter.isNegative }) { throw TestFailure("\(key) went below zero") }
            }
            seen += 1
        }
        if seen != recomputed.values.reduce(0, { $0 + $1.count }) { throw TestFailure("balances missing for some accounts") }
    }
}
