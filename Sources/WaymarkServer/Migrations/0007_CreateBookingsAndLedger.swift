import FluentKit
import SQLKit
import WaymarkCore

/// Paid bookings (PRK-12) and the wallet's double-entry ledger (PRK-13).
///
/// - `lots.bookable_capacity` and `lots.booking_tariff` (JSON of `StoredTariff`, NULL: not
///   bookable) are the lot's `BookingOffer`. `lots.price` stays the pay-station price.
/// - `ledger_transactions` are ordered by `seq`, which a statement needs: many transactions can
///   share a millisecond, and a wallet's running balance is only meaningful in posting order.
/// - `ledger_balances` is the running total per account and currency. Its CHECK is the last
///   line of defence for "a wallet is never negative": the service checks first, under a lock.
/// - `idempotency_keys` remembers which booking or top-up a client's key produced, so a retried
///   request (PRK-19's offline queue) is answered with the first result.
struct CreateBookingsAndLedger: AsyncMigration {
    var name: String { "0007_CreateBookingsAndLedger" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        let isPostgres = sql.dialect.name == "postgresql"
        try await sql.raw("ALTER TABLE lots ADD COLUMN bookable_capacity BIGINT NOT NULL DEFAULT 0").run()
        try await sql.raw("ALTER TABLE lots ADD COLUMN booking_tariff TEXT").run()
        try await sql.raw("""
            CREATE TABLE bookings (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                site_id TEXT NOT NULL,
                start_at BIGINT NOT NULL,
                end_at BIGINT NOT NULL,
                state TEXT NOT NULL,
                currency TEXT NOT NULL,
                paid_minor BIGINT NOT NULL CHECK (paid_minor >= 0),
                modifications BIGINT NOT NULL DEFAULT 0,
                checked_in_at BIGINT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                CHECK (end_at > start_at)
            )
            """).run()
        try await sql.raw("CREATE INDEX bookings_lot_time ON bookings (lot_id, start_at)").run()
        try await sql.raw("CREATE INDEX bookings_user_start ON bookings (user_id, start_at)").run()
        try await sql.raw("CREATE INDEX bookings_live ON bookings (start_at) WHERE state IN ('booked', 'checkedIn')").run()

        let seq = isPostgres ? "seq BIGSERIAL PRIMARY KEY" : "seq INTEGER PRIMARY KEY AUTOINCREMENT"
        try await sql.raw("""
            CREATE TABLE ledger_transactions (
                \(unsafeRaw: seq),
                id TEXT NOT NULL UNIQUE,
                movement TEXT NOT NULL,
                at BIGINT NOT NULL,
                reference TEXT
            )
            """).run()
        try await sql.raw("CREATE INDEX ledger_transactions_reference ON ledger_transactions (reference)").run()
        try await sql.raw("""
            CREATE TABLE ledger_entries (
                transaction_id TEXT NOT NULL REFERENCES ledger_transactions(id),
                account TEXT NOT NULL,
                currency TEXT NOT NULL,
                amount_minor BIGINT NOT NULL CHECK (amount_minor <> 0),
                PRIMARY KEY (transaction_id, account, currency)
            )
            """).run()
        try await sql.raw("CREATE INDEX ledger_entries_account ON ledger_entries (account, currency)").run()
        try await sql.raw("""
            CREATE TABLE ledger_balances (
                account TEXT NOT NULL,
                currency TEXT NOT NULL,
                kind TEXT NOT NULL,
                balance_minor BIGINT NOT NULL,
                PRIMARY KEY (account, currency),
                CHECK (kind <> 'wallet' OR balance_minor >= 0)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE idempotency_keys (
                user_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                result_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, scope, key)
            )
            """).run()
        try await sql.raw("CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)").run()

        // A demo database loaded before bookings existed gets the demo lots' offers, so that an
        // upgraded demo server can take bookings without being reloaded.
        for lot in DemoCampus.fullerton.lots {
            guard let offer = lot.booking else { continue }
            try await sql.raw("""
                UPDATE lots SET bookable_capacity = \(bind: offer.capacity), booking_tariff = \(bind: try StoredTariff(offer.pricing).json())
                WHERE code = \(bind: lot.code) AND site_id IN (SELECT id FROM sites WHERE code = \(bind: DemoCampus.fullerton.code))
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["idempotency_keys", "ledger_balances", "ledger_entries", "ledger_transactions", "bookings"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
        try await sql.raw("ALTER TABLE lots DROP COLUMN booking_tariff").run()
        try await sql.raw("ALTER TABLE lots DROP COLUMN bookable_capacity").run()
    }
}
