import FluentKit
import SQLKit

/// Time to leave (PLN-7): the one position a person's app last reported (only the latest, gone at
/// the end of the day it was reported on), the alerts sent (one per person, event and day, so
/// the database sends each once however many servers run the job), a calendar's switch for
/// them, and the event a notification is about.
struct CreateLeaveAlerts: AsyncMigration {
    var name: String { "0022_CreateLeaveAlerts" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE planner_positions (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                reported_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE leave_alerts (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                event_id TEXT NOT NULL,
                day TEXT NOT NULL,
                leave_at BIGINT NOT NULL,
                sent_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, event_id, day)
            )
            """).run()
        try await sql.raw("ALTER TABLE planner_calendars ADD COLUMN leave_alerts BOOLEAN NOT NULL DEFAULT TRUE").run()
        try await sql.raw("ALTER TABLE notifications ADD COLUMN event_id TEXT").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE notifications DROP COLUMN event_id").run()
        try await sql.raw("ALTER TABLE planner_calendars DROP COLUMN leave_alerts").run()
        for table in ["leave_alerts", "planner_positions"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
