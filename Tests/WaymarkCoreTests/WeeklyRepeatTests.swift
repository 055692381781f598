import Foundation
import Testing
import WaymarkCore

/// PLN-2: weekly repeats (RFC 5545 FREQ=WEEKLY with BYDAY, INTERVAL, UNTIL, COUNT, EXDATE and
/// moved occurrences), expanded on the event's wall clock so they are right across DST changes.
@Suite("Weekly repeats (PLN-2)")
struct WeeklyRepeatTests {
    static let rome = TimeZone(identifier: "Europe/Rome")!
    static let la = TimeZone(identifier: "America/Los_Angeles")!
    static func day(_ s: String) -> LocalDay { LocalDay(s)! }
    static func wall(_ s: String) -> WallTime { WallTime(s)! }
    static func utc(_ s: String) -> Date { ISO8601DateFormatter().date(from: s)! }

    @Test("PLN-2: Monday and Wednesday every week until a date, the last day included")
    func pln2Until() {
        let rule = WeeklyRepeat(weekdays: [2, 4], until: Self.day("2026-12-09"))
        let days = rule.days(first: Self.day("2026-11-30"), from: Self.day("2026-11-01"), through: Self.day("2027-01-31"))
        #expect(days.map(\.description) == ["2026-11-30", "2026-12-02", "2026-12-07", "2026-12-09"])
        #expect(rule.problem(first: Self.day("2026-11-30")) == nil)
    }

    @Test("PLN-2: COUNT counts from the first occurrence even when the range starts later; INTERVAL skips weeks")
    func pln2CountInterval() {
        let rule = WeeklyRepeat(weekdays: [3, 5], interval: 2, count: 5)
        let first = Self.day("2026-11-24")  // a Tuesday
        let all = rule.days(first: first, from: first, through: Self.day("2027-12-31"))
        #expect(all.map(\.description) == ["2026-11-24", "2026-11-26", "2026-12-08", "2026-12-10", "2026-12-22"])
        let later = rule.days(first: first, from: Self.day("2026-12-09"), through: Self.day("2027-12-31"))
        #expect(later.map(\.description) == ["2026-12-10", "2026-12-22"])
        let forever = WeeklyRepeat(weekdays: [3], interval: 3)
        #expect(forever.days(first: first, from: Self.day("2027-06-01"), through: Self.day("2027-06-30")).map(\.description) == ["2027-06-01", "2027-06-22"])
    }

    @Test("PLN-2: a rule that cannot be saved says why")
    func pln2Problems() {
        let monday = Self.day("2026-11-30")
        #expect(WeeklyRepeat(weekdays: []).problem(first: monday) != nil)
        #expect(WeeklyRepeat(weekdays: [3]).problem(first: monday)?.contains("Monday") == true)
        #expect(WeeklyRepeat(weekdays: [2], until: Self.day("2026-11-01")).problem(first: monday) != nil)
        #expect(WeeklyRepeat(weekdays: [2], count: 0).problem(first: monday) != nil)
        #expect(WeeklyRepeat(weekdays: [2], until: Self.day("2027-01-01"), count: 3).problem(first: monday) != nil)
        #expect(WeeklyRepeat(weekdays: [2], interval: 53).problem(first: monday) != nil)
    }

    @Test("PLN-2: 09:00 every Monday in Milan stays 09:00 across the end of summer time (07:00 UTC in summer, 08:00 UTC after)")
    func pln2DaylightSaving() {
        // Summer time in Italy ends on Sunday 2026-10-25.
        let schedule = EventSchedule(start: Self.wall("2026-10-19T09:00"), end: Self.wall("2026-10-19T10:30"), zone: Self.rome,
                                     repeats: WeeklyRepeat(weekdays: [2]))
        let got = schedule.occurrences(from: Self.utc("2026-10-18T00:00:00Z"), to: Self.utc("2026-11-03T00:00:00Z"))
        #expect(got.map(\.start) == [Self.utc("2026-10-19T07:00:00Z"), Self.utc("2026-10-26T08:00:00Z"), Self.utc("2026-11-02T08:00:00Z")])
        #expect(got.allSatisfy { $0.end.timeIntervalSince($0.start) == 5_400 })
        for o in got { #expect(WallTime(o.start, in: Self.rome).minute == 540) }
    }

    @Test("PLN-2: a time skipped when clocks go forward is read with the offset before the gap; a repeated one is its first passing")
    func pln2Gaps() {
        // Los Angeles springs forward at 02:00 on 2027-03-14 and falls back at 02:00 on 2026-11-01.
        #expect(Self.wall("2027-03-14T02:30").instant(in: Self.la) == Self.utc("2027-03-14T10:30:00Z"))
        #expect(Self.wall("2026-11-01T01:30").instant(in: Self.la) == Self.utc("2026-11-01T08:30:00Z"))
        #expect(Self.wall("2026-11-25T09:00").instant(in: Self.la) == Self.utc("2026-11-25T17:00:00Z"))
    }

    @Test("PLN-2: a cancelled occurrence is left out; a moved one appears at its new time, even on another day")
    func pln2Overrides() {
        let schedule = EventSchedule(
            start: Self.wall("2026-11-30T14:00"), end: Self.wall("2026-11-30T15:00"), zone: Self.rome,
            repeats: WeeklyRepeat(weekdays: [2, 4]),
            cancelled: [Self.day("2026-12-02")],
            moved: [Self.day("2026-12-07"): Self.wall("2026-12-08T16:00")...Self.wall("2026-12-08T17:15"),
                    Self.day("2026-12-08"): Self.wall("2026-12-08T10:00")...Self.wall("2026-12-08T11:00")])
        let got = schedule.occurrences(from: Self.utc("2026-11-29T00:00:00Z"), to: Self.utc("2026-12-10T00:00:00Z"))
        #expect(got.map(\.originalDay.description) == ["2026-11-30", "2026-12-07", "2026-12-09"], "a move of a day that is not due is ignored")
        #expect(got[1].moved && got[1].start == Self.utc("2026-12-08T15:00:00Z"))
        #expect(schedule.isDue(on: Self.day("2026-12-02")) && !schedule.isDue(on: Self.day("2026-12-03")))
    }

    @Test("PLN-2: an event once, with no repeat, occurs on its own day only")
    func pln2Once() {
        let schedule = EventSchedule(start: Self.wall("2026-11-26T23:30"), end: Self.wall("2026-11-27T00:30"), zone: Self.rome)
        #expect(schedule.occurrences(from: Self.utc("2026-11-27T00:00:00Z"), to: Self.utc("2026-11-28T00:00:00Z")).count == 0,
                "23:30–00:30 in Rome is 22:30–23:30 UTC on the 26th")
        #expect(schedule.occurrences(from: Self.utc("2026-11-26T23:00:00Z"), to: Self.utc("2026-11-28T00:00:00Z")).count == 1)
    }
}
