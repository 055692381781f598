import FluentKit
import SQLKit

/// The trail catalogue (TRL-1, TRL-2, TRL-7). A trail is one row: the columns lists, the map and
/// search need, a simplified line for the map, and the whole trail as JSON for its page.
/// `trail_catalogue` holds one number that every change to the catalogue raises, so each server
/// knows when its in-memory index is out of date. Forecasts are kept per area of about 10 km
/// (trailheads close together share one), the last good one shown when the provider is down.
struct CreateTrails: AsyncMigration {
    var name: String { "0017_CreateTrails" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let blob = sql.dialect.name == "postgresql" ? "BYTEA" : "BLOB"
        try await sql.raw("""
            CREATE TABLE trails (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                area TEXT NOT NULL,
                shape TEXT NOT NULL,
                difficulty TEXT NOT NULL,
                official BOOLEAN NOT NULL,
                accessible BOOLEAN NOT NULL,
                hunting_alert TEXT,
                trailhead_lat DOUBLE PRECISION NOT NULL,
                trailhead_lon DOUBLE PRECISION NOT NULL,
                south DOUBLE PRECISION NOT NULL,
                west DOUBLE PRECISION NOT NULL,
                north DOUBLE PRECISION NOT NULL,
                east DOUBLE PRECISION NOT NULL,
                length_metres DOUBLE PRECISION NOT NULL,
                gain_metres DOUBLE PRECISION NOT NULL,
                features TEXT NOT NULL,
                picture_id TEXT,
                line TEXT NOT NULL,
                body TEXT NOT NULL,
                source TEXT NOT NULL,
                version INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE trail_pictures (
                id TEXT PRIMARY KEY,
                content_type TEXT NOT NULL,
                bytes \(unsafeRaw: blob) NOT NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE TABLE trail_catalogue (id INTEGER PRIMARY KEY, version BIGINT NOT NULL)").run()
        try await sql.raw("INSERT INTO trail_catalogue (id, version) VALUES (1, 0)").run()
        try await sql.raw("""
            CREATE TABLE trail_favourites (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                trail_id TEXT NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, trail_id)
            )
            """).run()
        // Comments (TRL-4): one per person and trail; votes and reports one per person and comment.
        // A comment an operator hid stays, so that restoring it gives it back as it was.
        try await sql.raw("""
            CREATE TABLE trail_comments (
                id TEXT PRIMARY KEY,
                trail_id TEXT NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                stars INTEGER NOT NULL,
                text TEXT NOT NULL,
                score INTEGER NOT NULL,
                hidden BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                UNIQUE (trail_id, user_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX trail_comments_trail ON trail_comments (trail_id, hidden, score, updated_at)").run()
        try await sql.raw("""
            CREATE TABLE trail_comment_votes (
                comment_id TEXT NOT NULL REFERENCES trail_comments(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                vote INTEGER NOT NULL,
                PRIMARY KEY (comment_id, user_id)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE trail_comment_reports (
                comment_id TEXT NOT NULL REFERENCES trail_comments(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                reason TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (comment_id, user_id)
            )
            """).run()
        // One row per person and ISO week: the database decides that a week's suggestion is sent once.
        try await sql.raw("""
            CREATE TABLE trail_suggestions (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                week TEXT NOT NULL,
                trail_ids TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, week)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE weather_forecasts (
                area TEXT PRIMARY KEY,
                body TEXT NOT NULL,
                fetched_at BIGINT NOT NULL
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["weather_forecasts", "trail_suggestions", "trail_comment_reports", "trail_comment_votes", "trail_comments", "trail_favourites", "trail_catalogue", "trail_pictures", "trails"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
