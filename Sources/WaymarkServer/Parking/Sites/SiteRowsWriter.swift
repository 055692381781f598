import Foundation
import SQLKit
import WaymarkCore

/// Writes a site's plan into `sites`, `lots`, `spots` and `spot_states`: the one place the demo
/// loader and site imports both put what exists on the ground.
enum SiteRowsWriter {
    static func bounds(of plan: SitePlan) -> BoundingBox {
        BoundingBox(plan.lots.flatMap(\.footprint))
            ?? BoundingBox(south: plan.center.latitude, west: plan.center.longitude, north: plan.center.latitude, east: plan.center.longitude)
    }

    static func insertSite(_ plan: SitePlan, id: String, at instant: Date, sql: any SQLDatabase) async throws {
        let b = bounds(of: plan)
        try await sql.raw("""
            INSERT INTO sites (id, code, name, time_zone, center_lat, center_lon, south, west, north, east, permits, created_at) VALUES
            (\(bind: id), \(bind: plan.code), \(bind: plan.name), \(bind: plan.timeZone), \(bind: plan.center.latitude),
             \(bind: plan.center.longitude), \(bind: b.south), \(bind: b.west), \(bind: b.north), \(bind: b.east),
             \(bind: try JSONColumn.encode(plan.permits)), \(bind: instant.millis))
            """).run()
    }

    static func updateSite(_ plan: SitePlan, id: String, sql: any SQLDatabase) async throws {
        let b = bounds(of: plan)
        try await sql.raw("""
            UPDATE sites SET name = \(bind: plan.name), time_zone = \(bind: plan.timeZone), center_lat = \(bind: plan.center.latitude),
              center_lon = \(bind: plan.center.longitude), south = \(bind: b.south), west = \(bind: b.west), north = \(bind: b.north), east = \(bind: b.east),
              permits = \(bind: try JSONColumn.encode(plan.permits))
            WHERE id = \(bind: id)
            """).run()
    }

    /// What a lot's plan says, as the columns' values; the live counters are not among them.
    private static func described(_ lot: LotPlan, capacity: Int) throws -> [(String, any Encodable & Sendable)] {
        let center = lot.center
        return [
            ("code", lot.code), ("name", lot.name), ("kind", lot.kind.rawValue), ("levels", lot.levels),
            ("footprint", try JSONColumn.encode(lot.footprint)), ("center_lat", center.latitude), ("center_lon", center.longitude),
            ("entrance_lat", lot.entrance.latitude), ("entrance_lon", lot.entrance.longitude), ("capacity", capacity),
            ("address", lot.address), ("keys_required", lot.keysRequired ? 1 : 0),
        ] + (try settingsColumns(LotSettings(hours: lot.hours, price: lot.price, permitRules: lot.permitRules, rules: lot.rules, booking: lot.booking)))
    }

    /// The columns of what an operator changes (`OperateService`).
    static func settingsColumns(_ s: LotSettings) throws -> [(String, any Encodable & Sendable)] {
        [
            ("permit_rules", try JSONColumn.encode(s.permitRules.map(StoredPermitRule.init))),
            ("hours", try JSONColumn.encode(s.hours.map(StoredOpeningHours.init))), ("price", try JSONColumn.encode(s.price)),
            ("rules", try JSONColumn.encode(s.rules)), ("bookable_capacity", s.booking?.capacity ?? 0),
            ("booking_tariff", try s.booking.map { try StoredTariff($0.pricing).json() }),
        ]
    }

    static func insertLot(_ lot: LotPlan, id: String, siteId: String, position: Int, capacity: Int, counts: LotCounts,
                          at instant: Date, sql: any SQLDatabase) async throws {
        let values = try [("id", id as any Encodable & Sendable), ("site_id", siteId), ("position", position)] + described(lot, capacity: capacity) + [
            ("count_f", counts.free), ("count_o", counts.occupied), ("count_h", counts.held), ("count_b", counts.booked),
            ("count_c", counts.closed), ("count_u", counts.unknown), ("version", 1), ("last_change_at", instant.millis),
        ]
        let columns = values.map(\.0).joined(separator: ", ")
        let binds: [SQLQueryString] = values.map { "\(bind: $0.1)" }
        try await sql.raw("INSERT INTO lots (\(unsafeRaw: columns)) VALUES (\(binds.joined(separator: ", ")))").run()
    }

    /// Everything the plan says; the counters are worked out again by `recount` once its spots are written.
    static func updateLot(_ lot: LotPlan, id: String, position: Int, capacity: Int, sql: any SQLDatabase) async throws {
        let sets: [SQLQueryString] = try ([("position", position as any Encodable & Sendable)] + described(lot, capacity: capacity))
            .map { "\(unsafeRaw: $0.0) = \(bind: $0.1)" }
        try await sql.raw("UPDATE lots SET \(sets.joined(separator: ", ")) WHERE id = \(bind: id)").run()
    }

    /// New spots with their first states.
    static func insertSpots(_ spots: [(id: String, plan: SpotPlan, state: SpotState)], lotId: String, sql: any SQLDatabase) async throws {
        for chunk in spots.chunked(200) {
            let rows: [SQLQueryString] = chunk.map { s in
                """
                (\(bind: s.id), \(bind: lotId), \(bind: s.plan.ordinal), \(bind: s.plan.label), \(bind: s.plan.level),
                 \(bind: s.plan.category.rawValue), \(bind: s.plan.sensorId), \(bind: s.plan.center.latitude), \(bind: s.plan.center.longitude),
                 \(bind: s.plan.headingDegrees), \(bind: s.plan.lengthMetres), \(bind: s.plan.widthMetres))
                """
            }
            try await sql.raw("""
                INSERT INTO spots (id, lot_id, ordinal, label, level, category, sensor_id, center_lat, center_lon,
                  heading, length, width) VALUES \(rows.joined(separator: ", "))
                """).run()
            let states: [SQLQueryString] = chunk.map { "(\(bind: $0.id), \(bind: String($0.state.rawValue)))" }
            try await sql.raw("INSERT INTO spot_states (spot_id, state) VALUES \(states.joined(separator: ", "))").run()
        }
    }

    /// A kept spot takes what the plan says now; its id, state and history stay.
    static func updateSpot(_ spot: SpotPlan, id: String, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE spots SET ordinal = \(bind: spot.ordinal), level = \(bind: spot.level), category = \(bind: spot.category.rawValue),
              sensor_id = \(bind: spot.sensorId), center_lat = \(bind: spot.center.latitude), center_lon = \(bind: spot.center.longitude),
              heading = \(bind: spot.headingDegrees), length = \(bind: spot.lengthMetres), width = \(bind: spot.widthMetres)
            WHERE id = \(bind: id)
            """).run()
    }

    /// The lot's counters from its spots' states, under a new version so that every reader and
    /// stream reads the lot again.
    static func recount(lotId: String, at instant: Date, sql: any SQLDatabase) async throws {
        var counts = LotCounts()
        for row in try await sql.raw("""
            SELECT ss.state, COUNT(*) AS n FROM spot_states ss JOIN spots s ON s.id = ss.spot_id WHERE s.lot_id = \(bind: lotId) GROUP BY ss.state
            """).all() {
            let code = try row.decode(column: "state", as: String.self)
            if let state = code.first.flatMap(SpotState.init(code:)) { counts[state] += try row.decode(column: "n", as: Int.self) }
        }
        try await sql.raw("""
            UPDATE lots SET count_f = \(bind: counts.free), count_o = \(bind: counts.occupied), count_h = \(bind: counts.held),
              count_b = \(bind: counts.booked), count_c = \(bind: counts.closed), count_u = \(bind: counts.unknown),
              version = version + 1, last_change_at = \(bind: instant.millis)
            WHERE id = \(bind: lotId)
            """).run()
    }
}
