import FluentKit
import SQLKit

/// A gateway may belong to a site, made by its operators (PRK-1); such a gateway reports for
/// that site's sensors only. Gateways made on the command line without a site keep reporting
/// for any. Names are unique among a scope's active gateways, so a name can be used again
/// after revoking, and a revoked gateway keeps its row (its traffic keeps its name). SQLite
/// cannot drop the old column's UNIQUE, so the table is rebuilt.
struct ScopeGatewaysToSites: AsyncMigration {
    var name: String { "0028_ScopeGatewaysToSites" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE gateways_by_site (
                id TEXT PRIMARY KEY,
                site_id TEXT REFERENCES sites(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                secret_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """).run()
        try await sql.raw("""
            INSERT INTO gateways_by_site (id, site_id, name, secret_hash, created_at, revoked_at)
            SELECT id, NULL, name, secret_hash, created_at, revoked_at FROM gateways
            """).run()
        try await sql.raw("DROP TABLE gateways").run()
        try await sql.raw("ALTER TABLE gateways_by_site RENAME TO gateways").run()
        try await sql.raw("""
            CREATE UNIQUE INDEX gateways_active_name ON gateways (COALESCE(site_id, ''), name) WHERE revoked_at IS NULL
            """).run()
        try await sql.raw("CREATE INDEX gateways_site ON gateways (site_id)").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("DELETE FROM gateways WHERE site_id IS NOT NULL").run()
        try await sql.raw("DROP INDEX gateways_active_name").run()
        try await sql.raw("DROP INDEX gateways_site").run()
        try await sql.raw("ALTER TABLE gateways DROP COLUMN site_id").run()
    }
}
