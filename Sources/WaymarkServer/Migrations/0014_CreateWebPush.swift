import FluentKit
import SQLKit

/// Web Push (PRK-22). `push_server_keys` holds the one VAPID key pair every instance signs
/// with; `push_subscriptions` a person's browsers, `push_preferences` the kinds they switched
/// off. `notifications.pushed_at` marks a notification whose push was decided, so that one
/// instance pushes it once; rows from before push existed count as decided.
struct CreateWebPush: AsyncMigration {
    var name: String { "0014_CreateWebPush" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE push_server_keys (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                private_key TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE push_subscriptions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                endpoint TEXT NOT NULL UNIQUE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT,
                last_success_at BIGINT,
                failures INTEGER NOT NULL DEFAULT 0
            )
            """).run()
        try await sql.raw("CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id)").run()
        try await sql.raw("""
            CREATE TABLE push_preferences (
                user_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                enabled BOOLEAN NOT NULL,
                PRIMARY KEY (user_id, kind)
            )
            """).run()
        try await sql.raw("ALTER TABLE notifications ADD COLUMN pushed_at BIGINT").run()
        try await sql.raw("UPDATE notifications SET pushed_at = created_at").run()
        // Only the few notifications still to be pushed are in it.
        try await sql.raw("CREATE INDEX notifications_unpushed ON notifications (seq) WHERE pushed_at IS NULL").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP INDEX notifications_unpushed").run()
        try await sql.raw("ALTER TABLE notifications DROP COLUMN pushed_at").run()
        try await sql.raw("DROP TABLE push_preferences").run()
        try await sql.raw("DROP TABLE push_subscriptions").run()
        try await sql.raw("DROP TABLE push_server_keys").run()
    }
}
