import FluentKit
import SQLKit

/// Friends, message threads and location sharing (TRL-8, TRL-9). A friendship is two rows, one
/// per side, so "my friends" is one index range. `thread_events` is the log a thread's live
/// stream tails (a message posted, edited or deleted, the members changed); a message row holds
/// only the current text, so an edit or a deletion leaves nothing of the old one. A person's
/// shared position is one row that exists only while they share: turning sharing off deletes it.
struct CreateFriendsAndMessages: AsyncMigration {
    var name: String { "0020_CreateFriendsAndMessages" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let seq = sql.dialect.name == "postgresql" ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY AUTOINCREMENT"
        try await sql.raw("""
            CREATE TABLE friend_requests (
                from_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                to_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (from_id, to_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX friend_requests_to ON friend_requests (to_id)").run()
        try await sql.raw("""
            CREATE TABLE friendships (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                friend_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, friend_id)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE person_blocks (
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                blocked_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, blocked_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX person_blocks_blocked ON person_blocks (blocked_id)").run()
        // `direct_key` (the two ids in order) makes a direct thread unique per pair; a group has none.
        try await sql.raw("""
            CREATE TABLE message_threads (
                id TEXT PRIMARY KEY,
                title TEXT,
                direct_key TEXT UNIQUE,
                created_by TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE thread_members (
                thread_id TEXT NOT NULL REFERENCES message_threads(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                joined_at BIGINT NOT NULL,
                read_seq BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (thread_id, user_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX thread_members_user ON thread_members (user_id)").run()
        try await sql.raw("""
            CREATE TABLE messages (
                id TEXT PRIMARY KEY,
                thread_id TEXT NOT NULL REFERENCES message_threads(id) ON DELETE CASCADE,
                author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                text TEXT NOT NULL,
                posted_seq BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                edited_at BIGINT
            )
            """).run()
        try await sql.raw("CREATE INDEX messages_thread ON messages (thread_id, posted_seq)").run()
        try await sql.raw("""
            CREATE TABLE thread_events (
                \(unsafeRaw: seq),
                thread_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                message_id TEXT,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX thread_events_thread ON thread_events (thread_id, seq)").run()
        try await sql.raw("""
            CREATE TABLE location_shares (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                since BIGINT NOT NULL,
                latitude DOUBLE PRECISION,
                longitude DOUBLE PRECISION,
                accuracy DOUBLE PRECISION,
                reported_at BIGINT
            )
            """).run()
        // A notification about a thread opens it; one caused by another person (a request, a
        // message) names them, and goes when that person's account is erased.
        try await sql.raw("ALTER TABLE notifications ADD COLUMN thread_id TEXT").run()
        try await sql.raw("ALTER TABLE notifications ADD COLUMN from_user_id TEXT").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE notifications DROP COLUMN from_user_id").run()
        try await sql.raw("ALTER TABLE notifications DROP COLUMN thread_id").run()
        for table in ["location_shares", "thread_events", "messages", "thread_members", "message_threads", "person_blocks", "friendships", "friend_requests"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
