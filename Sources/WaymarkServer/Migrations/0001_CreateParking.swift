import FluentKit
import SQLKit

/// Sites, lots and spots (PRK-1). Lots carry per-state spot counters so that a site's
/// occupancy is read in O(lots); they change in the same transaction as the spots.
struct CreateParking: AsyncMigration {
    var name: String { "0001_CreateParking" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE sites (
                id TEXT PRIMARY KEY,
                code TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                time_zone TEXT NOT NULL,
                center_lat DOUBLE PRECISION NOT NULL,
                center_lon DOUBLE PRECISION NOT NULL,
                south DOUBLE PRECISION NOT NULL,
                west DOUBLE PRECISION NOT NULL,
                north DOUBLE PRECISION NOT NULL,
                east DOUBLE PRECISION NOT NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE lots (
                id TEXT PRIMARY KEY,
                site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
                position BIGINT NOT NULL,
                code TEXT NOT NULL,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                levels BIGINT NOT NULL,
                footprint TEXT NOT NULL,
                center_lat DOUBLE PRECISION NOT NULL,
                center_lon DOUBLE PRECISION NOT NULL,
                entrance_lat DOUBLE PRECISION NOT NULL,
                entrance_lon DOUBLE PRECISION NOT NULL,
                capacity BIGINT NOT NULL,
                permit_rules TEXT NOT NULL,
                hours TEXT NOT NULL,
                price TEXT NOT NULL,
                rules TEXT NOT NULL,
                address TEXT NOT NULL,
                count_f BIGINT NOT NULL DEFAULT 0,
                count_o BIGINT NOT NULL DEFAULT 0,
                count_h BIGINT NOT NULL DEFAULT 0,
                count_b BIGINT NOT NULL DEFAULT 0,
                count_c BIGINT NOT NULL DEFAULT 0,
                count_u BIGINT NOT NULL DEFAULT 0,
                version BIGINT NOT NULL DEFAULT 0,
                last_change_at BIGINT,
                UNIQUE (site_id, code)
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE spots (
                id TEXT PRIMARY KEY,
                lot_id TEXT NOT NULL REFERENCES lots(id) ON DELETE CASCADE,
                ordinal BIGINT NOT NULL,
                label TEXT NOT NULL,
                level BIGINT NOT NULL,
                category TEXT NOT NULL,
                sensor_id TEXT UNIQUE,
                center_lat DOUBLE PRECISION NOT NULL,
                center_lon DOUBLE PRECISION NOT NULL,
                heading DOUBLE PRECISION NOT NULL,
                length DOUBLE PRECISION NOT NULL,
                width DOUBLE PRECISION NOT NULL,
                state TEXT NOT NULL DEFAULT 'u',
                observed_at BIGINT,
                sequence BIGINT,
                UNIQUE (lot_id, ordinal)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["spots", "lots", "sites"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
