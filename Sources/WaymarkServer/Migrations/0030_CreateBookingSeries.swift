import FluentKit
import SQLKit

/// Weekly bookings (PRK-12, UniPark's "every Tuesday until June"): the rule a person chose, and
/// on each booking the series it was made by. The bookings themselves stay ordinary rows.
struct CreateBookingSeries: AsyncMigration {
    var name: String { "0030_CreateBookingSeries" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE booking_series (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                first_start_at BIGINT NOT NULL,
                first_end_at BIGINT NOT NULL,
                weekdays TEXT NOT NULL,
                until_day TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX booking_series_user ON booking_series (user_id)").run()
        try await sql.raw("ALTER TABLE bookings ADD COLUMN series_id TEXT REFERENCES booking_series(id)").run()
        try await sql.raw("CREATE INDEX bookings_series ON bookings (series_id) WHERE series_id IS NOT NULL").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP INDEX bookings_series").run()
        try await sql.raw("ALTER TABLE bookings DROP COLUMN series_id").run()
        try await sql.raw("DROP TABLE booking_series").run()
    }
}
