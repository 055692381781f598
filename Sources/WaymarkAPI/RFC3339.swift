import Foundation

/// Reads RFC 3339 `date-time` exactly as the RFC (and JSON Schema's `format: date-time`) defines
/// it. Foundation's ISO 8601 parser refuses parts of it that gateways may legally send: offsets
/// beyond ±18:00 (the RFC allows up to ±23:59), a lower-case `t` or `z`, and a leap second.
/// Written as plain arithmetic, with no calendar or time zone lookup.
enum RFC3339 {
    static func parse(_ text: String) -> Date? {
        var s = Substring(text).utf8[...]

        func digits(_ n: Int) -> Int? {
            guard s.count >= n else { return nil }
            var value = 0
            for _ in 0..<n {
                let c = s.removeFirst()
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            return value
        }
        func expect(_ options: String) -> Bool {
            guard let c = s.first, options.utf8.contains(c) else { return false }
            s.removeFirst()
            return true
        }

        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
              expect("Tt"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }

        // Nanoseconds as an integer: digits past the ninth are read and ignored.
        var nanos = 0
        if expect(".") {
            var count = 0
            while let c = s.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) {
                s.removeFirst()
                if count < 9 { nanos = nanos * 10 + Int(c - UInt8(ascii: "0")) }
                count += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 9) { nanos *= 10 }
        }

        var offsetSeconds = 0
        if expect("Zz") {
            offsetSeconds = 0
        } else if let sign = s.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            s.removeFirst()
            guard let oh = digits(2), expect(":"), let om = digits(2), oh <= 23, om <= 59 else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard s.isEmpty else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1e9)
    }

    /// Whole milliseconds since 1970, rounded as WaymarkCore's `Millis` rounds (this target
    /// does not depend on the core): to the microsecond first, so a parsed `.923` stays 923.
    static func millis(_ date: Date) -> Int64 {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        return micros >= 0 ? micros / 1000 : (micros - 999) / 1000
    }

    /// `2026-11-22T16:00:00.923Z`: always UTC, always three fraction digits.
    static func format(millis: Int64) -> String {
        let ms = Int((millis % 1000 + 1000) % 1000)
        let totalSeconds = (millis - Int64(ms)) / 1000
        let days = Int(totalSeconds >= 0 ? totalSeconds / 86_400 : (totalSeconds - 86_399) / 86_400)
        let secondOfDay = Int(totalSeconds - Int64(days) * 86_400)
        let (y, m, d) = civilFromDays(days)
        func pad(_ v: Int, _ width: Int) -> String {
            let text = String(v)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(ms, 3))Z"
    }

    /// The inverse of `daysFromCivil`.
    private static func civilFromDays(_ z: Int) -> (year: Int, month: Int, day: Int) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
