import FluentKit
import SQLKit

/// Map images and directions handed out per day (PRK-20), for the operators' budget: one row
/// per day and kind, added to by every server process.
struct CreateMapUsage: AsyncMigration {
    var name: String { "0029_CreateMapUsage" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE map_usage (
                day TEXT NOT NULL,
                kind TEXT NOT NULL,
                requests BIGINT NOT NULL,
                PRIMARY KEY (day, kind)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("DROP TABLE map_usage").run()
    }
}
