import Foundation
import WaymarkCore

/// Rows as stored. Decoded straight from SQL with snake_case keys.
struct SiteRow: Decodable, Sendable {
    var id: String
    var code: String
    var name: String
    var timeZone: String
    var centerLat: Double
    var centerLon: Double
    var south: Double
    var west: Double
    var north: Double
    var east: Double
    /// JSON of `PermitKind`s.
    var permits: String

    /// A column that does not read is an error, not a site without permits.
    func permitKinds() throws -> [PermitKind] { try JSONColumn.decode([PermitKind].self, permits) }
}

struct LotRow: Decodable, Sendable {
    var id: String
    var siteId: String
    var position: Int
    var code: String
    var name: String
    var kind: String
    var levels: Int
    var footprint: String
    var centerLat: Double
    var centerLon: Double
    var entranceLat: Double
    var entranceLon: Double
    var capacity: Int
    var permitRules: String
    var hours: String
    var price: String
    var rules: String
    var address: String
    var bookableCapacity: Int
    var bookingTariff: String?
    var keysRequired: Int
}

/// A lot's live counters.
struct LotCountsRow: Decodable, Sendable {
    var id: String
    var siteId: String
    var countF: Int
    var countO: Int
    var countH: Int
    var countB: Int
    var countC: Int
    var countU: Int
    /// Spaces promised to booked drivers on their way (`PromisedSpaces`).
    var countP: Int
    var version: Int64
    var lastChangeAt: Int64?

    var counts: LotCounts {
        LotCounts(free: countF, occupied: countO, held: countH, booked: countB, closed: countC, unknown: countU)
            .promising(countP)
    }

    static let columns = "id, site_id, count_f, count_o, count_h, count_b, count_c, count_u, count_p, version, last_change_at"
}

struct SpotRow: Decodable, Sendable {
    var id: String
    var ordinal: Int
    var label: String
    var level: Int
    var category: String
    var sensorId: String?
    var centerLat: Double
    var centerLon: Double
    var heading: Double
    var length: Double
    var width: Double
}
