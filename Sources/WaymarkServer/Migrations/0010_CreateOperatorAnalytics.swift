import FluentKit
import SQLKit

/// Operator analytics (PRK-17).
///
/// - `operators`: the accounts that may read the analytics, granted with `waymark operator grant`.
/// - `user_activity_days`: one row per account and site-local day (`YYYY-MM-DD` on the wall
///   clock of the analytics zone, see `OperatorAnalyticsService.zone`) on which it made a signed-in
///   request: what "active" means in the share of users who reserve. A local day rather than a
///   UTC one, so that a day's bookers and a day's active users are counted over the same hours.
///
/// Both are erased with the account (`AccountService.userTables`).
struct CreateOperatorAnalytics: AsyncMigration {
    var name: String { "0010_CreateOperatorAnalytics" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE operators (
                user_id TEXT PRIMARY KEY,
                granted_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE user_activity_days (
                user_id TEXT NOT NULL,
                day TEXT NOT NULL,
                PRIMARY KEY (user_id, day)
            )
            """).run()
        try await sql.raw("CREATE INDEX user_activity_days_day ON user_activity_days (day)").run()
        // The analytics read bookings by when they were made as well as by when they start.
        try await sql.raw("CREATE INDEX bookings_created ON bookings (created_at)").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DROP INDEX bookings_created").run()
        try await sql.raw("DROP TABLE user_activity_days").run()
        try await sql.raw("DROP TABLE operators").run()
    }
}
