import Foundation

/// The static description of a site: what exists on the ground, not what is happening there.
/// The server seeds its database from a plan and the gateway emulator drives sensors from it, so
/// everything here must be reproducible from the plan alone.

/// When a lot can be entered at all, in site-local minutes after midnight.
/// A span that runs past midnight is written as two spans, one on each day, so that a lookup
/// never has to consult the previous day.
public struct OpeningHours: Hashable, Codable, Sendable {
    public var weekdays: Set<Weekday>
    /// Start inclusive, end exclusive; 0...1440 means all day.
    public var openMinute: Int
    public var closeMinute: Int

    public init(weekdays: Set<Weekday>, openMinute: Int, closeMinute: Int) {
        self.weekdays = weekdays
        self.openMinute = openMinute
        self.closeMinute = closeMinute
    }

    public static let everyDay: Set<Weekday> = [1, 2, 3, 4, 5, 6, 7]
    public static let allDayEveryDay = OpeningHours(weekdays: everyDay, openMinute: 0, closeMinute: 1440)

    public func contains(weekday: Weekday, minute: Int) -> Bool {
        weekdays.contains(weekday) && minute >= openMinute && minute < closeMinute
    }
}

public struct LotPrice: Hashable, Codable, Sendable {
    /// ISO 4217.
    public var currency: String
    public var hourlyCents: Int
    public var dailyMaxCents: Int

    public init(currency: String, hourlyCents: Int, dailyMaxCents: Int) {
        self.currency = currency
        self.hourlyCents = hourlyCents
        self.dailyMaxCents = dailyMaxCents
    }

    /// Hours are charged whole and capped per started day, as pay stations do.
    public func cents(forMinutes minutes: Int) -> Int {
        guard minutes > 0 else { return 0 }
        let days = minutes / 1440, rest = minutes % 1440
        let restCents = min(dailyMaxCents, (rest + 59) / 60 * hourlyCents)
        return days * dailyMaxCents + restCents
    }
}

public struct LotPlan: Sendable, Hashable, Codable {
    /// Short code people use on signs and in speech ("NPS", "A"); unique within a site and also
    /// part of every sensor id, so keep it to letters and digits.
    public var code: String
    public var name: String
    public var kind: LotKind
    /// 1 for a surface lot.
    public var levels: Int
    /// Outline on the ground, not closed (the first point is not repeated).
    public var footprint: [Coordinate]
    /// Where cars drive in; stalls are numbered outward from here.
    public var entrance: Coordinate
    /// Spots over all levels.
    public var capacity: Int
    public var handicapSpots: Int
    public var evSpots: Int
    public var permitRules: [PermitRule]
    /// Empty means never closed.
    public var hours: [OpeningHours]
    public var price: LotPrice
    /// Shown to drivers as they are, e.g. "Keys must be left with the attendant".
    public var rules: [String]
    public var address: String
    /// Drivers hand over their keys (valet or stack parking by an attendant); a filter for
    /// those who would rather not, and a line on the lot card (PRK-14).
    public var keysRequired: Bool
    /// Spaces and tariff for booking ahead (PRK-12); nil when the lot cannot be booked.
    /// `price` stays the pay-station price for driving in without a booking.
    public var booking: BookingOffer?

    public init(code: String, name: String, kind: LotKind, levels: Int, footprint: [Coordinate], entrance: Coordinate,
                capacity: Int, handicapSpots: Int, evSpots: Int, permitRules: [PermitRule], hours: [OpeningHours],
                price: LotPrice, rules: [String], address: String, keysRequired: Bool = false, booking: BookingOffer? = nil) {
        self.code = code
        self.name = name
        self.kind = kind
        self.levels = levels
        self.footprint = footprint
        self.entrance = entrance
        self.capacity = capacity
        self.handicapSpots = handicapSpots
        self.evSpots = evSpots
        self.permitRules = permitRules
        self.hours = hours
        self.price = price
        self.rules = rules
        self.address = address
        self.keysRequired = keysRequired
        self.booking = booking
    }

    public var center: Coordinate { Geo.centroid(footprint) }

    public func isOpen(weekday: Weekday, minute: Int) -> Bool {
        hours.isEmpty || hours.contains { $0.contains(weekday: weekday, minute: minute) }
    }
}

public struct SpotPlan: Sendable, Hashable, Codable {
    /// 0-based position in the lot, stable for a given plan: level, then row, then stall, each
    /// counted from the entrance. The wire format of lot states is indexed by it.
    public var ordinal: Int
    /// What is painted on the ground: "2-117" is stall 117 on floor 2 of a structure (floors
    /// counted from 1 at ground, as the signs in the stairwells do); a surface lot has just "117".
    public var label: String
    /// 0 = ground.
    public var level: Int
    public var category: SpotCategory
    public var center: Coordinate
    /// Direction the parked car faces, degrees clockwise from north.
    public var headingDegrees: Double
    public var lengthMetres: Double
    public var widthMetres: Double
    /// Unique over the whole site, e.g. "csuf-nps-2-117".
    public var sensorId: String

    public init(ordinal: Int, label: String, level: Int, category: SpotCategory, center: Coordinate,
                headingDegrees: Double, lengthMetres: Double, widthMetres: Double, sensorId: String) {
        self.ordinal = ordinal
        self.label = label
        self.level = level
        self.category = category
        self.center = center
        self.headingDegrees = headingDegrees
        self.lengthMetres = lengthMetres
        self.widthMetres = widthMetres
        self.sensorId = sensorId
    }

    /// The four corners of the stall on the ground, front-left first, clockwise seen from above.
    public var corners: [Coordinate] {
        let h = headingDegrees * .pi / 180
        let fwd = (east: sin(h), north: cos(h))
        let right = (east: cos(h), north: -sin(h))
        let hl = lengthMetres / 2, hw = widthMetres / 2
        return [(hl, -hw), (hl, hw), (-hl, hw), (-hl, -hw)].map { f, r in
            Geo.offset(center, east: f * fwd.east + r * right.east, north: f * fwd.north + r * right.north)
        }
    }
}

public struct SitePlan: Sendable, Hashable, Codable {
    /// Lower-case prefix of every sensor id on the site.
    public var code: String
    public var name: String
    /// IANA name; permit rules, opening hours and the emulator's day all run on this clock.
    public var timeZone: String
    public var center: Coordinate
    public var lots: [LotPlan]
    /// The permits the site issues, in the order people see them; the placard needs no entry.
    public var permits: [PermitKind]

    public init(code: String, name: String, timeZone: String, center: Coordinate, lots: [LotPlan], permits: [PermitKind] = []) {
        self.code = code
        self.name = name
        self.timeZone = timeZone
        self.center = center
        self.lots = lots
        self.permits = permits
    }

    public var capacity: Int { lots.reduce(0) { $0 + $1.capacity } }

    public func lot(code: String) -> LotPlan? { lots.first { $0.code == code } }
}
