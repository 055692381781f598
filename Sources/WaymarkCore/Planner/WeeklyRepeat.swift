import Foundation

/// "Repeat weekly" of an event (PLN-2; G4.5): the subset of RFC 5545 recurrence rules people
/// set in a calendar app — FREQ=WEEKLY with BYDAY, INTERVAL, and an end by UNTIL or COUNT.
/// Cancelled occurrences are EXDATEs; moved ones are overrides (RECURRENCE-ID), kept by the event.
public struct WeeklyRepeat: Hashable, Sendable {
    /// 1 = Sunday … 7 = Saturday; sorted, no repeats.
    public var weekdays: [Weekday]
    /// Every `interval` weeks, counted from the week of the first occurrence.
    public var interval: Int
    /// The last day an occurrence may begin on (inclusive, on the event's wall clock).
    public var until: LocalDay?
    /// How many occurrences in all, cancelled ones included (as RFC 5545 counts them).
    public var count: Int?

    public init(weekdays: [Weekday], interval: Int = 1, until: LocalDay? = nil, count: Int? = nil) {
        self.weekdays = Array(Set(weekdays)).sorted()
        self.interval = interval
        self.until = until
        self.count = count
    }

    public static let maximumCount = 1_000
    public static let maximumInterval = 52

    /// Why this rule cannot be saved for an event whose first occurrence is on `first`, or nil.
    public func problem(first: LocalDay) -> String? {
        if weekdays.isEmpty { return "Choose at least one day of the week to repeat on." }
        if weekdays.contains(where: { !(1...7).contains($0) }) { return "Days of the week are 1 (Sunday) to 7 (Saturday)." }
        if !weekdays.contains(first.weekday) {
            return "The event's first day, a \(WeeklySchedule.weekdayName(first.weekday)), must be one of the days it repeats on."
        }
        if !(1...Self.maximumInterval).contains(interval) { return "Repeat every 1 to \(Self.maximumInterval) weeks." }
        if until != nil && count != nil { return "End a repeat on a date or after a number of times, not both." }
        if let until, until < first { return "The repeat ends before the event's first day." }
        if let count, !(1...Self.maximumCount).contains(count) { return "Repeat 1 to \(Self.maximumCount) times." }
        return nil
    }

    /// The days occurrences begin on, from `first` (which is one), within `from`…`through`.
    public func days(first: LocalDay, from: LocalDay, through: LocalDay) -> [LocalDay] {
        var out: [LocalDay] = []
        let last = min(through, until ?? through)
        guard last >= from, last >= first else { return [] }
        let firstWeek = first.weekStart
        // Without a count the walk can start at the range; a count must be counted from the start.
        var week = firstWeek
        if count == nil, from > first {
            let weeks = (from.weekStart.number - firstWeek.number) / 7
            week = firstWeek.adding(days: (weeks / interval) * interval * 7)
        }
        let offsets = weekdays.map { ($0 + 5) % 7 }.sorted()
        var produced = 0
        while week <= last {
            for offset in offsets {
                let day = week.adding(days: offset)
                if day < first { continue }
                if day > last { return out }
                produced += 1
                if let count, produced > count { return out }
                if day >= from { out.append(day) }
            }
            week = week.adding(days: 7 * interval)
        }
        return out
    }

    /// Whether an occurrence begins on `day`.
    public func occurs(on day: LocalDay, first: LocalDay) -> Bool {
        days(first: first, from: day, through: day).first == day
    }
}

/// One occurrence of an event, as instants.
public struct Occurrence: Hashable, Sendable {
    /// The day it was due by the rule: its RECURRENCE-ID, how a move or cancel refers to it.
    public var originalDay: LocalDay
    public var start: Date
    public var end: Date
    public var moved: Bool

    public init(originalDay: LocalDay, start: Date, end: Date, moved: Bool) {
        self.originalDay = originalDay
        self.start = start
        self.end = end
        self.moved = moved
    }
}

/// The times of an event, fixed (start–end) or flexible (the window), its zone, and its repeat.
public struct EventSchedule: Hashable, Sendable {
    public var start: WallTime
    public var end: WallTime
    public var zone: TimeZone
    public var repeats: WeeklyRepeat?
    /// Cancelled occurrences by their original day (EXDATE).
    public var cancelled: Set<LocalDay>
    /// Moved occurrences: original day → new wall times (RECURRENCE-ID overrides).
    public var moved: [LocalDay: ClosedRange<WallTime>]

    public init(start: WallTime, end: WallTime, zone: TimeZone, repeats: WeeklyRepeat? = nil,
                cancelled: Set<LocalDay> = [], moved: [LocalDay: ClosedRange<WallTime>] = [:]) {
        self.start = start
        self.end = end
        self.zone = zone
        self.repeats = repeats
        self.cancelled = cancelled
        self.moved = moved
    }

    /// Whether an occurrence was due on `day` (before cancels and moves).
    public func isDue(on day: LocalDay) -> Bool {
        guard let repeats else { return day == start.day }
        return repeats.occurs(on: day, first: start.day)
    }

    /// The occurrences that overlap `from..<to`, by start time: each due day's wall times in the
    /// event's zone (so 09:00 stays 09:00 across a DST change), cancelled ones left out, moved
    /// ones at their new times.
    public func occurrences(from: Date, to: Date) -> [Occurrence] {
        let span = start.minutes(to: end)
        let spanDays = span / 1440 + 1
        // Wall days that could hold an overlapping occurrence, with a day's margin for zones.
        let firstDay = LocalDay(containing: from, timeZone: zone).adding(days: -spanDays - 1)
        let lastDay = LocalDay(containing: to, timeZone: zone).adding(days: 1)
        let due = repeats?.days(first: start.day, from: firstDay, through: lastDay)
            ?? ((firstDay...lastDay).contains(start.day) ? [start.day] : [])
        var out: [Occurrence] = []
        for day in due where !cancelled.contains(day) && moved[day] == nil {
            let s = WallTime(day: day, minute: start.minute)
            let e = s.adding(minutes: span)
            let occurrence = Occurrence(originalDay: day, start: s.instant(in: zone), end: e.instant(in: zone), moved: false)
            if occurrence.start < to && occurrence.end > from { out.append(occurrence) }
        }
        for (day, times) in moved where !cancelled.contains(day) && isDue(on: day) {
            let occurrence = Occurrence(originalDay: day, start: times.lowerBound.instant(in: zone), end: times.upperBound.instant(in: zone), moved: true)
            if occurrence.start < to && occurrence.end > from { out.append(occurrence) }
        }
        return out.sorted { ($0.start, $0.originalDay) < ($1.start, $1.originalDay) }
    }
}

extension LocalDay: Strideable {
    public func distance(to other: LocalDay) -> Int { other.number - number }
    public func advanced(by n: Int) -> LocalDay { LocalDay(number: number + n) }
}
