import Foundation
import SQLKit

/// Opaque session tokens (ACC-3), stored as SHA-256 with an expiry that moves forward while the
/// session is used: an account stays signed in until it signs out or is idle for 30 days.
struct Sessions: Sendable {
    static let accountLifetime: TimeInterval = 30 * 86_400
    static let deviceLifetime: TimeInterval = 365 * 86_400
    /// Expiry is pushed forward at most once a day, so reads don't each cost a write.
    static let slideStep: TimeInterval = 86_400

    let store: SQLStore

    static func lifetime(_ kind: UserKind) -> TimeInterval {
        kind == .account ? accountLifetime : deviceLifetime
    }

    struct Issued: Sendable {
        var token: String
        var expiresAt: Date
    }

    /// Inside the caller's transaction.
    static func create(userId: String, kind: UserKind, now: Date, on sql: any SQLDatabase) async throws -> Issued {
        let token = Secrets.make(prefix: kind == .account ? "wms_" : "wmd_")
        let expires = now.addingTimeInterval(lifetime(kind))
        try await sql.raw("""
            INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
            VALUES (\(bind: Secrets.hash(token)), \(bind: userId), \(bind: now.millis), \(bind: expires.millis))
            """).run()
        return Issued(token: token, expiresAt: expires)
    }

    static func revokeAll(userId: String, on sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM sessions WHERE user_id = \(bind: userId)").run()
    }

    func authenticate(token: String, now: Date) async throws -> Principal? {
        guard (20...128).contains(token.count) else { return nil }
        let hash = Secrets.hash(token)
        guard let row = try await store.sql.raw("""
            SELECT s.user_id, s.expires_at, u.kind FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = \(bind: hash)
            """).first()
        else { return nil }
        let expires = Date(millis: try row.decode(column: "expires_at", as: Int64.self))
        guard expires > now, let kind = UserKind(rawValue: try row.decode(column: "kind", as: String.self)) else { return nil }
        let renewed = now.addingTimeInterval(Self.lifetime(kind))
        if renewed.timeIntervalSince(expires) > Self.slideStep {
            try await store.write { sql in
                try await sql.raw("UPDATE sessions SET expires_at = \(bind: renewed.millis) WHERE token_hash = \(bind: hash)").run()
            }
        }
        return Principal(userId: try row.decode(column: "user_id", as: String.self), kind: kind, tokenHash: hash)
    }

    func expiry(tokenHash: String) async throws -> Date? {
        try await store.sql.raw("SELECT expires_at FROM sessions WHERE token_hash = \(bind: tokenHash)").first()
            .map { Date(millis: try $0.decode(column: "expires_at", as: Int64.self)) }
    }

    func revoke(tokenHash: String) async throws {
        try await store.write { sql in
            try await sql.raw("DELETE FROM sessions WHERE token_hash = \(bind: tokenHash)").run()
        }
    }

    func prune(now: Date) async throws {
        try await store.write { sql in
            try await sql.raw("DELETE FROM sessions WHERE expires_at < \(bind: now.millis)").run()
        }
    }
}
