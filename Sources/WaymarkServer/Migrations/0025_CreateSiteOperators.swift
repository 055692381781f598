import FluentKit
import SQLKit

/// Operators of one site (PRK-1: a campus runs its own lots) and the record of every change
/// they make: who, when, to which lot or spot, and what it was before and after.
struct CreateSiteOperators: AsyncMigration {
    var name: String { "0025_CreateSiteOperators" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE site_operators (
                site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                granted_at BIGINT NOT NULL,
                granted_by TEXT,
                PRIMARY KEY (site_id, user_id)
            )
            """).run()
        try await sql.raw("CREATE INDEX site_operators_user ON site_operators (user_id)").run()
        // user_id is kept as written (an erased account's becomes a tombstone): the record
        // outlives the people in it. subject_id is the account a grant names; a summary holds
        // no name, it is read with the subject's name of the day (none once erased).
        try await sql.raw("""
            CREATE TABLE operator_changes (
                id TEXT PRIMARY KEY,
                site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
                lot_id TEXT,
                user_id TEXT NOT NULL,
                subject_id TEXT,
                at BIGINT NOT NULL,
                action TEXT NOT NULL,
                summary TEXT NOT NULL,
                before TEXT,
                after TEXT
            )
            """).run()
        try await sql.raw("CREATE INDEX operator_changes_site ON operator_changes (site_id, at)").run()
        try await sql.raw("CREATE INDEX operator_changes_user ON operator_changes (user_id)").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["operator_changes", "site_operators"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
