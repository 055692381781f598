import FluentKit
import SQLKit

/// A spot's state (and the position of the last sensor report that set it) moves to a narrow
/// table of its own. A batched ingest commit rewrites the state of thousands of spots; in the
/// wide `spots` rows (geometry, label, sensor, ~170 bytes) that dirtied almost every page of
/// the table plus the id index looked up on the way, and SQLite's commits were bound by those
/// pages. Keyed by spot id without a rowid, the same states fit in a quarter of the pages and
/// are found without a second lookup: the same commit costs SQLite about half the time
/// (PRK-2). On PostgreSQL the pages keep room for an updated row (fillfactor), so a state
/// change stays a heap-only update that leaves the index alone.
struct CreateSpotStates: AsyncMigration {
    var name: String { "0012_CreateSpotStates" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let isPostgres = sql.dialect.name == "postgresql"
        try await sql.raw("""
            CREATE TABLE spot_states (
                spot_id TEXT PRIMARY KEY REFERENCES spots(id) ON DELETE CASCADE,
                state TEXT NOT NULL DEFAULT 'u',
                observed_at BIGINT,
                sequence BIGINT
            )\(unsafeRaw: isPostgres ? " WITH (fillfactor = 50)" : " WITHOUT ROWID")
            """).run()
        try await sql.raw("INSERT INTO spot_states (spot_id, state, observed_at, sequence) SELECT id, state, observed_at, sequence FROM spots").run()
        for column in ["state", "observed_at", "sequence"] {
            try await sql.raw("ALTER TABLE spots DROP COLUMN \(unsafeRaw: column)").run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE spots ADD COLUMN state TEXT NOT NULL DEFAULT 'u'").run()
        try await sql.raw("ALTER TABLE spots ADD COLUMN observed_at BIGINT").run()
        try await sql.raw("ALTER TABLE spots ADD COLUMN sequence BIGINT").run()
        try await sql.raw("""
            UPDATE spots SET state = s.state, observed_at = s.observed_at, sequence = s.sequence
            FROM spot_states s WHERE s.spot_id = spots.id
            """).run()
        try await sql.raw("DROP TABLE spot_states").run()
    }
}
