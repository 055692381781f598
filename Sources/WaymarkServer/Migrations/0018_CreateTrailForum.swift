import FluentKit
import SQLKit

/// The community forum of each trail (TRL-5): posts pinned to a point, visible to all, and the
/// reports that put a post in the operators' moderation queue (TRL-12). The post's id is chosen by
/// the device that writes it, so a post queued offline and sent twice is stored once.
struct CreateTrailForum: AsyncMigration {
    var name: String { "0018_CreateTrailForum" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE trail_forum_posts (
                id TEXT PRIMARY KEY,
                trail_id TEXT NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                text TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                hidden BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX trail_forum_posts_trail ON trail_forum_posts (trail_id, hidden, created_at)").run()
        try await sql.raw("""
            CREATE TABLE trail_forum_reports (
                post_id TEXT NOT NULL REFERENCES trail_forum_posts(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                reason TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (post_id, user_id)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["trail_forum_reports", "trail_forum_posts"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
