import Foundation

/// A calendar day on a site's wall clock, "2026-11-18". Counted as days since 1970-01-01 so
/// that ranges and arithmetic need no Calendar: Calendar resolves skipped and repeated wall
/// times its own way, and a day's key must follow only from the instant and the zone's offset
/// at that instant (a DST day is simply 23 or 25 hours long).
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var number: Int

    public init(number: Int) { self.number = number }

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        number = Self.daysFromCivil(year: year, month: month, day: day)
    }

    /// Exactly `YYYY-MM-DD`; anything else (or a day that does not exist) is nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day the site's wall clock shows at `instant`.
    public init(containing instant: Date, timeZone: TimeZone) {
        number = Int((Self.wallClock(instant, timeZone) / 86_400).rounded(.down))
    }

    /// Minutes since local midnight at `instant`, 0..<1440.
    public static func minuteOfDay(_ instant: Date, timeZone: TimeZone) -> Int {
        let wall = wallClock(instant, timeZone)
        let seconds = wall - (wall / 86_400).rounded(.down) * 86_400
        return Int(seconds / 60)
    }

    public func adding(days: Int) -> LocalDay { LocalDay(number: number + days) }

    public var components: (year: Int, month: Int, day: Int) { Self.civil(fromDays: number) }

    public var description: String {
        let c = components
        return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool { a.number < b.number }

    static func wallClock(_ instant: Date, _ zone: TimeZone) -> TimeInterval {
        instant.timeIntervalSince1970 + TimeInterval(zone.secondsFromGMT(for: instant))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Proleptic Gregorian conversions (H. Hinnant's days_from_civil / civil_from_days).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
