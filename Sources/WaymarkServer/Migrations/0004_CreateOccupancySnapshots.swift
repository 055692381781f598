import FluentKit
import SQLKit

/// Half-hourly occupancy per lot (PRK-6). The key makes a snapshot idempotent, so several
/// server instances can all run the job.
struct CreateOccupancySnapshots: AsyncMigration {
    var name: String { "0004_CreateOccupancySnapshots" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE occupancy_snapshots (
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                slot_start BIGINT NOT NULL,
                taken BIGINT NOT NULL,
                total BIGINT NOT NULL,
                PRIMARY KEY (lot_id, slot_start)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("DROP TABLE occupancy_snapshots").run()
    }
}
