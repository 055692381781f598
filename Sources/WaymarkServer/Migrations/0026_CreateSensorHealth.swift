import FluentKit
import SQLKit

/// What sensors say about themselves (battery, signal at the gateway) and how much each
/// gateway sends per site and hour, for the operators' sensor health (PRK-1).
struct CreateSensorHealth: AsyncMigration {
    var name: String { "0026_CreateSensorHealth" }

    func prepare(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        try await sql.raw("""
            CREATE TABLE sensor_vitals (
                sensor_id TEXT PRIMARY KEY,
                battery BIGINT,
                rssi DOUBLE PRECISION,
                snr DOUBLE PRECISION,
                reported_at BIGINT NOT NULL
            )
            """).run()
        try await sql.raw("""
            CREATE TABLE gateway_traffic (
                gateway_id TEXT NOT NULL,
                site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
                hour BIGINT NOT NULL,
                batches BIGINT NOT NULL,
                events BIGINT NOT NULL,
                accepted BIGINT NOT NULL,
                rejected BIGINT NOT NULL,
                last_at BIGINT NOT NULL,
                PRIMARY KEY (site_id, gateway_id, hour)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        for table in ["gateway_traffic", "sensor_vitals"] {
            try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        }
    }
}
