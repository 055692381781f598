import FluentKit
import SQLKit

/// The dates a weekly series left out when it was booked, with why (PRK-12), so the series
/// still says so when it is read again: `[{"start": ms, "end": ms, "reason": "…"}]`.
struct AddBookingSeriesSkips: AsyncMigration {
    var name: String { "0034_AddBookingSeriesSkips" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE booking_series ADD COLUMN skipped TEXT NOT NULL DEFAULT '[]'").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE booking_series DROP COLUMN skipped").run()
    }
}
