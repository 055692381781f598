import Foundation

/// A time on a wall clock: a local day and a minute of it, with no zone. An event keeps its times
/// this way beside its zone, so "every Monday at 09:00" stays at 09:00 across daylight-saving changes.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var day: LocalDay
    /// 0..<1440.
    public var minute: Int

    public init(day: LocalDay, minute: Int) {
        self.day = day.adding(days: minute >= 0 ? minute / 1440 : -((1439 - minute) / 1440))
        self.minute = ((minute % 1440) + 1440) % 1440
    }

    /// The wall clock in `zone` at `instant`.
    public init(_ instant: Date, in zone: TimeZone) {
        self.init(day: LocalDay(containing: instant, timeZone: zone), minute: LocalDay.minuteOfDay(instant, timeZone: zone))
    }

    /// "2026-03-29T09:30", the form the API uses for a wall time.
    public init?(_ text: String) {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = LocalDay(String(parts[0])), let minute = Self.minute(of: String(parts[1])) else { return nil }
        self.init(day: day, minute: minute)
    }

    /// Minutes after midnight for exactly "HH:MM" (00:00…23:59), or nil.
    public static func minute(of text: String) -> Int? {
        let p = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.count == 5, p.count == 2, p.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(p[0]), let m = Int(p[1]), h < 24, m < 60
        else { return nil }
        return h * 60 + m
    }

    public var description: String { String(format: "%@T%02d:%02d", day.description, minute / 60, minute % 60) }

    public func adding(minutes: Int) -> WallTime { WallTime(day: day, minute: minute + minutes) }

    /// Minutes from `self` to `other` on the wall clock (not elapsed time across a DST change).
    public func minutes(to other: WallTime) -> Int { (other.day.number - day.number) * 1440 + other.minute - minute }

    public static func < (a: WallTime, b: WallTime) -> Bool { (a.day, a.minute) < (b.day, b.minute) }

    /// The instant this wall time names in `zone`. A time repeated when clocks go back is its
    /// first passing; a time skipped when they go forward is read with the offset before the
    /// gap, so 02:30 on a spring-forward night is 03:30 (RFC 5545, 3.3.5).
    public func instant(in zone: TimeZone) -> Date {
        let wall = TimeInterval(day.number * 86_400 + minute * 60)
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 50_400))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 50_400))
        let candidates = [before, after].filter { offset in
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - TimeInterval(offset))) == offset
        }
        // The larger offset gives the earlier instant: the first of a repeated hour.
        let offset = candidates.max() ?? before
        return Date(timeIntervalSince1970: wall - TimeInterval(offset))
    }
}

extension LocalDay {
    /// 1 = Sunday … 7 = Saturday, as `Weekday` counts.
    public var weekday: Weekday { ((number + 4) % 7 + 7) % 7 + 1 }

    /// The Monday of this day's week (weeks start on Monday, RFC 5545's default WKST).
    public var weekStart: LocalDay { adding(days: -((weekday + 5) % 7)) }
}
