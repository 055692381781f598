import FluentKit
import SQLKit

/// Accounts and device identities (ACC-1…10), their sessions, pictures, parking schedule
/// (PRK-16), password resets and sign-in throttles. Secrets are stored only as SHA-256 (random
/// tokens and codes) or bcrypt (passwords). Every row that refers to a user names it in
/// `user_id`, so that deleting an account (ACC-5) is a list of deletes.
struct CreateAccounts: AsyncMigration {
    var name: String { "0005_CreateAccounts" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let blob = sql.dialect.name == "postgresql" ? "BYTEA" : "BLOB"
        try await sql.raw("""
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                username TEXT,
                username_key TEXT UNIQUE,
                password_hash TEXT,
                email TEXT,
                email_key TEXT UNIQUE,
                first_name TEXT,
                last_name TEXT,
                about TEXT NOT NULL DEFAULT '',
                picture_url TEXT,
                units TEXT NOT NULL,
                permits TEXT NOT NULL DEFAULT '',
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX sessions_user ON sessions (user_id)").run()
        try await sql.raw("""
            CREATE TABLE user_pictures (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                bytes \(unsafeRaw: blob) NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE schedule_blocks (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                weekday INTEGER NOT NULL,
                start_slot INTEGER NOT NULL,
                end_slot INTEGER NOT NULL,
                lot_id TEXT REFERENCES lots(id) ON DELETE SET NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX schedule_blocks_user ON schedule_blocks (user_id, weekday, start_slot)").run()
        try await sql.raw("""
            CREATE TABLE password_resets (
                user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                code_hash TEXT NOT NULL,
                token_hash TEXT UNIQUE,
                expires_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        // Counters of failures by key ("account:<name>", "address:<ip>", …); see Throttles.
        try await sql.raw("""
            CREATE TABLE throttles (
                key TEXT PRIMARY KEY,
                failures INTEGER NOT NULL,
                first_at BIGINT NOT NULL,
                last_at BIGINT NOT NULL
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["throttles", "password_resets", "schedule_blocks", "user_pictures", "sessions", "users"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
