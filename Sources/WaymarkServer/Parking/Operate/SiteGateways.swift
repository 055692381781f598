import Foundation
import SQLKit
import WaymarkCore

/// The gateways a site's operators make for it (PRK-1): each reports for that site's sensors
/// only, its secret is shown once, and every addition, revocation and new secret is recorded
/// with who made it.
struct SiteGateways: Sendable {
    let store: SQLStore
    let operators: SiteOperators
    let keys: GatewayKeys
    let now: @Sendable () -> Date

    /// Active gateways a site may have; a campus needs a handful.
    static let mostActive = 50

    struct Listed: Sendable {
        var id: String
        var name: String
        var createdAt: Date
        var revokedAt: Date?
        var lastReportAt: Date?
    }

    struct Created: Sendable {
        var gateway: Listed
        var secret: String
    }

    /// Active ones first, then by name.
    func list(_ principal: Principal, siteId: String) async throws -> [Listed] {
        try await operators.require(principal, siteId: siteId)
        return try await Self.list(siteId: siteId, sql: store.sql)
    }

    /// `activeId`: only that gateway, if it is the site's and not revoked.
    static func list(siteId: String, activeId: String? = nil, sql: any SQLDatabase) async throws -> [Listed] {
        let only: SQLQueryString = activeId.map { "AND g.id = \(bind: $0) AND g.revoked_at IS NULL" } ?? ""
        return try await sql.raw("""
            SELECT g.id, g.name, g.created_at, g.revoked_at,
                   (SELECT MAX(t.last_at) FROM gateway_traffic t WHERE t.gateway_id = g.id AND t.site_id = g.site_id) AS last_at
            FROM gateways g WHERE g.site_id = \(bind: siteId) \(only)
            ORDER BY CASE WHEN g.revoked_at IS NULL THEN 0 ELSE 1 END, g.name, g.created_at
            """).all().map { r in
            Listed(id: try r.decode(column: "id", as: String.self), name: try r.decode(column: "name", as: String.self),
                   createdAt: Date(millis: try r.decode(column: "created_at", as: Int64.self)),
                   revokedAt: try r.decode(column: "revoked_at", as: Int64?.self).map(Date.init(millis:)),
                   lastReportAt: try r.decode(column: "last_at", as: Int64?.self).map(Date.init(millis:)))
        }
    }

    /// What is wrong with a gateway's name, or nil.
    static func nameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "Give the gateway a name, e.g. the building it serves." }
        if trimmed.unicodeScalars.count > 80 { return "A gateway's name is at most 80 characters." }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "A gateway's name has no control characters."
        }
        return nil
    }

    func add(_ principal: Principal, siteId: String, name: String) async throws -> Created {
        let site = try await operators.require(principal, siteId: siteId)
        if let problem = Self.nameProblem(name) {
            throw Problem(type: "gateway-name-invalid", title: "The gateway's name is not valid", status: 400, detail: problem)
        }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let now = now()
        return try await store.write { sql in
            try await AdvisoryLocks.lockSiteGateways(siteId, sql: sql)
            guard try await GatewayKeys.activeId(name: name, siteId: siteId, sql: sql) == nil else {
                throw Problem.conflict("gateway-name-taken", "\(site.name) already has a gateway named ‘\(name)’; choose another name, or give that one a new secret.")
            }
            let active = try await sql.raw("SELECT COUNT(*) AS n FROM gateways WHERE site_id = \(bind: siteId) AND revoked_at IS NULL")
                .first()?.decode(column: "n", as: Int.self) ?? 0
            guard active < Self.mostActive else {
                throw Problem.conflict("too-many-gateways", "\(site.name) has \(Self.mostActive) active gateways; revoke one it no longer uses first.")
            }
            let made = try await GatewayKeys.insert(name: name, siteId: siteId, now: now, sql: sql)
            try await OperatorChanges.record(.init(siteId: siteId, userId: principal.userId, action: .gatewayAdded,
                                                   summary: "Added gateway ‘\(name)’"), at: now, sql: sql)
            return Created(gateway: Listed(id: made.id, name: name, createdAt: now), secret: made.secret)
        }
    }

    func revoke(_ principal: Principal, siteId: String, gatewayId: String) async throws {
        try await operators.require(principal, siteId: siteId)
        let now = now()
        try await store.write { sql in
            guard let name = try await sql.raw("""
                UPDATE gateways SET revoked_at = \(bind: now.millis)
                WHERE id = \(bind: gatewayId) AND site_id = \(bind: siteId) AND revoked_at IS NULL RETURNING name
                """).first()?.decode(column: "name", as: String.self) else { throw Problem.notFound("active gateway of this site") }
            try await OperatorChanges.record(.init(siteId: siteId, userId: principal.userId, action: .gatewayRevoked,
                                                   summary: "Revoked gateway ‘\(name)’"), at: now, sql: sql)
        }
        keys.forget()
    }

    func replaceSecret(_ principal: Principal, siteId: String, gatewayId: String) async throws -> Created {
        try await operators.require(principal, siteId: siteId)
        let now = now()
        let created = try await store.write { sql -> Created in
            guard let gateway = try await Self.list(siteId: siteId, activeId: gatewayId, sql: sql).first
            else { throw Problem.notFound("active gateway of this site") }
            let secret = try await GatewayKeys.replaceSecret(id: gatewayId, sql: sql)
            try await OperatorChanges.record(.init(siteId: siteId, userId: principal.userId, action: .gatewaySecretReplaced,
                                                   summary: "Gave gateway ‘\(gateway.name)’ a new secret"), at: now, sql: sql)
            return Created(gateway: gateway, secret: secret)
        }
        keys.forget()
        return created
    }
}
