import Crypto
import Foundation
import SQLKit

/// One browser's push subscription (PRK-22).
struct PushSubscriptionRow: Sendable {
    var id: String
    var userId: String
    var endpoint: String
    var p256dh: String
    var auth: String
    var createdAt: Int64
    var expiresAt: Int64?
    var lastSuccessAt: Int64?

    static let columns = "id, user_id, endpoint, p256dh, auth, created_at, expires_at, last_success_at"

    init(_ r: any SQLRow) throws {
        id = try r.decode(column: "id", as: String.self)
        userId = try r.decode(column: "user_id", as: String.self)
        endpoint = try r.decode(column: "endpoint", as: String.self)
        p256dh = try r.decode(column: "p256dh", as: String.self)
        auth = try r.decode(column: "auth", as: String.self)
        createdAt = try r.decode(column: "created_at", as: Int64.self)
        expiresAt = try r.decode(column: "expires_at", as: Int64?.self)
        lastSuccessAt = try r.decode(column: "last_success_at", as: Int64?.self)
    }
}

/// The SQL of Web Push: the server's key, subscriptions, preferences and the claim of
/// notifications still to be pushed.
enum PushStore {
    /// A person keeps at most this many browsers; a new one beyond it replaces the oldest.
    static let maxSubscriptionsPerUser = 20

    /// The VAPID key, made by whichever instance asks first; the others read that one.
    static func serverKey(now: Date, sql: any SQLDatabase) async throws -> VAPIDKey {
        if let key = try await storedKey(sql: sql) { return key }
        let fresh = P256.Signing.PrivateKey()
        try await sql.raw("""
            INSERT INTO push_server_keys (id, private_key, created_at)
            VALUES (1, \(bind: fresh.rawRepresentation.base64URL), \(bind: now.millis)) ON CONFLICT (id) DO NOTHING
            """).run()
        guard let key = try await storedKey(sql: sql) else { throw PushStoreError.noServerKey }
        return key
    }

    private static func storedKey(sql: any SQLDatabase) async throws -> VAPIDKey? {
        guard let text = try await sql.raw("SELECT private_key FROM push_server_keys WHERE id = 1").first()?
            .decode(column: "private_key", as: String.self) else { return nil }
        guard let raw = Data(base64URL: text), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
            throw PushStoreError.noServerKey
        }
        return VAPIDKey(privateKey: key)
    }

    /// Adds the subscription, or gives an endpoint seen before to this person with its new
    /// keys. Returns the row and whether it is new.
    static func upsert(userId: String, endpoint: String, p256dh: String, auth: String, expiresAt: Int64?,
                       now: Date, sql: any SQLDatabase) async throws -> (PushSubscriptionRow, created: Bool) {
        let existing = try await sql.raw("SELECT id FROM push_subscriptions WHERE endpoint = \(bind: endpoint)").first()?
            .decode(column: "id", as: String.self)
        let id = existing ?? UUID().uuidString.lowercased()
        if existing != nil {
            try await sql.raw("""
                UPDATE push_subscriptions SET user_id = \(bind: userId), p256dh = \(bind: p256dh), auth = \(bind: auth),
                  expires_at = \(bind: expiresAt), failures = 0 WHERE id = \(bind: id)
                """).run()
        } else {
            try await sql.raw("""
                INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at, expires_at)
                VALUES (\(bind: id), \(bind: userId), \(bind: endpoint), \(bind: p256dh), \(bind: auth), \(bind: now.millis), \(bind: expiresAt))
                """).run()
            let all = sql.dialect.name == "postgresql" ? "ALL" : "-1"
            try await sql.raw("""
                DELETE FROM push_subscriptions WHERE user_id = \(bind: userId) AND id IN (
                  SELECT id FROM push_subscriptions WHERE user_id = \(bind: userId)
                  ORDER BY created_at DESC, id LIMIT \(unsafeRaw: all) OFFSET \(unsafeRaw: String(maxSubscriptionsPerUser)))
                """).run()
        }
        guard let row = try await subscription(id: id, sql: sql) else { throw PushStoreError.noServerKey }
        return (row, existing == nil)
    }

    static func subscription(id: String, sql: any SQLDatabase) async throws -> PushSubscriptionRow? {
        try await sql.raw("SELECT \(unsafeRaw: PushSubscriptionRow.columns) FROM push_subscriptions WHERE id = \(bind: id)")
            .first().map(PushSubscriptionRow.init)
    }

    static func subscriptions(userIds: [String], sql: any SQLDatabase) async throws -> [PushSubscriptionRow] {
        guard !userIds.isEmpty else { return [] }
        return try await sql.raw("""
            SELECT \(unsafeRaw: PushSubscriptionRow.columns) FROM push_subscriptions
            WHERE user_id IN (\(binds: userIds)) ORDER BY created_at, id
            """).all().map(PushSubscriptionRow.init)
    }

    /// True when a row was removed: only the owner's own subscription goes.
    static func delete(id: String, userId: String, sql: any SQLDatabase) async throws -> Bool {
        try await !sql.raw("DELETE FROM push_subscriptions WHERE id = \(bind: id) AND user_id = \(bind: userId) RETURNING id")
            .all().isEmpty
    }

    static func forget(subscriptionId id: String, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM push_subscriptions WHERE id = \(bind: id)").run()
    }

    static func delivered(subscriptionId id: String, at now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("UPDATE push_subscriptions SET last_success_at = \(bind: now.millis), failures = 0 WHERE id = \(bind: id)").run()
    }

    static func failed(subscriptionId id: String, sql: any SQLDatabase) async throws {
        try await sql.raw("UPDATE push_subscriptions SET failures = failures + 1 WHERE id = \(bind: id)").run()
    }

    /// Subscriptions past the expiry their browser announced.
    static func pruneExpired(now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM push_subscriptions WHERE expires_at IS NOT NULL AND expires_at < \(bind: now.millis)").run()
    }

    // MARK: Preferences

    /// The kinds each person switched off.
    static func disabledKinds(userIds: [String], sql: any SQLDatabase) async throws -> [String: Set<String>] {
        guard !userIds.isEmpty else { return [:] }
        var out: [String: Set<String>] = [:]
        for row in try await sql.raw("""
            SELECT user_id, kind FROM push_preferences WHERE user_id IN (\(binds: userIds)) AND enabled = \(bind: false)
            """).all() {
            out[try row.decode(column: "user_id", as: String.self), default: []].insert(try row.decode(column: "kind", as: String.self))
        }
        return out
    }

    static func setPreferences(userId: String, _ changes: [(kind: String, enabled: Bool)], sql: any SQLDatabase) async throws {
        for change in changes {
            try await sql.raw("""
                INSERT INTO push_preferences (user_id, kind, enabled) VALUES (\(bind: userId), \(bind: change.kind), \(bind: change.enabled))
                ON CONFLICT (user_id, kind) DO UPDATE SET enabled = excluded.enabled
                """).run()
        }
    }

    // MARK: Claiming notifications

    /// Whether any notification waits to be pushed: a read, so that an idle round takes no
    /// write lock (on SQLite the ingest path's).
    static func anyUnpushed(sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT seq FROM notifications WHERE pushed_at IS NULL LIMIT 1").first() != nil
    }

    /// Marks up to `limit` notifications not yet pushed as decided and returns them: the one
    /// transaction that marks a row is the one that pushes it, however many instances look.
    static func claimUnpushed(now: Date, limit: Int, sql: any SQLDatabase) async throws -> [NotificationRow] {
        let skipLocked = sql.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        return try await sql.raw("""
            UPDATE notifications SET pushed_at = \(bind: now.millis) WHERE seq IN (
              SELECT seq FROM notifications WHERE pushed_at IS NULL ORDER BY seq LIMIT \(unsafeRaw: String(limit))\(unsafeRaw: skipLocked))
            RETURNING \(unsafeRaw: NotificationRow.columns)
            """).all().map(NotificationRow.init).sorted { $0.seq < $1.seq }
    }
}

enum PushStoreError: Error {
    case noServerKey
}
