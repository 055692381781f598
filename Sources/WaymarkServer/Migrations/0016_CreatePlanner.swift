import FluentKit
import SQLKit

/// The Planner (PLN-1, PLN-2, PLN-4). Events keep wall times (`YYYY-MM-DDTHH:MM`) beside their
/// IANA zone, as RFC 5545 does, so a weekly 09:00 stays 09:00 across daylight-saving changes;
/// a repeat is its rule's parts, and `planner_exceptions` holds the occurrences cancelled
/// (EXDATE) or moved (RECURRENCE-ID) by the day they were due. A notification may point at a
/// day of the plan.
struct CreatePlanner: AsyncMigration {
    var name: String { "0016_CreatePlanner" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE planner_calendars (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                colour TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                used_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX planner_calendars_user ON planner_calendars (user_id)").run()
        try await sql.raw("""
            CREATE TABLE planner_events (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                calendar_id TEXT NOT NULL REFERENCES planner_calendars(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                description TEXT,
                start_wall TEXT NOT NULL,
                end_wall TEXT NOT NULL,
                time_zone TEXT NOT NULL,
                duration_minutes INTEGER,
                repeat_weekdays TEXT,
                repeat_interval INTEGER,
                repeat_until TEXT,
                repeat_count INTEGER,
                place_name TEXT,
                place_lat DOUBLE PRECISION,
                place_lon DOUBLE PRECISION,
                modes TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX planner_events_user ON planner_events (user_id)").run()
        try await sql.raw("CREATE INDEX planner_events_calendar ON planner_events (calendar_id)").run()
        try await sql.raw("""
            CREATE TABLE planner_exceptions (
                event_id TEXT NOT NULL REFERENCES planner_events(id) ON DELETE CASCADE,
                day TEXT NOT NULL,
                cancelled BOOLEAN NOT NULL,
                start_wall TEXT,
                end_wall TEXT,
                PRIMARY KEY (event_id, day)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE planner_preferences (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                settings TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("ALTER TABLE notifications ADD COLUMN plan_day TEXT").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE notifications DROP COLUMN plan_day").run()
        for table in ["planner_preferences", "planner_exceptions", "planner_events", "planner_calendars"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
