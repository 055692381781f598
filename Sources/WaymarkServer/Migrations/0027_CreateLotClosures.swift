import FluentKit
import SQLKit

/// Dates an operator closed a lot on (PRK-1): bookings and holds are refused then and the lot
/// card says so. Whoever made or lifted one is in `operator_changes`.
struct CreateLotClosures: AsyncMigration {
    var name: String { "0027_CreateLotClosures" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE lot_closures (
                id TEXT PRIMARY KEY,
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                starts_at BIGINT NOT NULL,
                ends_at BIGINT NOT NULL,
                reason TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX lot_closures_lot_end ON lot_closures (lot_id, ends_at)").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP TABLE lot_closures").run()
    }
}
