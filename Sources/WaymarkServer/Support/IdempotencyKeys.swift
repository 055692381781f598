import Foundation
import SQLKit

/// Client-chosen keys that make a retried booking, top-up or review answer with the first result
/// (PRK-19's offline queue replays writes with them). A key belongs to one user and one kind
/// of request; `fingerprint` records what was asked, so that a key reused for something else is
/// refused rather than silently answered with an unrelated result. Looked up and remembered
/// inside the write transaction that makes the result, under the user's lock.
enum IdempotencyKeys {
    enum Scope: String {
        case booking, bookingSeries, topUp, cardTopUp, review
    }

    /// Kept this long; a queue that has been offline for longer starts over.
    static let retention: TimeInterval = 30 * 86_400

    static let maxLength = 128

    /// The header as sent (`RawHeaderMiddleware` keeps it from being percent-decoded), checked
    /// against the contract's bounds.
    static func validated(_ key: String?) throws -> String? {
        guard let key else { return nil }
        guard (1...maxLength).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem.badRequest("Idempotency-Key is 1 to 128 printable ASCII characters without spaces.")
        }
        return key
    }

    static let reused = Problem.conflict(
        "idempotency-key-reused", "This Idempotency-Key was already used for a different request; use a new key for a new request.")

    /// The id of the result made for this key, or nil if the key is new. A key first used with
    /// another fingerprint is a conflict.
    static func result(userId: String, scope: Scope, key: String, fingerprint: String, sql: any SQLDatabase) async throws -> String? {
        guard let row = try await sql.raw("""
            SELECT fingerprint, result_id FROM idempotency_keys
            WHERE user_id = \(bind: userId) AND scope = \(bind: scope.rawValue) AND key = \(bind: key)
            """).first() else { return nil }
        guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { throw reused }
        return try row.decode(column: "result_id", as: String.self)
    }

    static func remember(userId: String, scope: Scope, key: String, fingerprint: String, resultId: String, at now: Date,
                         sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO idempotency_keys (user_id, scope, key, fingerprint, result_id, created_at)
            VALUES (\(bind: userId), \(bind: scope.rawValue), \(bind: key), \(bind: fingerprint), \(bind: resultId), \(bind: now.millis))
            """).run()
    }

    static func prune(now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM idempotency_keys WHERE created_at < \(bind: now.addingTimeInterval(-retention).millis)").run()
    }
}
