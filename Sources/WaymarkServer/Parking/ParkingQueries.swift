import Foundation
import SQLKit
import WaymarkCore

/// Read queries of the parking area, kept apart from the HTTP handlers so they can be tested
/// on a database alone.
struct ParkingQueries: Sendable {
    let store: SQLStore
    private var sql: any SQLDatabase { store.sql }

    func sites() async throws -> [SiteRow] {
        try await sql.raw("SELECT * FROM sites ORDER BY name")
            .all(decoding: SiteRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func site(id: String) async throws -> SiteRow? {
        try await sql.raw("SELECT * FROM sites WHERE id = \(bind: id)")
            .first(decoding: SiteRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// The site's clock, which every time Parking shows is read on; nil for an unknown site.
    func timeZone(siteId: String, on other: (any SQLDatabase)? = nil) async throws -> TimeZone? {
        try await (other ?? sql).raw("SELECT time_zone FROM sites WHERE id = \(bind: siteId)").first()
            .flatMap { TimeZone(identifier: try $0.decode(column: "time_zone", as: String.self)) }
    }

    /// By the code of its site file, in any case.
    func site(code: String) async throws -> SiteRow? {
        try await sites().first { $0.code.lowercased() == code.lowercased() }
    }

    func lots(siteId: String) async throws -> [LotRow] {
        try await sql.raw("SELECT * FROM lots WHERE site_id = \(bind: siteId) ORDER BY position")
            .all(decoding: LotRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func lot(id: String, on other: (any SQLDatabase)? = nil) async throws -> LotRow? {
        try await (other ?? sql).raw("SELECT * FROM lots WHERE id = \(bind: id)")
            .first(decoding: LotRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// Free spots of one category per lot of the site, by their sensors now.
    func freeSpots(siteId: String, category: SpotCategory) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try await sql.raw("""
            SELECT s.lot_id, COUNT(*) AS n FROM spots s JOIN lots l ON l.id = s.lot_id JOIN spot_states ss ON ss.spot_id = s.id
            WHERE l.site_id = \(bind: siteId) AND s.category = \(bind: category.rawValue) AND ss.state = 'f' GROUP BY s.lot_id
            """).all() {
            counts[try row.decode(column: "lot_id", as: String.self)] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }

    func lotCounts(siteId: String) async throws -> [LotCountsRow] {
        try await sql.raw("SELECT \(unsafeRaw: LotCountsRow.columns) FROM lots WHERE site_id = \(bind: siteId) ORDER BY position")
            .all(decoding: LotCountsRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func lotCounts(lotId: String) async throws -> LotCountsRow? {
        try await sql.raw("SELECT \(unsafeRaw: LotCountsRow.columns) FROM lots WHERE id = \(bind: lotId)")
            .first(decoding: LotCountsRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func spots(lotId: String) async throws -> [SpotRow] {
        try await sql.raw("""
            SELECT id, ordinal, label, level, category, sensor_id, center_lat, center_lon, heading, length, width
            FROM spots WHERE lot_id = \(bind: lotId) ORDER BY ordinal
            """)
            .all(decoding: SpotRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// The lot's states, one character per spot in ordinal order.
    func spotStates(lotId: String) async throws -> String {
        let rows = try await sql.raw("""
            SELECT st.state FROM spots s JOIN spot_states st ON st.spot_id = s.id WHERE s.lot_id = \(bind: lotId) ORDER BY s.ordinal
            """).all()
        var out = ""
        out.reserveCapacity(rows.count)
        for row in rows {
            out += try row.decode(column: "state", as: String.self)
        }
        return out
    }

    func snapshots(lotId: String, since: Date) async throws -> [OccupancySnapshot] {
        let rows = try await sql.raw("""
            SELECT slot_start, taken, total FROM occupancy_snapshots
            WHERE lot_id = \(bind: lotId) AND slot_start >= \(bind: since.millis) ORDER BY slot_start
            """).all()
        return try rows.map { row in
            let taken = try row.decode(column: "taken", as: Int.self)
            let total = try row.decode(column: "total", as: Int.self)
            return OccupancySnapshot(
                at: Date(millis: try row.decode(column: "slot_start", as: Int64.self)),
                fraction: total == 0 ? 0 : Double(taken) / Double(total))
        }
    }
}
