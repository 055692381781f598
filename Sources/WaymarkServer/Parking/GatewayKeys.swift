import Crypto
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// Gateway secrets: made by `waymark gateway create` or a site's operators, shown once,
/// stored as SHA-256.
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

    /// Creates a gateway for `siteId` (nil: any site), or gives the active one of that name
    /// there a new secret, keeping its id and so its traffic.
    func create(name: String, siteId: String? = nil, now: Date) async throws -> Created {
        let created = try await store.write { sql in
            if let id = try await Self.activeId(name: name, siteId: siteId, sql: sql) {
                return Created(id: id, name: name, secret: try await Self.replaceSecret(id: id, sql: sql))
            }
            return try await Self.insert(name: name, siteId: siteId, now: now, sql: sql)
        }
        forget()
        return created
    }

    static func insert(name: String, siteId: String?, now: Date, sql: any SQLDatabase) async throws -> Created {
        let secret = Secrets.make(prefix: "wmg_")
        let id = UUID().uuidString.lowercased()
        try await sql.raw("""
            INSERT INTO gateways (id, site_id, name, secret_hash, created_at) VALUES
            (\(bind: id), \(bind: siteId), \(bind: name), \(bind: hash(secret)), \(bind: now.millis))
            """).run()
        return Created(id: id, name: name, secret: secret)
    }

    static func replaceSecret(id: String, sql: any SQLDatabase) async throws -> String {
        let secret = Secrets.make(prefix: "wmg_")
        try await sql.raw("UPDATE gateways SET secret_hash = \(bind: hash(secret)) WHERE id = \(bind: id)").run()
        return secret
    }

    static func activeId(name: String, siteId: String?, sql: any SQLDatabase) async throws -> String? {
        let scope: SQLQueryString = siteId.map { "site_id = \(bind: $0)" } ?? "site_id IS NULL"
        return try await sql.raw("""
            SELECT id FROM gateways WHERE \(scope) AND name = \(bind: name) AND revoked_at IS NULL
            """).first()?.decode(column: "id", as: String.self)
    }

    /// Returns whether an active gateway of that name for `siteId` (nil: any site) was revoked.
    func revoke(name: String, siteId: String? = nil, now: Date) async throws -> Bool {
        let rows = try await store.write { sql in
            guard let id = try await Self.activeId(name: name, siteId: siteId, sql: sql) else { return false }
            try await sql.raw("UPDATE gateways SET revoked_at = \(bind: now.millis) WHERE id = \(bind: id)").run()
            return true
        }
        forget()
        return rows
    }

    /// Drops the cached secrets, so a revoked or replaced one stops working at once here.
    func forget() { cache.clear() }

    struct Listed: Sendable, Decodable {
        var id: String
        var siteId: String?
        var name: String
        var createdAt: Int64
        var revokedAt: Int64?
    }

    func list() async throws -> [Listed] {
        try await store.sql.raw("SELECT id, site_id, name, created_at, revoked_at FROM gateways ORDER BY name, created_at")
            .all(decoding: Listed.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// The gateway a bearer secret belongs to, or nil. Positive answers are cached briefly so
    /// that a busy gateway costs no query per request; a revocation takes effect within that
    /// time on other instances and at once on this one.
    func authenticate(secret: String, now: Date) async throws -> GatewayIdentity? {
        let hash = Self.hash(secret)
        if let known = cache.get(hash, now: now) { return known }
        let row = try await store.sql.raw("""
            SELECT id, site_id FROM gateways WHERE secret_hash = \(bind: hash) AND revoked_at IS NULL
            """).first()
        guard let row else { return nil }
        let identity = GatewayIdentity(id: try row.decode(column: "id", as: String.self),
                                       siteId: try row.decode(column: "site_id", as: String?.self))
        cache.put(hash, identity, until: now.addingTimeInterval(5))
        return identity
    }
}

/// A gateway that sent a request: the site it reports for, nil when it may report for any.
struct GatewayIdentity: Sendable, Equatable {
    var id: String
    var siteId: String?
}

private final class GatewayKeyCache: Sendable {
    private let entries = NIOLockedValueBox([String: (gateway: GatewayIdentity, until: Date)]())

    func get(_ hash: String, now: Date) -> GatewayIdentity? {
        entries.withLockedValue { e in
            guard let hit = e[hash], hit.until > now else { return nil }
            return hit.gateway
        }
    }

    func put(_ hash: String, _ gateway: GatewayIdentity, until: Date) {
        entries.withLockedValue { $0[hash] = (gateway, until) }
    }

    func clear() { entries.withLockedValue { $0.removeAll() } }
}
