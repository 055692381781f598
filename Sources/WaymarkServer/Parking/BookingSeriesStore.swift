import Foundation
import SQLKit
import WaymarkCore

/// A `booking_series` row with its lot, its site's clock and its bookings.
struct BookingSeriesRow: Sendable {
    var id: String
    var userId: String
    var lotId: String
    var lotName: String
    var plan: BookingSeriesPlan
    var timeZone: TimeZone
    var bookings: [BookingRow]
    /// Dates left out when the series was booked, with why.
    var skipped: [Skip] = []

    struct Skip: Sendable {
        var range: BookingRange
        var reason: String
    }

    /// As the `skipped` column keeps them: times in milliseconds.
    struct StoredSkip: Codable {
        var start: Int64
        var end: Int64
        var reason: String
    }
}

enum BookingSeriesStore {
    static func insert(id: String, userId: String, lotId: String, plan: BookingSeriesPlan, at now: Date,
                       sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO booking_series (id, user_id, lot_id, first_start_at, first_end_at, weekdays, until_day, created_at)
            VALUES (\(bind: id), \(bind: userId), \(bind: lotId), \(bind: plan.first.start.millis), \(bind: plan.first.end.millis),
                    \(bind: plan.weekdays.map(String.init).joined(separator: ",")), \(bind: plan.until.description), \(bind: now.millis))
            """).run()
    }

    static func saveSkipped(_ skipped: [BookingSeriesRow.Skip], seriesId: String, sql: any SQLDatabase) async throws {
        let stored = skipped.map { BookingSeriesRow.StoredSkip(start: $0.range.start.millis, end: $0.range.end.millis, reason: $0.reason) }
        try await sql.raw("UPDATE booking_series SET skipped = \(bind: try JSONColumn.encode(stored)) WHERE id = \(bind: seriesId)").run()
    }

    /// The series with its bookings by start, or nil when it is not `userId`'s (or does not exist).
    static func series(id: String, userId: String, sql: any SQLDatabase) async throws -> BookingSeriesRow? {
        guard let r = try await sql.raw("""
            SELECT bs.id, bs.user_id, bs.lot_id, bs.first_start_at, bs.first_end_at, bs.weekdays, bs.until_day, bs.skipped,
                   l.name AS lot_name, s.time_zone
            FROM booking_series bs JOIN lots l ON l.id = bs.lot_id JOIN sites s ON s.id = l.site_id
            WHERE bs.id = \(bind: id) AND bs.user_id = \(bind: userId)
            """).first(),
            let until = LocalDay(try r.decode(column: "until_day", as: String.self))
        else { return nil }
        let plan = BookingSeriesPlan(
            first: BookingRange(start: Date(millis: try r.decode(column: "first_start_at", as: Int64.self)),
                                end: Date(millis: try r.decode(column: "first_end_at", as: Int64.self))),
            weekdays: try r.decode(column: "weekdays", as: String.self).split(separator: ",").compactMap { Int($0) },
            until: until)
        let bookings = try await sql.raw("""
            \(unsafeRaw: BookingRow.select) WHERE b.series_id = \(bind: id) ORDER BY b.start_at, b.id
            """).all().map(BookingRow.init)
        return BookingSeriesRow(
            id: id, userId: userId, lotId: try r.decode(column: "lot_id", as: String.self),
            lotName: try r.decode(column: "lot_name", as: String.self), plan: plan,
            timeZone: TimeZone(identifier: try r.decode(column: "time_zone", as: String.self)) ?? .gmt, bookings: bookings,
            skipped: try JSONColumn.decode([BookingSeriesRow.StoredSkip].self, try r.decode(column: "skipped", as: String.self)).map {
                .init(range: BookingRange(start: Date(millis: $0.start), end: Date(millis: $0.end)), reason: $0.reason)
            })
    }
}
