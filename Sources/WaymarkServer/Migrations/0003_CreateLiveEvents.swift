import FluentKit
import SQLKit

/// The live event log: appended in the same transaction as the change it describes, so a
/// stream can never show a change that was rolled back nor miss one that committed. SQLite's
/// AUTOINCREMENT keeps ids from being reused after the newest rows are trimmed, which would
/// otherwise confuse a client resuming with Last-Event-ID. `lot_id` lets a reader find the
/// newest event of each lot without decoding every payload.
struct CreateLiveEvents: AsyncMigration {
    var name: String { "0003_CreateLiveEvents" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let id = sql.dialect.name == "postgresql" ? "id BIGSERIAL PRIMARY KEY" : "id INTEGER PRIMARY KEY AUTOINCREMENT"
        try await sql.raw("""
            CREATE TABLE live_events (
                \(unsafeRaw: id),
                site_id TEXT NOT NULL,
                lot_id TEXT,
                at BIGINT NOT NULL,
                kind TEXT NOT NULL,
                payload TEXT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX live_events_site_id ON live_events (site_id, id)").run()
        try await sql.raw("CREATE INDEX live_events_at ON live_events (at)").run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("DROP TABLE live_events").run()
    }
}
