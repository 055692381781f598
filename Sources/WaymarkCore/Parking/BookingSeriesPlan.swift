import Foundation

/// A weekly booking, as UniPark puts it: "every Tuesday 11:00–21:00 until June". Each
/// occurrence becomes a booking of its own, priced, paid, checked into and cancelled on its own
/// (PRK-12); the plan only says which ranges those are. Times repeat on the site's wall clock,
/// so 11:00 stays 11:00 across a change to or from daylight saving time.
public struct BookingSeriesPlan: Hashable, Sendable {
    /// The first occurrence; its weekday must be one of `weekdays`.
    public var first: BookingRange
    /// 1 = Sunday … 7 = Saturday.
    public var weekdays: [Weekday]
    /// The last day (site-local, inclusive) an occurrence may start on.
    public var until: LocalDay

    public init(first: BookingRange, weekdays: [Weekday], until: LocalDay) {
        self.first = first
        self.weekdays = Array(Set(weekdays)).sorted()
        self.until = until
    }

    /// A term's worth of weekly bookings, three days a week; more is a permit, not a booking.
    public static let maximumOccurrences = 60
    /// How far ahead the last occurrence may start: a semester with its exams. Single bookings
    /// stay within `BookingOffer.maximumAdvance`; so does a series' first occurrence.
    public static let maximumReach: TimeInterval = 200 * 86_400

    public enum Problem: Error, Hashable, Sendable {
        case noWeekdays
        case weekdayOutOfRange
        case firstNotOnWeekday(Weekday)
        case endsBeforeFirst
        case tooFarAhead(lastDay: LocalDay)
        case tooMany(Int)

        public func words(locale: Locale) -> String {
            switch self {
            case .noWeekdays: "Choose at least one day of the week to repeat on."
            case .weekdayOutOfRange: "Days of the week are 1 (Sunday) to 7 (Saturday)."
            case .firstNotOnWeekday(let day):
                "The first booking is on a \(WeeklySchedule.weekdayName(day)); choose that day to repeat on, or start on one of the days chosen."
            case .endsBeforeFirst: "The repeat ends before the first booking."
            case .tooFarAhead(let lastDay):
                "A weekly booking can reach at most \(Int(BookingSeriesPlan.maximumReach / 86_400)) days ahead: end it by \(lastDay.words(locale: locale))."
            case .tooMany(let count):
                "That is \(count) bookings; a weekly booking has at most \(BookingSeriesPlan.maximumOccurrences). End it sooner or choose fewer days."
            }
        }
    }

    /// The occurrences' ranges by start, the first included, or why the plan cannot be booked.
    /// Whether each range fits the lot's hours, tariff and capacity is the booking's own check.
    public func occurrences(zone: TimeZone, now: Date) throws(Problem) -> [BookingRange] {
        guard !weekdays.isEmpty else { throw .noWeekdays }
        guard weekdays.allSatisfy({ (1...7).contains($0) }) else { throw .weekdayOutOfRange }
        let start = WallTime(first.start, in: zone)
        guard weekdays.contains(start.day.weekday) else { throw .firstNotOnWeekday(start.day.weekday) }
        guard until >= start.day else { throw .endsBeforeFirst }
        let lastAllowed = LocalDay(containing: now.addingTimeInterval(Self.maximumReach), timeZone: zone)
        guard until <= lastAllowed else { throw .tooFarAhead(lastDay: lastAllowed) }
        let schedule = EventSchedule(start: start, end: WallTime(first.end, in: zone), zone: zone,
                                     repeats: WeeklyRepeat(weekdays: weekdays, until: until))
        let ranges = schedule.occurrences(from: first.start, to: until.adding(days: 2).noon(in: zone))
            .filter { $0.start >= first.start }
            .map { BookingRange(start: $0.start, end: $0.end) }
        guard ranges.count <= Self.maximumOccurrences else { throw .tooMany(ranges.count) }
        return ranges
    }
}

extension BookingSeriesPlan {
    /// "Every Tuesday and Thursday, 11:00 AM – 9:00 PM, until Tue, Jun 1, 2027", on the site's
    /// clock, in `locale`'s day names and clock.
    public func words(zone: TimeZone, locale: Locale) -> String {
        let names = DateFormatter()
        names.locale = locale
        let days = weekdays.compactMap { names.standaloneWeekdaySymbols.indices.contains($0 - 1) ? names.standaloneWeekdaySymbols[$0 - 1] : nil }
        let list = days.count <= 1 ? days.joined() : days.dropLast().joined(separator: ", ") + " and " + days.last!
        let clock = DateFormatter()
        clock.locale = locale
        clock.timeZone = zone
        clock.setLocalizedDateFormatFromTemplate("jmm")
        return "Every \(list), \(clock.string(from: first.start)) – \(clock.string(from: first.end)), until \(until.words(locale: locale))"
    }
}

extension LocalDay {
    /// Noon of the day in `zone`: an instant safely inside it whatever the zone's changes.
    func noon(in zone: TimeZone) -> Date { WallTime(day: self, minute: 720).instant(in: zone) }

    /// "Tue, Jun 2, 2026" in `locale`'s order.
    public func words(locale: Locale) -> String {
        let f = DateFormatter()
        f.locale = locale
        f.timeZone = .gmt
        f.setLocalizedDateFormatFromTemplate("EEEMMMdyyyy")
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(number) * 86_400))
    }
}
