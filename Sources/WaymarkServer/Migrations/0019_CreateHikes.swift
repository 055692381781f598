import FluentKit
import SQLKit

/// Recorded hikes (TRL-6) and what a hiker tells for steps and calories. A hike is saved by the
/// person who walked it, under the id their device chose, with the fixes the recording kept
/// and its figures; a trail removed from the catalogue leaves its hikes with the name it had.
/// The scavenger hunts' finds (TRL-10) are kept per person, trail and focal point.
struct CreateHikes: AsyncMigration {
    var name: String { "0019_CreateHikes" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE hiker_bodies (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                height_cm DOUBLE PRECISION,
                weight_kg DOUBLE PRECISION,
                birth_year INTEGER,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE hikes (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                trail_id TEXT REFERENCES trails(id) ON DELETE SET NULL,
                trail_name TEXT NOT NULL,
                trail_area TEXT NOT NULL,
                difficulty TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                ended_at BIGINT NOT NULL,
                fixes TEXT NOT NULL,
                elapsed_seconds DOUBLE PRECISION NOT NULL,
                moving_seconds DOUBLE PRECISION NOT NULL,
                distance_metres DOUBLE PRECISION NOT NULL,
                gain_metres DOUBLE PRECISION NOT NULL,
                steps INTEGER NOT NULL,
                calories DOUBLE PRECISION,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX hikes_user ON hikes (user_id, started_at)").run()
        // Scavenger hunts (TRL-10): the focal points a person has found, per trail.
        try await sql.raw("""
            CREATE TABLE scavenger_finds (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                trail_id TEXT NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
                point_id TEXT NOT NULL,
                found_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, trail_id, point_id)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["scavenger_finds", "hikes", "hiker_bodies"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
