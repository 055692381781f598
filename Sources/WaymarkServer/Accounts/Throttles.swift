import Foundation
import SQLKit
import WaymarkCore

/// Failure counters in the database, so that every server instance sees the same counts and a
/// restart does not hand an attacker a fresh budget.
struct Throttles: Sendable {
    struct Entry: Sendable {
        var failures: Int
        var firstAt: Date
        var lastAt: Date
    }

    let store: SQLStore

    static func accountKey(_ usernameOrLogin: String) -> String { "account:" + usernameOrLogin.lowercased() }
    static func addressKey(_ address: String) -> String { "address:" + address }

    func entry(_ key: String) async throws -> Entry? {
        guard let row = try await store.sql.raw("SELECT failures, first_at, last_at FROM throttles WHERE key = \(bind: key)").first()
        else { return nil }
        return Entry(
            failures: try row.decode(column: "failures", as: Int.self),
            firstAt: Date(millis: try row.decode(column: "first_at", as: Int64.self)),
            lastAt: Date(millis: try row.decode(column: "last_at", as: Int64.self)))
    }

    /// Counts one more failure in one statement (no lost increments under concurrency). A
    /// count whose first failure is older than `window` starts again at 1.
    @discardableResult
    func recordFailure(_ key: String, now: Date, window: TimeInterval) async throws -> Int {
        let cutoff = now.addingTimeInterval(-window).millis
        let row = try await store.write { sql in
            try await sql.raw("""
                INSERT INTO throttles (key, failures, first_at, last_at) VALUES (\(bind: key), 1, \(bind: now.millis), \(bind: now.millis))
                ON CONFLICT (key) DO UPDATE SET
                    failures = CASE WHEN throttles.first_at < \(bind: cutoff) THEN 1 ELSE throttles.failures + 1 END,
                    first_at = CASE WHEN throttles.first_at < \(bind: cutoff) THEN excluded.first_at ELSE throttles.first_at END,
                    last_at = excluded.last_at
                RETURNING failures
                """).first()
        }
        return try row?.decode(column: "failures", as: Int.self) ?? 1
    }

    func clear(_ keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await store.write { sql in
            for key in keys { try await sql.raw("DELETE FROM throttles WHERE key = \(bind: key)").run() }
        }
    }

    /// For counters that only limit a rate (device creation, registration, reset mails):
    /// nil while under `limit` in the window, else when to come back.
    func rateLimited(_ key: String, limit: Int, window: TimeInterval, now: Date) async throws -> Date? {
        let count = try await recordFailure(key, now: now, window: window)
        guard count > limit, let e = try await entry(key) else { return nil }
        return e.firstAt.addingTimeInterval(window)
    }

    /// Drops counters nobody has touched for a day.
    func prune(now: Date) async throws {
        try await store.write { sql in
            try await sql.raw("DELETE FROM throttles WHERE last_at < \(bind: now.addingTimeInterval(-86_400).millis)").run()
        }
    }
}
