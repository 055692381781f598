import FluentKit
import SQLKit
import WaymarkCore

/// Lot details and reviews (PRK-14).
///
/// - `lots.keys_required` (0/1): drivers leave their keys with an attendant.
/// - `lot_reviews`: one row per person and lot (the unique pair), edited in place. Listed per
///   lot newest first by `updated_at`, with `id` breaking ties for a stable page cursor. The
///   author's name is not copied here: it is read from `users`, so a renamed account shows its
///   new name and an erased one leaves nothing behind.
struct CreateLotReviews: AsyncMigration {
    var name: String { "0008_CreateLotReviews" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("ALTER TABLE lots ADD COLUMN keys_required BIGINT NOT NULL DEFAULT 0").run()
        try await sql.raw("""
            CREATE TABLE lot_reviews (
                id TEXT PRIMARY KEY,
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL,
                stars BIGINT NOT NULL CHECK (stars BETWEEN 1 AND 5),
                text TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                UNIQUE (lot_id, user_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX lot_reviews_lot_updated ON lot_reviews (lot_id, updated_at, id)").run()
        try await sql.raw("CREATE INDEX lot_reviews_user ON lot_reviews (user_id)").run()

        // A demo database loaded before this migration learns which of its lots take keys.
        for lot in DemoCampus.fullerton.lots where lot.keysRequired {
            try await sql.raw("""
                UPDATE lots SET keys_required = 1
                WHERE code = \(bind: lot.code) AND site_id IN (SELECT id FROM sites WHERE code = \(bind: DemoCampus.fullerton.code))
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP TABLE lot_reviews").run()
        try await sql.raw("ALTER TABLE lots DROP COLUMN keys_required").run()
    }
}
