import Foundation
import SQLKit

/// Watched lots (PRK-15). Watching is idempotent, and so is stopping.
struct WatchService: Sendable {
    let store: SQLStore
    let alerts: LotAlertMonitor
    let now: @Sendable () -> Date

    /// Enough for every lot one drives to; bounds the rows a person can make.
    static let maxWatches = 50

    struct WatchRow: Sendable {
        var lotId: String
        var siteId: String
        var code: String
        var name: String
        var createdAt: Int64

        init(_ r: any SQLRow) throws {
            lotId = try r.decode(column: "lot_id", as: String.self)
            siteId = try r.decode(column: "site_id", as: String.self)
            code = try r.decode(column: "code", as: String.self)
            name = try r.decode(column: "name", as: String.self)
            createdAt = try r.decode(column: "created_at", as: Int64.self)
        }
    }

    private static let select = """
        SELECT w.lot_id, l.site_id, l.code, l.name, w.created_at FROM lot_watches w JOIN lots l ON l.id = w.lot_id
        """

    func list(_ principal: Principal) async throws -> [WatchRow] {
        try await store.sql.raw("""
            \(unsafeRaw: Self.select) WHERE w.user_id = \(bind: principal.userId) ORDER BY l.name, l.code
            """).all().map(WatchRow.init)
    }

    func watch(_ principal: Principal, lotId: String) async throws -> WatchRow {
        let now = now()
        let userId = principal.userId
        let row = try await store.write { sql -> WatchRow in
            guard try await sql.raw("SELECT id FROM lots WHERE id = \(bind: lotId)").first() != nil else { throw Problem.notFound("lot") }
            if let existing = try await Self.find(userId: userId, lotId: lotId, sql: sql) { return existing }
            let count = try await sql.raw("SELECT COUNT(*) AS n FROM lot_watches WHERE user_id = \(bind: userId)").first()?
                .decode(column: "n", as: Int.self) ?? 0
            guard count < Self.maxWatches else {
                throw Problem.conflict("too-many-watches", "You watch \(Self.maxWatches) lots already; stop watching one first.")
            }
            try await sql.raw("""
                INSERT INTO lot_watches (user_id, lot_id, created_at) VALUES (\(bind: userId), \(bind: lotId), \(bind: now.millis))
                ON CONFLICT (user_id, lot_id) DO NOTHING
                """).run()
            guard let made = try await Self.find(userId: userId, lotId: lotId, sql: sql) else { throw Problem.internalError }
            return made
        }
        await alerts.watchesChanged()
        return row
    }

    func unwatch(_ principal: Principal, lotId: String) async throws {
        let userId = principal.userId
        try await store.write { sql in
            guard try await sql.raw("SELECT id FROM lots WHERE id = \(bind: lotId)").first() != nil else { throw Problem.notFound("lot") }
            try await sql.raw("DELETE FROM lot_watches WHERE user_id = \(bind: userId) AND lot_id = \(bind: lotId)").run()
        }
        await alerts.watchesChanged()
    }

    private static func find(userId: String, lotId: String, sql: any SQLDatabase) async throws -> WatchRow? {
        try await sql.raw("\(unsafeRaw: select) WHERE w.user_id = \(bind: userId) AND w.lot_id = \(bind: lotId)").first().map(WatchRow.init)
    }
}
