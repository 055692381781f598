import FluentKit
import SQLKit

/// Soft holds (PRK-9, PRK-10). The database decides who wins a spot: a spot's state changes
/// from free to held in one conditional update, and the partial unique indexes allow one
/// holding hold per spot and one open hold per person even if that update were ever bypassed.
/// A hold whose spot a car took (`asked_at` set) no longer claims the spot.
struct CreateHolds: AsyncMigration {
    var name: String { "0006_CreateHolds" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE holds (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                spot_id TEXT NOT NULL REFERENCES spots(id) ON DELETE CASCADE,
                lot_id TEXT NOT NULL,
                site_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                asked_at BIGINT,
                ended_at BIGINT,
                outcome TEXT,
                moved_to TEXT,
                permit_warning TEXT
            )
            """).run()
        try await sql.raw("CREATE UNIQUE INDEX holds_spot_holding ON holds (spot_id) WHERE ended_at IS NULL AND asked_at IS NULL").run()
        try await sql.raw("CREATE UNIQUE INDEX holds_user_open ON holds (user_id) WHERE ended_at IS NULL").run()
        try await sql.raw("CREATE INDEX holds_user_created ON holds (user_id, created_at)").run()
        try await sql.raw("CREATE INDEX holds_open_expiry ON holds (expires_at) WHERE ended_at IS NULL").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP TABLE holds").run()
    }
}
