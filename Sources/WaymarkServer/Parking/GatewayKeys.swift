import Crypto
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// Gateway secrets: made by `waymark gateway create`, shown once, stored as SHA-256.
struct GatewayKeys: Sendable {
    let store: SQLStore
    private let cache = GatewayKeyCache()

    init(store: SQLStore) { self.store = store }

    struct Created: Sendable {
        var id: String
        var name: String
        var secret: String
    }

    static func hash(_ secret: String) -> String { Secrets.hash(secret) }

    /// Creates a gateway, or replaces the secret of one with the same name (revoking the old).
    func create(name: String, now: Date) async throws -> Created {
        let secret = Secrets.make(prefix: "wmg_")
        let id = UUID().uuidString.lowercased()
        try await store.write { sql in
            try await sql.raw("DELETE FROM gateways WHERE name = \(bind: name)").run()
            try await sql.raw("""
                INSERT INTO gateways (id, name, secret_hash, created_at) VALUES
                (\(bind: id), \(bind: name), \(bind: Self.hash(secret)), \(bind: now.millis))
                """).run()
        }
        return Created(id: id, name: name, secret: secret)
    }

    /// Returns whether a gateway of that name was active.
    func revoke(name: String, now: Date) async throws -> Bool {
        let rows = try await store.write { sql in
            try await sql.raw("""
                UPDATE gateways SET revoked_at = \(bind: now.millis)
                WHERE name = \(bind: name) AND revoked_at IS NULL RETURNING id
                """).all()
        }
        cache.clear()
        return !rows.isEmpty
    }

    struct Listed: Sendable, Decodable {
        var id: String
        var name: String
        var createdAt: Int64
        var revokedAt: Int64?
    }

    func list() async throws -> [Listed] {
        try await store.sql.raw("SELECT id, name, created_at, revoked_at FROM gateways ORDER BY name")
            .all(decoding: Listed.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// The gateway id for a bearer secret, or nil. Positive answers are cached briefly so that a
    /// busy gateway costs no query per request; a revocation takes effect within that time on
    /// other instances and at once on this one.
    func authenticate(secret: String, now: Date) async throws -> String? {
        let hash = Self.hash(secret)
        if let id = cache.get(hash, now: now) { return id }
        let row = try await store.sql.raw("""
            SELECT id FROM gateways WHERE secret_hash = \(bind: hash) AND revoked_at IS NULL
            """).first()
        guard let id = try row?.decode(column: "id", as: String.self) else { return nil }
        cache.put(hash, id: id, until: now.addingTimeInterval(5))
        return id
    }
}

private final class GatewayKeyCache: Sendable {
    private let entries = NIOLockedValueBox([String: (id: String, until: Date)]())

    func get(_ hash: String, now: Date) -> String? {
        entries.withLockedValue { e in
            guard let hit = e[hash], hit.until > now else { return nil }
            return hit.id
        }
    }

    func put(_ hash: String, id: String, until: Date) {
        entries.withLockedValue { $0[hash] = (id, until) }
    }

    func clear() { entries.withLockedValue { $0.removeAll() } }
}
