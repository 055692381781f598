import FluentKit
import SQLKit

/// Wayfinding (WAY-1, WAY-6). A venue is kept as the IMDF archive it was imported as (the
/// reader's checked and repaired output, one row per file), because it is only ever replaced
/// whole; `venue_staff` is the directory, replaced whole too. `version` grows with either, and
/// is what caches and ETags follow.
struct CreateWayfinding: AsyncMigration {
    var name: String { "0015_CreateWayfinding" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE venues (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                site_id TEXT,
                version BIGINT NOT NULL,
                center_lat DOUBLE PRECISION NOT NULL,
                center_lon DOUBLE PRECISION NOT NULL,
                south DOUBLE PRECISION NOT NULL,
                west DOUBLE PRECISION NOT NULL,
                north DOUBLE PRECISION NOT NULL,
                east DOUBLE PRECISION NOT NULL,
                buildings INTEGER NOT NULL,
                people INTEGER NOT NULL,
                warnings TEXT NOT NULL,
                imported_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE venue_files (
                venue_id TEXT NOT NULL REFERENCES venues (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                content TEXT NOT NULL,
                PRIMARY KEY (venue_id, name)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE venue_staff (
                venue_id TEXT NOT NULL REFERENCES venues (id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                position INTEGER NOT NULL,
                name TEXT NOT NULL,
                title TEXT,
                department TEXT,
                building TEXT NOT NULL,
                room TEXT NOT NULL,
                email TEXT,
                office_hours TEXT,
                PRIMARY KEY (venue_id, id)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP TABLE venue_staff").run()
        try await sql.raw("DROP TABLE venue_files").run()
        try await sql.raw("DROP TABLE venues").run()
    }
}
