import Foundation
import SQLKit

/// Who runs a site (PRK-1): its operators change lots and spots and grant the role to others of
/// that site. An operator of the whole Waymark (`Operators`, granted on the command line) runs
/// every site.
struct SiteOperators: Sendable {
    let store: SQLStore
    let accounts: AccountQueries

    struct Listing: Sendable {
        var userId: String
        var name: String
        var grantedAt: Date
        var grantedBy: String?
    }

    static func required(_ siteName: String) -> Problem {
        Problem(type: "site-operator-required", title: "Operators of this site only", status: 403,
                detail: "Only an operator of \(siteName) may do this; another operator of the site can grant it.")
    }

    func operates(userId: String, siteId: String, sql: (any SQLDatabase)? = nil) async throws -> Bool {
        try await (sql ?? store.sql).raw("""
            SELECT 1 AS yes FROM site_operators WHERE site_id = \(bind: siteId) AND user_id = \(bind: userId)
            UNION ALL SELECT 1 AS yes FROM operators WHERE user_id = \(bind: userId)
            """).first() != nil
    }

    /// The site, when `principal` runs it; 404 for a site that does not exist, 403 otherwise.
    @discardableResult
    func require(_ principal: Principal, siteId: String) async throws -> SiteRow {
        guard let site = try await ParkingQueries(store: store).site(id: siteId) else { throw Problem.notFound("site") }
        guard principal.kind == .account, try await operates(userId: principal.userId, siteId: siteId) else {
            throw Self.required(site.name)
        }
        return site
    }

    /// The sites `userId` runs by name; every site for an operator of the whole Waymark.
    func sites(of userId: String) async throws -> [SiteRow] {
        try await store.sql.raw("""
            SELECT * FROM sites s WHERE EXISTS (SELECT 1 FROM site_operators o WHERE o.site_id = s.id AND o.user_id = \(bind: userId))
              OR EXISTS (SELECT 1 FROM operators w WHERE w.user_id = \(bind: userId))
            ORDER BY s.name
            """).all(decoding: SiteRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// By email address or username; nil when there is no such account. Granting twice changes
    /// nothing and records nothing.
    func grant(siteId: String, login: String, by grantor: String?, now: Date) async throws -> Listing? {
        guard let user = try await accounts.account(login: login), user.userKind == .account else { return nil }
        try await store.write { sql in
            let inserted = try await sql.raw("""
                INSERT INTO site_operators (site_id, user_id, granted_at, granted_by)
                VALUES (\(bind: siteId), \(bind: user.id), \(bind: now.millis), \(bind: grantor))
                ON CONFLICT (site_id, user_id) DO NOTHING RETURNING user_id
                """).first() != nil
            if inserted, let grantor {
                try await OperatorChanges.record(.init(siteId: siteId, userId: grantor, subjectId: user.id, action: .operatorGranted,
                                                       summary: "Made \(OperatorChanges.subject) an operator of the site"), at: now, sql: sql)
            }
        }
        return try await list(siteId: siteId).first { $0.userId == user.id }
    }

    /// False when `userId` was not an operator of the site.
    func revoke(siteId: String, userId: String, by revoker: String?, now: Date) async throws -> Bool {
        try await store.write { sql in
            let removed = try await sql.raw("""
                DELETE FROM site_operators WHERE site_id = \(bind: siteId) AND user_id = \(bind: userId) RETURNING user_id
                """).first() != nil
            if removed, let revoker {
                try await OperatorChanges.record(.init(siteId: siteId, userId: revoker, subjectId: userId, action: .operatorRevoked,
                                                       summary: "Ended the role of \(OperatorChanges.subject) as operator of the site"), at: now, sql: sql)
            }
            return removed
        }
    }

    func list(siteId: String) async throws -> [Listing] {
        try await store.sql.raw("""
            SELECT o.user_id, o.granted_at, u.username, u.email, g.username AS by_username, g.email AS by_email
            FROM site_operators o JOIN users u ON u.id = o.user_id LEFT JOIN users g ON g.id = o.granted_by
            WHERE o.site_id = \(bind: siteId) ORDER BY o.granted_at, o.user_id
            """).all().map { row in
            let byName = try row.decode(column: "by_username", as: String?.self) ?? row.decode(column: "by_email", as: String?.self)
            return Listing(userId: try row.decode(column: "user_id", as: String.self),
                           name: try row.decode(column: "username", as: String?.self) ?? row.decode(column: "email", as: String?.self) ?? "an account",
                           grantedAt: Date(millis: try row.decode(column: "granted_at", as: Int64.self)),
                           grantedBy: byName)
        }
    }

    static func name(_ user: UserRow) -> String { user.username ?? user.email ?? "an account" }
}
