import Foundation

/// A DATE (`20261127`) or DATE-TIME (`20261127T093000`, `20261127T093000Z`) value (RFC 5545,
/// 3.3.4–3.3.5). The zone of a date-time without `Z` comes from its TZID parameter, or it is
/// floating (read on whatever clock the reader keeps); that is the property's business.
public struct ICalendarDateTime: Hashable, Sendable, CustomStringConvertible {
    public var day: LocalDay
    /// Seconds after midnight (0..<86400), or nil for a DATE.
    public var second: Int?
    /// Written with `Z`: an instant in UTC.
    public var isUTC: Bool

    public init(day: LocalDay, second: Int? = nil, isUTC: Bool = false) {
        self.day = day
        self.second = second
        self.isUTC = isUTC
    }

    /// Reads `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`; surrounding spaces are forgiven, nothing else.
    /// A leap second (60) is read as 59.
    public init?(_ text: String) {
        let t = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard t.count == 8 || ((t.count == 15 || t.count == 16) && t[8] == UInt8(ascii: "T")) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard (0x30...0x39).contains(t[i]) else { return nil }
                n = n * 10 + Int(t[i] - 0x30)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(4..<6), let d = number(6..<8), let day = LocalDay(year: y, month: m, day: d) else { return nil }
        self.day = day
        if t.count == 8 {
            second = nil
            isUTC = false
            return
        }
        guard let h = number(9..<11), let mi = number(11..<13), let s = number(13..<15), h < 24, mi < 60, s <= 60 else { return nil }
        if t.count == 16 {
            guard t[15] == UInt8(ascii: "Z") || t[15] == UInt8(ascii: "z") else { return nil }
            isUTC = true
        } else {
            isUTC = false
        }
        second = h * 3600 + mi * 60 + min(s, 59)
    }

    public var isDate: Bool { second == nil }

    /// The wall time it names, seconds dropped (Waymark keeps minutes).
    public var wallTime: WallTime { WallTime(day: day, minute: (second ?? 0) / 60) }

    /// The instant, for a UTC value or one read in `zone` (floating or TZID).
    public func instant(in zone: TimeZone) -> Date {
        if isUTC { return Date(timeIntervalSince1970: TimeInterval(day.number * 86_400 + (second ?? 0))) }
        return wallTime.instant(in: zone).addingTimeInterval(TimeInterval((second ?? 0) % 60))
    }

    /// As written in a file: `20261127`, `20261127T093000` or `20261127T083000Z`.
    public var description: String {
        let c = day.components
        let date = String(format: "%04d%02d%02d", c.year, c.month, c.day)
        guard let second else { return date }
        return date + String(format: "T%02d%02d%02d", second / 3600, second / 60 % 60, second % 60) + (isUTC ? "Z" : "")
    }

    /// The UTC form of an instant, `20261127T083000Z`.
    public static func utc(_ instant: Date) -> ICalendarDateTime {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : -((86_399 - seconds) / 86_400)
        return ICalendarDateTime(day: LocalDay(number: days), second: seconds - days * 86_400, isUTC: true)
    }

    /// A wall time as a local DATE-TIME (seconds zero).
    public static func local(_ wall: WallTime) -> ICalendarDateTime {
        ICalendarDateTime(day: wall.day, second: wall.minute * 60, isUTC: false)
    }
}

/// A DURATION (RFC 5545, 3.3.6): `PT1H30M`, `P1D`, `-PT15M`, `P2W`. Days and weeks are
/// nominal (a day on the wall clock, 23 or 25 hours across a DST change); hours, minutes and
/// seconds are exact, which is why they are kept apart.
public struct ICalendarDuration: Hashable, Sendable, CustomStringConvertible {
    /// Whole days, weeks counted as seven; negative for a negative duration.
    public var days: Int
    /// Exact seconds; negative for a negative duration.
    public var seconds: Int

    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }

    /// Reads the RFC form and its common relatives (`P0DT0H10M0S`, `P1W2D`); nil otherwise.
    public init?(_ text: String) {
        var t = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        var sign = 1
        if t.first == "+" || t.first == "-" {
            if t.first == "-" { sign = -1 }
            t = t.dropFirst()
        }
        guard t.first == "P", t.count > 1 else { return nil }
        t = t.dropFirst()
        var days = 0, seconds = 0, inTime = false, any = false, timeParts = 0, digits = ""
        for c in t {
            if c.isASCII, c.isNumber { digits.append(c); continue }
            if c == "T" {
                guard !inTime, digits.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard !digits.isEmpty, digits.count <= 9, let n = Int(digits) else { return nil }
            digits = ""
            switch (c, inTime) {
            case ("W", false): days += 7 * n
            case ("D", false): days += n
            case ("H", true): seconds += 3600 * n
            case ("M", true): seconds += 60 * n
            case ("S", true): seconds += n
            default: return nil
            }
            any = true
            if inTime { timeParts += 1 }
        }
        // Some ten thousand years at most, so no sum of them can overflow.
        guard any, digits.isEmpty, !inTime || timeParts > 0, days <= 3_660_000, seconds <= 316_000_000_000 else { return nil }
        self.days = sign * days
        self.seconds = sign * seconds
    }

    /// The length if every day had 24 hours.
    public var totalSeconds: Int { days * 86_400 + seconds }

    /// Whole minutes as the shortest RFC form: `PT15M`, `PT1H30M`, `P1D`, `P1DT2H`.
    public static func text(minutes: Int) -> String {
        var m = Swift.abs(minutes)
        var out = minutes < 0 ? "-P" : "P"
        if m >= 1440 {
            out += "\(m / 1440)D"
            m %= 1440
        }
        if m > 0 || out.hasSuffix("P") {
            out += "T"
            if m >= 60 { out += "\(m / 60)H" }
            if m % 60 > 0 || m == 0 { out += "\(m % 60)M" }
        }
        return out
    }

    public var description: String {
        if seconds % 60 == 0 && days == 0 { return Self.text(minutes: seconds / 60) }
        let sign = totalSeconds < 0 ? "-" : ""
        let d = Swift.abs(days), s = Swift.abs(seconds)
        var out = sign + "P" + (d > 0 ? "\(d)D" : "")
        if s > 0 || d == 0 { out += "T\(s / 3600)H\(s / 60 % 60)M\(s % 60)S" }
        return out
    }
}

/// A PERIOD (RFC 5545, 3.3.9): a start and either an end or a duration, as RDATE may give.
public struct ICalendarPeriod: Hashable, Sendable {
    public enum Length: Hashable, Sendable {
        case end(ICalendarDateTime)
        case duration(ICalendarDuration)
    }

    public var start: ICalendarDateTime
    public var length: Length

    /// `20261127T090000/20261127T100000` or `20261127T090000Z/PT1H`; both sides must be
    /// date-times, as the RFC says.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = ICalendarDateTime(String(parts[0])), !start.isDate else { return nil }
        self.start = start
        if let end = ICalendarDateTime(String(parts[1])), !end.isDate {
            length = .end(end)
        } else if let duration = ICalendarDuration(String(parts[1])), duration.totalSeconds > 0 {
            length = .duration(duration)
        } else {
            return nil
        }
    }
}

public enum ICalendarValues {
    /// GEO (RFC 5545, 3.8.1.6): `latitude;longitude` (a comma is forgiven), within range.
    public static func coordinate(_ text: String) -> Coordinate? {
        let parts = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        let c = Coordinate(latitude: lat, longitude: lon)
        return c.isValid ? c : nil
    }

    /// GEO as written: six decimals (about 10 cm) is more than any event place needs.
    public static func geoText(_ c: Coordinate) -> String {
        func f(_ v: Double) -> String {
            var s = String(format: "%.6f", v)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s == "-0" ? "0" : s
        }
        return "\(f(c.latitude));\(f(c.longitude))"
    }

    /// A UTC-OFFSET (RFC 5545, 3.3.14), `+0100` or `-075258`, in seconds.
    public static func utcOffset(_ text: String) -> Int? {
        let t = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard t.count == 5 || t.count == 7, t[0] == UInt8(ascii: "+") || t[0] == UInt8(ascii: "-"),
              t.dropFirst().allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        let d = t.dropFirst().map { Int($0 - 0x30) }
        let h = d[0] * 10 + d[1], m = d[2] * 10 + d[3], s = d.count == 6 ? d[4] * 10 + d[5] : 0
        guard h < 24, m < 60, s < 60 else { return nil }
        return (t[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60 + s)
    }

    /// `+0100`, `-0530`: the form TZOFFSETFROM and TZOFFSETTO take (seconds kept if any).
    public static func utcOffsetText(_ seconds: Int) -> String {
        let a = Swift.abs(seconds)
        let base = String(format: "%@%02d%02d", seconds < 0 ? "-" : "+", a / 3600, a / 60 % 60)
        return a % 60 == 0 ? base : base + String(format: "%02d", a % 60)
    }
}
