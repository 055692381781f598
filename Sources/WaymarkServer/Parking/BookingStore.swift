import Foundation
import SQLKit
import WaymarkCore

/// A `bookings` row with its lot's code and name.
struct BookingRow: Sendable {
    var booking: Booking
    var siteId: String
    var createdAt: Date
    var lotCode: String
    var lotName: String
    /// Where cars drive into the lot: directions to a booking lead there.
    var lotEntrance: Coordinate
    /// The site's clock, which the booking's times are told in.
    var timeZone: TimeZone
    /// The weekly series the booking is one date of.
    var seriesId: String?

    static let select = """
        SELECT b.id, b.user_id, b.lot_id, b.site_id, b.start_at, b.end_at, b.state, b.currency, b.paid_minor,
               b.modifications, b.checked_in_at, b.created_at, b.series_id, l.code AS lot_code, l.name AS lot_name,
               l.entrance_lat, l.entrance_lon, s.time_zone AS time_zone
        FROM bookings b JOIN lots l ON l.id = b.lot_id JOIN sites s ON s.id = b.site_id
        """

    init(_ r: any SQLRow) throws {
        let state = try r.decode(column: "state", as: String.self)
        booking = Booking(
            id: try r.decode(column: "id", as: String.self),
            userId: try r.decode(column: "user_id", as: String.self),
            lotId: try r.decode(column: "lot_id", as: String.self),
            range: BookingRange(start: Date(millis: try r.decode(column: "start_at", as: Int64.self)),
                                end: Date(millis: try r.decode(column: "end_at", as: Int64.self))),
            paid: Money(try r.decode(column: "paid_minor", as: Int.self), try r.decode(column: "currency", as: String.self)),
            state: BookingState(rawValue: state) ?? .cancelled,
            modifications: try r.decode(column: "modifications", as: Int.self),
            checkedInAt: try r.decode(column: "checked_in_at", as: Int64?.self).map(Date.init(millis:)))
        siteId = try r.decode(column: "site_id", as: String.self)
        createdAt = Date(millis: try r.decode(column: "created_at", as: Int64.self))
        lotCode = try r.decode(column: "lot_code", as: String.self)
        lotName = try r.decode(column: "lot_name", as: String.self)
        lotEntrance = Coordinate(latitude: try r.decode(column: "entrance_lat", as: Double.self),
                                 longitude: try r.decode(column: "entrance_lon", as: Double.self))
        timeZone = TimeZone(identifier: try r.decode(column: "time_zone", as: String.self)) ?? .gmt
        seriesId = try r.decode(column: "series_id", as: String?.self)
    }
}

/// A lot's booking offer as stored, with the site's time zone its tariff runs on.
struct LotOfferRow: Sendable {
    var lotId: String
    var siteId: String
    var offer: BookingOffer?
    var timeZone: TimeZone

    /// Booked spaces; 0 when the lot takes no bookings.
    var capacity: Int { offer?.capacity ?? 0 }
}

/// The stored JSON of a `LotPricing` (`lots.booking_tariff`): the API's `BookingTariff`.
struct StoredTariff: Codable, Sendable {
    var currency: String
    var dailyFeeMinor: Int
    var includedMinutesPerDay: Int
    var rateMinor: Int
    var rateUnitMinutes: Int
    var dailyCapMinor: Int?
    var hours: [StoredOpeningHours]
    var maximumDurationMinutes: Int

    init(_ p: LotPricing) {
        currency = p.currency
        dailyFeeMinor = p.dailyFeeMinor
        includedMinutesPerDay = p.includedMinutesPerDay
        rateMinor = p.rateMinor
        rateUnitMinutes = p.rateUnitMinutes
        dailyCapMinor = p.dailyCapMinor
        hours = p.hours.map(StoredOpeningHours.init)
        maximumDurationMinutes = Int(p.maximumDuration / 60)
    }

    var pricing: LotPricing {
        LotPricing(currency: currency, dailyFeeMinor: dailyFeeMinor, includedMinutesPerDay: includedMinutesPerDay,
                   rateMinor: rateMinor, rateUnitMinutes: rateUnitMinutes, dailyCapMinor: dailyCapMinor,
                   hours: hours.map(\.openingHours),
                   maximumDuration: TimeInterval(maximumDurationMinutes * 60))
    }

    func json() throws -> String { try JSONColumn.encode(self) }
}

/// The SQL of bookings, shared by the booking service, its job and account erasure.
enum BookingStore {
    static func booking(id: String, sql: any SQLDatabase) async throws -> BookingRow? {
        try await sql.raw("\(unsafeRaw: BookingRow.select) WHERE b.id = \(bind: id)").first().map(BookingRow.init)
    }

    static func offer(lotId: String, sql: any SQLDatabase) async throws -> LotOfferRow? {
        guard let r = try await sql.raw("""
            SELECT l.id, l.site_id, l.bookable_capacity, l.booking_tariff, s.time_zone
            FROM lots l JOIN sites s ON s.id = l.site_id WHERE l.id = \(bind: lotId)
            """).first(),
            let zone = TimeZone(identifier: try r.decode(column: "time_zone", as: String.self))
        else { return nil }
        let capacity = try r.decode(column: "bookable_capacity", as: Int.self)
        let offer = try r.decode(column: "booking_tariff", as: String?.self)
            .map { BookingOffer(capacity: capacity, pricing: try JSONColumn.decode(StoredTariff.self, $0).pricing) }
        return LotOfferRow(lotId: try r.decode(column: "id", as: String.self), siteId: try r.decode(column: "site_id", as: String.self),
                           offer: offer, timeZone: zone)
    }

    /// The lot's bookings that may hold a space during `range`; `BookingCapacity` decides which do.
    static func competing(lotId: String, range: BookingRange, sql: any SQLDatabase) async throws -> [Booking] {
        try await sql.raw("""
            \(unsafeRaw: BookingRow.select)
            WHERE b.lot_id = \(bind: lotId) AND b.state IN ('booked', 'checkedIn')
              AND b.start_at < \(bind: range.end.millis) AND b.end_at > \(bind: range.start.millis)
            """).all().map { try BookingRow($0).booking }
    }

    /// Those of `bookings` that share time with `range`, as `competing` would read them.
    static func overlapping(_ bookings: [Booking], _ range: BookingRange) -> [Booking] {
        bookings.filter { $0.range.start < range.end && $0.range.end > range.start }
    }

    static func insert(_ b: Booking, siteId: String, seriesId: String? = nil, at now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO bookings (id, user_id, lot_id, site_id, start_at, end_at, state, currency, paid_minor, modifications,
                                  checked_in_at, created_at, updated_at, series_id)
            VALUES (\(bind: b.id), \(bind: b.userId), \(bind: b.lotId), \(bind: siteId), \(bind: b.range.start.millis),
                    \(bind: b.range.end.millis), \(bind: b.state.rawValue), \(bind: b.paid.currency), \(bind: b.paid.minorUnits),
                    \(bind: b.modifications), \(bind: b.checkedInAt?.millis), \(bind: now.millis), \(bind: now.millis), \(bind: seriesId))
            """).run()
    }

    /// Stores `new` if the row is still in `expected`'s state; false when another writer
    /// (the sweep, a retry) changed it first.
    static func update(_ new: Booking, from expected: BookingState, at now: Date, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("""
            UPDATE bookings SET start_at = \(bind: new.range.start.millis), end_at = \(bind: new.range.end.millis),
                state = \(bind: new.state.rawValue), paid_minor = \(bind: new.paid.minorUnits), modifications = \(bind: new.modifications),
                checked_in_at = \(bind: new.checkedInAt?.millis), updated_at = \(bind: now.millis)
            WHERE id = \(bind: new.id) AND state = \(bind: expected.rawValue) RETURNING id
            """).first() != nil
    }
}
