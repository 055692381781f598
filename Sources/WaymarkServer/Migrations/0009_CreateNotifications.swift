import FluentKit
import SQLKit

/// Notifications (PRK-15). `seq` orders a user's inbox and is the position the live
/// notification stream tails; `id` is what clients name. `lot_alerts` keeps each watched lot's
/// announced level (`LotAlertLevel`), so several server instances announce a change once:
/// the instance whose conditional update moves the level is the one that notifies.
struct CreateNotifications: AsyncMigration {
    var name: String { "0009_CreateNotifications" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let seq = sql.dialect.name == "postgresql" ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY AUTOINCREMENT"
        try await sql.raw("""
            CREATE TABLE notifications (
                \(unsafeRaw: seq),
                id TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                lot_id TEXT,
                booking_id TEXT,
                hold_id TEXT,
                created_at BIGINT NOT NULL,
                read_at BIGINT
            )
            """).run()
        // The inbox, newest first, and its unread count.
        try await sql.raw("CREATE INDEX notifications_user_seq ON notifications (user_id, seq)").run()
        try await sql.raw("CREATE INDEX notifications_user_unread ON notifications (user_id) WHERE read_at IS NULL").run()
        try await sql.raw("CREATE INDEX notifications_created ON notifications (created_at)").run()
        try await sql.raw("""
            CREATE TABLE lot_watches (
                user_id TEXT NOT NULL,
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, lot_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX lot_watches_lot ON lot_watches (lot_id)").run()
        try await sql.raw("""
            CREATE TABLE lot_alerts (
                lot_id TEXT PRIMARY KEY REFERENCES lots(id) ON DELETE CASCADE,
                level TEXT NOT NULL,
                version BIGINT NOT NULL,
                changed_at BIGINT NOT NULL
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP TABLE lot_alerts").run()
        try await sql.raw("DROP TABLE lot_watches").run()
        try await sql.raw("DROP TABLE notifications").run()
    }
}
