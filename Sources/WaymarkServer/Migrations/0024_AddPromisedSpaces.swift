import FluentKit
import SQLKit

/// A lot's spaces promised to booked drivers who are expected and have not arrived
/// (`Booking.awaitsArrival`), kept beside the sensors' counters so the free count drivers see
/// leaves them out (`LotCounts.promising`).
struct AddPromisedSpaces: AsyncMigration {
    var name: String { "0024_AddPromisedSpaces" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE lots ADD COLUMN count_p BIGINT NOT NULL DEFAULT 0").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE lots DROP COLUMN count_p").run()
    }
}
