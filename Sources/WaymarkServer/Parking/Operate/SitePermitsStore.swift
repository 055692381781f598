import Foundation
import SQLKit
import WaymarkCore

/// The permits a site issues, as stored on its row, and the holdings that go when one of them
/// is no longer issued.
enum SitePermitsStore {
    static func kinds(siteId: String, sql: any SQLDatabase) async throws -> [PermitKind] {
        guard let row = try await sql.raw("SELECT permits FROM sites WHERE id = \(bind: siteId)").first() else { throw Problem.notFound("site") }
        return try JSONColumn.decode([PermitKind].self, try row.decode(column: "permits", as: String.self))
    }

    static func replace(siteId: String, with kinds: [PermitKind], sql: any SQLDatabase) async throws {
        try await sql.raw("UPDATE sites SET permits = \(bind: try JSONColumn.encode(kinds)) WHERE id = \(bind: siteId)").run()
    }

    /// Nobody holds a permit the site no longer issues: it is taken off each person's list, in
    /// the transaction that removed it.
    static func dropHoldings(of codes: Set<Permit>, siteId: String, sql: any SQLDatabase) async throws {
        guard !codes.isEmpty else { return }
        let rows = try await sql.raw("SELECT id, permits FROM users WHERE permits LIKE \(bind: "%\(siteId):%")").all()
        for row in rows {
            var held = HeldPermits(stored: try row.decode(column: "permits", as: String.self))
            guard let mine = held.bySite[siteId], !mine.isDisjoint(with: codes) else { continue }
            let kept = mine.subtracting(codes)
            held.bySite[siteId] = kept.isEmpty ? nil : kept
            try await sql.raw("UPDATE users SET permits = \(bind: held.stored) WHERE id = \(bind: try row.decode(column: "id", as: String.self))").run()
        }
    }
}
