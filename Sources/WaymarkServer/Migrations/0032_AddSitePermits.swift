import FluentKit
import Foundation
import SQLKit
import WaymarkCore

/// Each site names the permits it issues (`sites.permits`, JSON of `PermitKind`), and a person's
/// permits say which site issued them ("<site id>:faculty"; the placard stays "handicap"). Before,
/// every site shared the demo's Green, Yellow and Black: a site keeps those its lots' rules name,
/// and a permit someone held counts at each site that issues it.
struct AddSitePermits: AsyncMigration {
    var name: String { "0032_AddSitePermits" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE sites ADD COLUMN permits TEXT NOT NULL DEFAULT '[]'").run()
        try await Self.carryOver(sql)
    }

    /// Gives each site the demo permits its rules name and qualifies what people held.
    static func carryOver(_ sql: any SQLDatabase) async throws {
        let classic = DemoCampus.fullerton.permits
        var issuers: [Permit: [String]] = [:]
        for site in try await sql.raw("SELECT id FROM sites ORDER BY id").all() {
            let id = try site.decode(column: "id", as: String.self)
            var named = Set<Permit>()
            for lot in try await sql.raw("SELECT permit_rules FROM lots WHERE site_id = \(bind: id)").all() {
                let rules = try StoredPermitRule.rules(try lot.decode(column: "permit_rules", as: String.self))
                named.formUnion(rules.flatMap(\.permits))
            }
            let kinds = classic.filter { named.contains($0.code) }
            for kind in kinds { issuers[kind.code, default: []].append(id) }
            try await sql.raw("UPDATE sites SET permits = \(bind: try JSONColumn.encode(kinds)) WHERE id = \(bind: id)").run()
        }
        for user in try await sql.raw("SELECT id, permits FROM users WHERE permits <> ''").all() {
            var held = HeldPermits()
            for code in try user.decode(column: "permits", as: String.self).split(separator: ",") {
                guard let permit = Permit(rawValue: String(code)) else { continue }
                if permit == .handicap { held.placard = true; continue }
                for site in issuers[permit] ?? [] { held.bySite[site, default: []].insert(permit) }
            }
            try await sql.raw("UPDATE users SET permits = \(bind: held.stored) WHERE id = \(bind: try user.decode(column: "id", as: String.self))").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("ALTER TABLE sites DROP COLUMN permits").run()
    }
}
