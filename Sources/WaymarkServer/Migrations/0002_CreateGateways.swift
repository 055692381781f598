import FluentKit
import SQLKit

/// Sensor gateways (PRK-2). Only a SHA-256 of each secret is stored: the secrets are 256-bit
/// random, so a fast hash is enough and lets every request be checked without a slow KDF.
struct CreateGateways: AsyncMigration {
    var name: String { "0002_CreateGateways" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE gateways (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                secret_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await (database as! any SQLDatabase).raw("DROP TABLE gateways").run()
    }
}
