import SQLKit

/// PostgreSQL advisory locks that order writers of money and booked capacity. SQLite needs
/// none: `SQLStore.write` takes its single write lock up front.
///
/// Two-integer keys, so they never meet the single-bigint keys used elsewhere
/// (`LiveHub.appendLockKey`). A transaction takes a user's lock before any lot's lock, never
/// the other way round, so two of them cannot deadlock.
enum AdvisoryLocks {
    /// Everything that moves a user's wallet or decides an idempotency key of theirs.
    static let userSpace = 0x5759_0001
    /// An area's own kinds of lock take the spaces after these (see `ParkingLocks`).
    static let jobSpace = 0x5759_0003

    static func lockUser(_ userId: String, sql: any SQLDatabase) async throws {
        try await lock(space: userSpace, id: userId, sql: sql)
    }

    /// Whether this transaction got the job's lock; always true on SQLite.
    static func tryLockJob(_ job: Int, sql: any SQLDatabase) async throws -> Bool {
        guard sql.dialect.name == "postgresql" else { return true }
        let row = try await sql.raw("""
            SELECT pg_try_advisory_xact_lock(\(unsafeRaw: String(jobSpace)), \(unsafeRaw: String(job))) AS locked
            """).first()
        return try row?.decode(column: "locked", as: Bool.self) ?? false
    }

    static func lock(space: Int, id: String, sql: any SQLDatabase) async throws {
        guard sql.dialect.name == "postgresql" else { return }
        // hashtext may map two ids to one key; that only makes them wait for each other.
        try await sql.raw("SELECT pg_advisory_xact_lock(\(unsafeRaw: String(space)), hashtext(\(bind: id)))").run()
    }
}
