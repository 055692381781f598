import Foundation
import SQLKit
import WaymarkCore

extension OperateService {
    /// Replaces the permits a site issues (PRK-1), checked by the rules of a site file's
    /// "permits". A permit some lot's rules still require cannot be removed; people's holdings of
    /// a removed one go with it. Nothing is recorded when nothing changes.
    func setPermits(_ principal: Principal, siteId: String, json: Data) async throws -> SiteRow {
        try await operators.require(principal, siteId: siteId)
        let read = SiteImport.permitKinds(json, source: "The permits")
        guard let kinds = read.kinds else {
            throw Self.refused("site-permits-invalid", "The permits cannot be saved", subject: "The permits", read.problems)
        }
        let now = now()
        try await store.write { sql in
            try await AdvisoryLocks.lockSitePermits(siteId, sql: sql)
            let before = try await SitePermitsStore.kinds(siteId: siteId, sql: sql)
            let changes = PermitKindChanges(from: before, to: kinds)
            guard !changes.isEmpty else { return }
            let removed = Set(changes.removed.map(\.code))
            if !removed.isEmpty {
                try await Self.refuseIfRequired(changes.removed, siteId: siteId, sql: sql)
                try await SitePermitsStore.dropHoldings(of: removed, siteId: siteId, sql: sql)
            }
            try await SitePermitsStore.replace(siteId: siteId, with: kinds, sql: sql)
            try await OperatorChanges.record(.init(
                siteId: siteId, userId: principal.userId, action: .sitePermits, summary: "Permits: \(changes.summary)",
                before: try JSONColumn.encode(before), after: try JSONColumn.encode(kinds)), at: now, sql: sql)
        }
        guard let site = try await queries.site(id: siteId) else { throw Problem.notFound("site") }
        return site
    }

    /// A lot whose rules require a permit keeps it issued: the operator changes the rules first.
    private static func refuseIfRequired(_ removed: [PermitKind], siteId: String, sql: any SQLDatabase) async throws {
        // Each lot's name with the permits its rules name.
        let lots = try await sql.raw("SELECT name, permit_rules FROM lots WHERE site_id = \(bind: siteId) ORDER BY name").all().map { row in
            (name: try row.decode(column: "name", as: String.self),
             permits: Set(try StoredPermitRule.rules(try row.decode(column: "permit_rules", as: String.self)).flatMap(\.permits)))
        }
        var sentences: [String] = []
        for kind in removed {
            let names = lots.filter { $0.permits.contains(kind.code) }.map(\.name)
            if !names.isEmpty { sentences.append("\(ListWords.and(names)) \(names.count == 1 ? "requires" : "require") \(kind.name) at times.") }
        }
        guard sentences.isEmpty else {
            throw Problem.conflict("permit-in-use", sentences.joined(separator: " ") + " Change those lots' permit rules first, then remove the permit.")
        }
    }
}
