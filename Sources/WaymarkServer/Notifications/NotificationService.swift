import Foundation
import SQLKit

/// The inbox (PRK-15): a person's own notifications only; another person's is as unknown as a
/// missing one.
struct NotificationService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    struct Page: Sendable {
        var rows: [NotificationRow]
        var unreadCount: Int
        var nextBefore: Int64?
    }

    func list(_ principal: Principal, before: Int64?, limit: Int) async throws -> Page {
        guard (1...NotificationStore.keepPerUser).contains(limit) else { throw Problem.badRequest("limit is 1 to \(NotificationStore.keepPerUser).") }
        if let before, before < 1 { throw Problem.badRequest("before must be positive.") }
        let sql = store.sql
        let bound: SQLQueryString = before.map { (b: Int64) -> SQLQueryString in "AND seq < \(bind: b)" } ?? ""
        let rows = try await sql.raw("""
            SELECT \(unsafeRaw: NotificationRow.columns) FROM notifications WHERE user_id = \(bind: principal.userId) \(bound)
            ORDER BY seq DESC LIMIT \(unsafeRaw: String(limit + 1))
            """).all().map(NotificationRow.init)
        let unread = try await sql.raw("""
            SELECT COUNT(*) AS n FROM notifications WHERE user_id = \(bind: principal.userId) AND read_at IS NULL
            """).first()?.decode(column: "n", as: Int.self) ?? 0
        let page = Array(rows.prefix(limit))
        return Page(rows: page, unreadCount: unread, nextBefore: rows.count > limit ? page.last?.seq : nil)
    }

    func markRead(_ principal: Principal, id: String) async throws -> NotificationRow {
        let now = now()
        return try await store.write { sql in
            try await sql.raw("""
                UPDATE notifications SET read_at = \(bind: now.millis)
                WHERE id = \(bind: id) AND user_id = \(bind: principal.userId) AND read_at IS NULL
                """).run()
            guard let row = try await sql.raw("""
                SELECT \(unsafeRaw: NotificationRow.columns) FROM notifications WHERE id = \(bind: id) AND user_id = \(bind: principal.userId)
                """).first() else { throw Problem.notFound("notification") }
            return try NotificationRow(row)
        }
    }

    func markAllRead(_ principal: Principal) async throws {
        let now = now()
        try await store.write { sql in
            try await sql.raw("""
                UPDATE notifications SET read_at = \(bind: now.millis) WHERE user_id = \(bind: principal.userId) AND read_at IS NULL
                """).run()
        }
    }

    func delete(_ principal: Principal, id: String) async throws {
        let gone = try await store.write { sql in
            try await sql.raw("""
                DELETE FROM notifications WHERE id = \(bind: id) AND user_id = \(bind: principal.userId) RETURNING id
                """).first() != nil
        }
        guard gone else { throw Problem.notFound("notification") }
    }

    /// The person's notifications after `seq`, for a stream that reconnects.
    func after(_ principal: Principal, seq: Int64) async throws -> [NotificationRow] {
        try await NotificationStore.after(seq, userId: principal.userId, limit: NotificationStore.keepPerUser, sql: store.sql)
    }
}
