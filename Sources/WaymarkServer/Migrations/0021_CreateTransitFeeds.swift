import FluentKit
import SQLKit

/// The public-transport timetable (PLN-5): the GTFS feed's files as imported, read again into the
/// journey planner's timetable by each server. One feed at a time: an import replaces it whole in
/// one transaction, and its version tells every server to load it again.
struct CreateTransitFeeds: AsyncMigration {
    var name: String { "0021_CreateTransitFeeds" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE transit_feeds (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                version INTEGER NOT NULL,
                time_zone TEXT NOT NULL,
                stops INTEGER NOT NULL,
                routes INTEGER NOT NULL,
                trips INTEGER NOT NULL,
                stop_times INTEGER NOT NULL,
                first_day TEXT,
                last_day TEXT,
                warnings TEXT NOT NULL,
                imported_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE transit_feed_files (
                feed_id TEXT NOT NULL REFERENCES transit_feeds (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                content TEXT NOT NULL,
                PRIMARY KEY (feed_id, name)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["transit_feed_files", "transit_feeds"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
