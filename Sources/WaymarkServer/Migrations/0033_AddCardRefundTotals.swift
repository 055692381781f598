import FluentKit
import SQLKit

/// What the card processor has given back of a card top-up (refunds made at the processor, PRK-13),
/// and the part of it the wallet no longer held, which operators settle with the person by hand.
struct AddCardRefundTotals: AsyncMigration {
    var name: String { "0033_AddCardRefundTotals" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE card_payments ADD COLUMN refunded_minor BIGINT NOT NULL DEFAULT 0").run()
        try await sql.raw("ALTER TABLE card_payments ADD COLUMN unrecovered_minor BIGINT NOT NULL DEFAULT 0").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE card_payments DROP COLUMN unrecovered_minor").run()
        try await sql.raw("ALTER TABLE card_payments DROP COLUMN refunded_minor").run()
    }
}
