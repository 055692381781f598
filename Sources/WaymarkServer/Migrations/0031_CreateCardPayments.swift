import FluentKit
import SQLKit

/// Top-ups paid by card through the card processor (PRK-13): one row per payment intent, from
/// created to credited, failed or refunded; and the processor's events already handled, so a
/// webhook delivered twice changes nothing the second time.
struct CreateCardPayments: AsyncMigration {
    var name: String { "0031_CreateCardPayments" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE card_payments (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                intent_id TEXT NOT NULL UNIQUE,
                client_secret TEXT,
                amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
                currency TEXT NOT NULL,
                state TEXT NOT NULL,
                failure TEXT,
                transaction_id TEXT,
                refund_id TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("CREATE INDEX card_payments_user ON card_payments (user_id, created_at)").run()
        try await sql.raw("""
            CREATE TABLE card_events (
                id TEXT PRIMARY KEY,
                type TEXT NOT NULL,
                received_at BIGINT NOT NULL
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP TABLE card_events").run()
        try await sql.raw("DROP TABLE card_payments").run()
    }
}
