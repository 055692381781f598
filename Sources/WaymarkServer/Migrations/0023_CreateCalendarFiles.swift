import FluentKit
import SQLKit

/// iCalendar (PLN-10) and tickets (PLN-9): an event keeps the UID and the properties it was
/// imported with, so importing again updates it and exporting writes them back; a calendar
/// records when it last changed, which answers a calendar app's "anything new?" without reading
/// its events; a subscription address is kept as a fingerprint only; and the tickets bought
/// for the trips to events.
struct CreateCalendarFiles: AsyncMigration {
    var name: String { "0023_CreateCalendarFiles" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE planner_events ADD COLUMN ical_uid TEXT").run()
        try await sql.raw("ALTER TABLE planner_events ADD COLUMN ical_extra TEXT").run()
        try await sql.raw("ALTER TABLE planner_events ADD COLUMN all_day BOOLEAN NOT NULL DEFAULT FALSE").run()
        try await sql.raw("CREATE UNIQUE INDEX planner_events_ical_uid ON planner_events (calendar_id, ical_uid)").run()
        try await sql.raw("ALTER TABLE planner_calendars ADD COLUMN changed_at BIGINT NOT NULL DEFAULT 0").run()
        try await sql.raw("""
            CREATE TABLE planner_subscriptions (
                calendar_id TEXT PRIMARY KEY REFERENCES planner_calendars(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                token_hash TEXT NOT NULL UNIQUE,
                include_travel BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                fetched_at BIGINT
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE planner_tickets (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                event_id TEXT NOT NULL REFERENCES planner_events(id) ON DELETE CASCADE,
                day TEXT NOT NULL,
                provider TEXT NOT NULL,
                title TEXT NOT NULL,
                code TEXT NOT NULL,
                qr_text TEXT NOT NULL,
                lines TEXT NOT NULL,
                price_minor BIGINT NOT NULL,
                currency TEXT NOT NULL,
                valid_from BIGINT NOT NULL,
                valid_until BIGINT NOT NULL,
                issued_at BIGINT NOT NULL,
                demo BOOLEAN NOT NULL,
                UNIQUE (user_id, event_id, day)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["planner_tickets", "planner_subscriptions"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
        try await sql.raw("ALTER TABLE planner_calendars DROP COLUMN changed_at").run()
        try await sql.raw("DROP INDEX planner_events_ical_uid").run()
        for column in ["all_day", "ical_extra", "ical_uid"] {
            try await sql.raw("ALTER TABLE planner_events DROP COLUMN \(unsafeRaw: column)").run()
        }
    }
}
