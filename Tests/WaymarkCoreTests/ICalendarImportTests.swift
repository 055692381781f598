import Foundation
import Testing
import WaymarkCore

/// Helpers the PLN-10 iCalendar tests share.
enum ICal {
    static let rome = TimeZone(identifier: "Europe/Rome")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// A fixed "now", so expansions up to now + 2 years are the same on every run.
    static let now = utc("2026-11-27T10:00:00Z")

    static func day(_ s: String) -> LocalDay { LocalDay(s)! }
    static func wall(_ s: String) -> WallTime { WallTime(s)! }
    static func utc(_ s: String) -> Date { ISO8601DateFormatter().date(from: s)! }

    /// A calendar around `lines` (one VEVENT or more), CRLF line ends as the RFC writes them.
    static func calendar(_ lines: String...) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Waymark tests//EN"] + lines + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    static func read(_ text: String, zone: TimeZone = rome, now: Date = now) throws -> CalendarImport {
        try CalendarImport.read(Data(text.utf8), defaultZone: zone, now: now)
    }

    static func event(_ r: CalendarImport, _ uid: String) -> CalendarEvent? { r.events.first { $0.uid == uid } }

    /// Every occurrence of every event in `from..<to`, by start, as "title@start-end" in UTC.
    static func occurrences(_ events: [CalendarEvent], from: Date, to: Date) -> [String] {
        let f = ISO8601DateFormatter()
        return events.flatMap { e in
            e.schedule.occurrences(from: from, to: to).map { (o: Occurrence) -> (Date, String) in
                (o.start, "\(e.title)@\(f.string(from: o.start))-\(f.string(from: o.end))")
            }
        }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1)
    }

    static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ical/\(path)"))
    }

    /// The differences between two imports of the same events: titles, zones and the other
    /// details by UID, and every occurrence in `from..<to`. Empty when they agree.
    static func differences(_ a: CalendarImport, _ b: CalendarImport, from: Date, to: Date) -> [String] {
        var out: [String] = []
        let left = Dictionary(a.events.map { ($0.uid, $0) }, uniquingKeysWith: { x, _ in x })
        let right = Dictionary(b.events.map { ($0.uid, $0) }, uniquingKeysWith: { x, _ in x })
        if Set(left.keys) != Set(right.keys) {
            out.append("UIDs differ: \(Set(left.keys).symmetricDifference(right.keys).sorted())")
        }
        for (uid, x) in left {
            guard let y = right[uid] else { continue }
            if x.title != y.title { out.append("\(uid): title \(x.title) ≠ \(y.title)") }
            if x.zone.identifier != y.zone.identifier { out.append("\(uid): zone \(x.zone.identifier) ≠ \(y.zone.identifier)") }
            if x.allDay != y.allDay || x.description != y.description || x.locationName != y.locationName
                || x.coordinate != y.coordinate || x.flexibleMinutes != y.flexibleMinutes {
                out.append("\(uid): details differ")
            }
            if x.extra != y.extra { out.append("\(uid): extra \(x.extra) ≠ \(y.extra)") }
            let ox = occurrences([x], from: from, to: to), oy = occurrences([y], from: from, to: to)
            if ox != oy { out.append("\(uid): occurrences \(ox.prefix(5)) ≠ \(oy.prefix(5))") }
        }
        return out
    }
}

/// PLN-10: reading iCalendar files into Waymark's events — times and zones, repeats, cancelled
/// and moved occurrences, and events skipped with a reason rather than the whole file refused.
@Suite("iCalendar import (PLN-10)")
struct ICalendarImportTests {
    @Test("PLN-10: a weekly 09:00 event in Europe/Rome stays at 09:00 across the March clock change")
    func pln10DaylightSaving() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:standup", "SUMMARY:Stand-up",
            "DTSTART;TZID=Europe/Rome:20260316T090000", "DTEND;TZID=Europe/Rome:20260316T093000",
            "RRULE:FREQ=WEEKLY;BYDAY=MO", "END:VEVENT"))
        let e = try #require(ICal.event(r, "standup"))
        #expect(e.zone.identifier == "Europe/Rome" && e.start == ICal.wall("2026-03-16T09:00") && e.end == ICal.wall("2026-03-16T09:30"))
        #expect(e.repeats == WeeklyRepeat(weekdays: [2]))
        let starts = e.schedule.occurrences(from: ICal.utc("2026-03-20T00:00:00Z"), to: ICal.utc("2026-04-01T00:00:00Z")).map(\.start)
        // Clocks go forward on 29 March 2026: 09:00 is 08:00 UTC before and 07:00 UTC after.
        #expect(starts == [ICal.utc("2026-03-23T08:00:00Z"), ICal.utc("2026-03-30T07:00:00Z")])
        #expect(r.skipped.isEmpty && r.notes.isEmpty)
    }

    @Test("PLN-10: floating times are read in the default zone, UTC times in UTC, seconds dropped")
    func pln10FloatingAndUTC() throws {
        let text = ICal.calendar(
            "BEGIN:VEVENT", "UID:floating", "SUMMARY:Floating", "DTSTART:20261201T093045", "DTEND:20261201T103000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:utc", "SUMMARY:UTC", "DTSTART:20261201T093000Z", "DTEND:20261201T103000Z", "END:VEVENT")
        let inRome = try ICal.read(text)
        let inNewYork = try ICal.read(text, zone: ICal.newYork)
        let romeFloating = try #require(ICal.event(inRome, "floating"))
        let nyFloating = try #require(ICal.event(inNewYork, "floating"))
        #expect(romeFloating.start == ICal.wall("2026-12-01T09:30") && nyFloating.start == romeFloating.start)
        #expect(romeFloating.zone.identifier == "Europe/Rome" && nyFloating.zone.identifier == "America/New_York")
        #expect(romeFloating.start.instant(in: romeFloating.zone) == ICal.utc("2026-12-01T08:30:00Z"))
        let utc = try #require(ICal.event(inRome, "utc"))
        #expect(ICalendarTimeZones.isUTC(utc.zone) && utc.start == ICal.wall("2026-12-01T09:30") && utc.end == ICal.wall("2026-12-01T10:30"))
        #expect(ICal.event(inNewYork, "utc") == utc)
        #expect(inRome.notes.contains("Times without a time zone were read in Europe/Rome."))
        #expect(inRome.notes.contains("Seconds were dropped from times; Waymark keeps minutes."))
    }

    @Test("PLN-10: an all-day event is midnight to midnight in the default zone; one of several days is skipped")
    func pln10AllDay() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:holiday", "SUMMARY:Holiday", "DTSTART;VALUE=DATE:20261208", "DTEND;VALUE=DATE:20261209", "END:VEVENT",
            "BEGIN:VEVENT", "UID:noend", "SUMMARY:No end", "DTSTART;VALUE=DATE:20261210", "END:VEVENT",
            "BEGIN:VEVENT", "UID:trip", "SUMMARY:Trip", "DTSTART;VALUE=DATE:20261220", "DTEND;VALUE=DATE:20261223", "END:VEVENT"))
        let holiday = try #require(ICal.event(r, "holiday"))
        #expect(holiday.allDay && holiday.start == ICal.wall("2026-12-08T00:00") && holiday.end == ICal.wall("2026-12-09T00:00"))
        #expect(holiday.zone.identifier == "Europe/Rome")
        #expect(ICal.event(r, "noend")?.end == ICal.wall("2026-12-11T00:00"))
        #expect(r.skipped == [.init(line: 15, uid: "trip", title: "Trip", reason: "Lasts 3 days; Waymark's events last at most 24 hours.")])
    }

    @Test("PLN-10: a timed event longer than 24 hours is skipped with its length; one without an end gets 30 minutes")
    func pln10Lengths() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:long", "SUMMARY:Long", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:PT25H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:sprint", "SUMMARY:Sprint", "DTSTART;TZID=Europe/Rome:20261201T090000", "DTEND;TZID=Europe/Rome:20261205T170000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:instant", "SUMMARY:Deadline", "DTSTART;TZID=Europe/Rome:20261201T120000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:backwards", "SUMMARY:Backwards", "DTSTART:20261201T120000Z", "DTEND:20261201T110000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:day", "SUMMARY:Exactly a day", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:P1D", "END:VEVENT"))
        #expect(r.skipped.map(\.reason) == [
            "Lasts 25 hours; Waymark's events last at most 24 hours.",
            "Lasts 4 days and 8 hours; Waymark's events last at most 24 hours.",
            "It ends before it starts.",
        ])
        let instant = try #require(ICal.event(r, "instant"))
        #expect(instant.end == ICal.wall("2026-12-01T12:30"))
        #expect(r.notes.contains("“Deadline” (line 16) has no end, so it takes no time; it was given 30 minutes."))
        #expect(ICal.event(r, "day")?.end == ICal.wall("2026-12-02T09:00"))
    }

    @Test("PLN-10: EXDATE in UTC, in another zone, as a date, several per line and over several lines cancel wall days")
    func pln10ExceptionDates() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:weekly", "SUMMARY:Weekly",
            "DTSTART;TZID=Europe/Rome:20261201T090000", "DTEND;TZID=Europe/Rome:20261201T100000", "RRULE:FREQ=WEEKLY;BYDAY=TU",
            "EXDATE:20261208T080000Z,20261215T080000Z",
            "EXDATE;TZID=America/New_York:20261222T030000",
            "EXDATE;VALUE=DATE:20261229",
            "EXDATE;TZID=Europe/Rome:20261230T090000",  // not a day it repeats on: nothing to cancel
            "END:VEVENT"))
        let e = try #require(ICal.event(r, "weekly"))
        #expect(e.cancelled == Set(["2026-12-08", "2026-12-15", "2026-12-22", "2026-12-29"].map(ICal.day)))
        let starts = e.schedule.occurrences(from: ICal.utc("2026-12-01T00:00:00Z"), to: ICal.utc("2027-01-10T00:00:00Z")).map(\.originalDay)
        #expect(starts == [ICal.day("2026-12-01"), ICal.day("2027-01-05")])
    }

    @Test("PLN-10: overrides (RECURRENCE-ID) before their series move, cancel, or split off an occurrence")
    func pln10Overrides() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:class", "RECURRENCE-ID;TZID=Europe/Rome:20261208T090000",
            "DTSTART;TZID=Europe/Rome:20261208T100000", "DTEND;TZID=Europe/Rome:20261208T110000", "SUMMARY:Class", "END:VEVENT",
            "BEGIN:VEVENT", "UID:class", "RECURRENCE-ID:20261215T080000Z", "STATUS:CANCELLED",
            "DTSTART;TZID=Europe/Rome:20261215T090000", "DTEND;TZID=Europe/Rome:20261215T100000", "SUMMARY:Class", "END:VEVENT",
            "BEGIN:VEVENT", "UID:class", "RECURRENCE-ID;TZID=Europe/Rome:20261222T090000",
            "DTSTART;TZID=Europe/Rome:20261222T090000", "DTEND;TZID=Europe/Rome:20261222T120000", "SUMMARY:Class — exam",
            "LOCATION:Hall B", "END:VEVENT",
            "BEGIN:VEVENT", "UID:class", "SUMMARY:Class", "DTSTART;TZID=Europe/Rome:20261201T090000",
            "DTEND;TZID=Europe/Rome:20261201T100000", "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6", "END:VEVENT"))
        let series = try #require(ICal.event(r, "class"))
        #expect(series.moved == [ICal.day("2026-12-08"): ICal.wall("2026-12-08T10:00")...ICal.wall("2026-12-08T11:00")])
        #expect(series.cancelled == [ICal.day("2026-12-15"), ICal.day("2026-12-22")])
        let exam = try #require(ICal.event(r, "class#20261222T0900"))
        #expect(series.line == 27 && exam.line == 19)
        #expect(exam.title == "Class — exam" && exam.locationName == "Hall B" && exam.repeats == nil)
        #expect(exam.start == ICal.wall("2026-12-22T09:00") && exam.end == ICal.wall("2026-12-22T12:00"))
        let all = ICal.occurrences(r.events, from: ICal.utc("2026-11-01T00:00:00Z"), to: ICal.utc("2027-03-01T00:00:00Z"))
        #expect(all == [
            "Class@2026-12-01T08:00:00Z-2026-12-01T09:00:00Z", "Class@2026-12-08T09:00:00Z-2026-12-08T10:00:00Z",
            "Class — exam@2026-12-22T08:00:00Z-2026-12-22T11:00:00Z", "Class@2026-12-29T08:00:00Z-2026-12-29T09:00:00Z",
            "Class@2027-01-05T08:00:00Z-2027-01-05T09:00:00Z",
        ])
        #expect(r.skipped.isEmpty)
    }

    @Test("PLN-10: a monthly 2nd-Tuesday repeat is expanded to the hand-computed dates, with a note")
    func pln10MonthlyExpansion() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:board", "SUMMARY:Board meeting", "DTSTART;TZID=Europe/Rome:20260113T180000",
            "DTEND;TZID=Europe/Rome:20260113T200000", "RRULE:FREQ=MONTHLY;BYDAY=2TU", "END:VEVENT"))
        let days = r.events.map(\.start.day.description)
        #expect(Array(days.prefix(24)) == [
            "2026-01-13", "2026-02-10", "2026-03-10", "2026-04-14", "2026-05-12", "2026-06-09", "2026-07-14", "2026-08-11",
            "2026-09-08", "2026-10-13", "2026-11-10", "2026-12-08", "2027-01-12", "2027-02-09", "2027-03-09", "2027-04-13",
            "2027-05-11", "2027-06-08", "2027-07-13", "2027-08-10", "2027-09-14", "2027-10-12", "2027-11-09", "2027-12-14",
        ])
        // Up to now + 2 years (27 November 2028): the last is 14 November 2028.
        #expect(r.events.count == 35 && days.last == "2028-11-14")
        #expect(r.events.allSatisfy { $0.repeats == nil && $0.start.minute == 18 * 60 && $0.minutes == 120 })
        #expect(r.events.first?.uid == "board#20260113T1800")
        #expect(r.notes == ["“Board meeting” (line 4) repeats every month on the 2nd Tuesday, which Waymark cannot repeat; its 35 occurrences up to 14 November 2028 were added one by one. Later ones were not added."])
    }

    @Test("PLN-10: COUNT with DTSTART off the rule's weekdays counts DTSTART first, as RFC 5545 says")
    func pln10CountWithDtstartOffRule() throws {
        // DTSTART is a Tuesday; the rule repeats on Monday and Wednesday; 4 occurrences in all.
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:gym", "SUMMARY:Gym", "DTSTART;TZID=Europe/Rome:20261201T070000",
            "DTEND;TZID=Europe/Rome:20261201T080000", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4", "END:VEVENT"))
        let series = try #require(ICal.event(r, "gym"))
        #expect(series.start == ICal.wall("2026-12-02T07:00") && series.repeats == WeeklyRepeat(weekdays: [2, 4], count: 3))
        #expect(series.repeats?.problem(first: series.start.day) == nil)
        #expect(ICal.event(r, "gym#20261201T0700")?.repeats == nil)
        let days = r.events.flatMap { $0.schedule.occurrences(from: ICal.utc("2026-11-01T00:00:00Z"), to: ICal.utc("2027-12-01T00:00:00Z")) }
            .map(\.originalDay.description).sorted()
        #expect(days == ["2026-12-01", "2026-12-02", "2026-12-07", "2026-12-09"])
        #expect(r.notes.contains { $0.contains("starts on a Tuesday, which is not one of the days it repeats on") })
    }

    @Test("PLN-10: daily rules become weekly repeats when they can; UNTIL in UTC ends on the right wall day")
    func pln10DailyAndUntil() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:daily", "SUMMARY:Daily", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:PT15M",
            "RRULE:FREQ=DAILY;COUNT=10", "END:VEVENT",
            "BEGIN:VEVENT", "UID:weekdays", "SUMMARY:Weekdays", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:PT15M",
            "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20261208T075959Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:until", "SUMMARY:Until", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:PT15M",
            "RRULE:FREQ=WEEKLY;UNTIL=20261208T080000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:big", "SUMMARY:Big", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:PT15M",
            "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:other", "SUMMARY:Every other day", "DTSTART;TZID=Europe/Rome:20261201T090000", "DURATION:PT15M",
            "RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3", "END:VEVENT"))
        #expect(ICal.event(r, "daily")?.repeats == WeeklyRepeat(weekdays: Array(1...7), count: 10))
        // 07:59:59 UTC on 8 December is before that day's 09:00 in Rome: the last day is the 7th.
        #expect(ICal.event(r, "weekdays")?.repeats == WeeklyRepeat(weekdays: [2, 3, 4, 5, 6], until: ICal.day("2026-12-07")))
        #expect(ICal.event(r, "until")?.repeats == WeeklyRepeat(weekdays: [3], until: ICal.day("2026-12-08")))
        // More than WeeklyRepeat's 1,000: the 5,000th Tuesday becomes the last day.
        let big = try #require(ICal.event(r, "big")?.repeats)
        #expect(big.count == nil && big.until == ICal.day("2026-12-01").adding(days: 7 * 4_999))
        #expect(r.events.filter { $0.uid.hasPrefix("other#") }.map(\.start.day.description) == ["2026-12-01", "2026-12-03", "2026-12-05"])
        for e in r.events { if let rule = e.repeats { #expect(rule.problem(first: e.start.day) == nil) } }
    }

    @Test("PLN-10: rules Waymark cannot honour, cancelled events, to-dos and repeated UIDs are skipped with a reason")
    func pln10Skips() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:hourly", "SUMMARY:Hourly", "DTSTART:20261201T090000Z", "RRULE:FREQ=HOURLY", "END:VEVENT",
            "BEGIN:VEVENT", "UID:hours", "SUMMARY:Twice a day", "DTSTART:20261201T090000Z", "RRULE:FREQ=DAILY;BYHOUR=9,17", "END:VEVENT",
            "BEGIN:VEVENT", "UID:same-hour", "SUMMARY:Same hour", "DTSTART:20261201T090000Z", "DURATION:PT1H",
            "RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "END:VEVENT",
            "BEGIN:VEVENT", "UID:weekno", "SUMMARY:Week 20", "DTSTART:20261201T090000Z", "RRULE:FREQ=YEARLY;BYWEEKNO=20", "END:VEVENT",
            "BEGIN:VEVENT", "UID:bad", "SUMMARY:Bad rule", "DTSTART:20261201T090000Z", "RRULE:FREQ=SOMETIMES", "END:VEVENT",
            "BEGIN:VEVENT", "UID:off", "SUMMARY:Called off", "STATUS:CANCELLED", "DTSTART:20261201T090000Z", "END:VEVENT",
            "BEGIN:VTODO", "UID:todo", "SUMMARY:Buy milk", "END:VTODO",
            "BEGIN:VEVENT", "UID:twice", "SUMMARY:First", "DTSTART:20261201T090000Z", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:twice", "SUMMARY:Second", "DTSTART:20261202T090000Z", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:nostart", "SUMMARY:No start", "END:VEVENT",
            "BEGIN:VEVENT", "UID:zone", "SUMMARY:Unknown zone", "DTSTART;TZID=Mars/Olympus_Mons:20261201T090000", "END:VEVENT"))
        #expect(r.skipped.map { "\($0.uid ?? "-"): \($0.reason)" } == [
            "hourly: It repeats every hour, which Waymark cannot do.",
            "hours: It repeats at several times of the day (BYHOUR/BYMINUTE/BYSECOND), which Waymark cannot do.",
            "weekno: It repeats in numbered weeks of the year (BYWEEKNO), which Waymark cannot do.",
            "bad: Its repeat rule “FREQ=SOMETIMES” cannot be read: “SOMETIMES” is not a frequency.",
            "todo: A to-do, not an event.",
            "nostart: It has no start (DTSTART).",
            "zone: Its time zone “Mars/Olympus_Mons” is not one Waymark knows, and the file does not describe it.",
            "off: Cancelled in the calendar it came from.",
            "twice: Another event in the file (line 45) has the same UID; the first one was kept.",
        ])
        #expect(ICal.event(r, "same-hour")?.repeats == WeeklyRepeat(weekdays: Array(1...7)))
        #expect(ICal.event(r, "twice")?.title == "First")
    }

    @Test("PLN-10: missing UID and SUMMARY are filled in stably; long texts are shortened with a note")
    func pln10FilledIn() throws {
        let long = String(repeating: "Très long titre ", count: 20)
        let text = ICal.calendar(
            "BEGIN:VEVENT", "DTSTART:20261201T090000Z", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:long", "SUMMARY:\(long)", "DESCRIPTION:\(String(repeating: "x", count: 2_500))",
            "DTSTART:20261201T090000Z", "DURATION:PT1H", "END:VEVENT")
        let a = try ICal.read(text), b = try ICal.read(text)
        #expect(a.events[0].uid == b.events[0].uid && a.events[0].uid.hasSuffix("@import.waymark"))
        #expect(a.events[0].title == "Untitled event")
        let e = try #require(ICal.event(a, "long"))
        #expect(e.title.count == 200 && e.title.hasSuffix("…") && e.title.hasPrefix("Très long titre"))
        #expect(e.description?.count == 2_000)
        #expect(a.notes.contains("“\(e.title)” (line 8): the title was shortened to 200 characters."))
        let other = try ICal.read(text.replacingOccurrences(of: "20261201T090000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:long",
                                                            with: "20261201T100000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:long"))
        #expect(other.events[0].uid != a.events[0].uid)
    }

    @Test("PLN-10: RDATE adds single events with the same details; a PERIOD keeps its own length")
    func pln10AddedDates() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:talk", "SUMMARY:Talk", "LOCATION:Aula Magna\\, Milano", "GEO:45.4642;9.19",
            "DTSTART;TZID=Europe/Rome:20261201T170000", "DTEND;TZID=Europe/Rome:20261201T180000",
            "RDATE;TZID=Europe/Rome:20261203T170000,20261210T150000",
            "RDATE;VALUE=PERIOD:20261215T160000Z/PT2H", "RDATE;VALUE=DATE:20261217", "END:VEVENT"))
        #expect(r.events.map(\.uid) == ["talk", "talk#20261203T1700", "talk#20261210T1500", "talk#20261215T1700", "talk#20261217T1700"])
        #expect(r.events.allSatisfy { $0.title == "Talk" && $0.locationName == "Aula Magna, Milano" && $0.coordinate == Coordinate(latitude: 45.4642, longitude: 9.19) })
        #expect(ICal.event(r, "talk#20261215T1700")?.end == ICal.wall("2026-12-15T19:00"))
        #expect(ICal.event(r, "talk#20261210T1500")?.end == ICal.wall("2026-12-10T16:00"))
    }

    @Test("PLN-10: zones: Windows names, vendor prefixes, and a VTIMEZONE given after the events that use it")
    func pln10Zones() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:win", "SUMMARY:Windows", "DTSTART;TZID=W. Europe Standard Time:20261201T090000", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:moz", "SUMMARY:Mozilla", "DTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261201T090000", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:cit", "SUMMARY:Citadel", "DTSTART;TZID=/citadel.org/20190914_1/Europe/Rome:20261201T090000", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:custom", "SUMMARY:Custom", "DTSTART;TZID=\"My office, Tokyo\":20261201T090000", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:fixed", "SUMMARY:Fixed", "DTSTART;TZID=Plus Five:20261201T090000", "DURATION:PT1H", "END:VEVENT",
            "BEGIN:VTIMEZONE", "TZID:My office, Tokyo", "BEGIN:STANDARD", "DTSTART:19700101T000000",
            "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "TZNAME:JST", "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VTIMEZONE", "TZID:Plus Five", "BEGIN:STANDARD", "DTSTART:19700101T000000",
            "TZOFFSETFROM:+0500", "TZOFFSETTO:+0500", "END:STANDARD", "END:VTIMEZONE"))
        #expect(r.events.map(\.zone.identifier) == ["Europe/Berlin", "Europe/Berlin", "Europe/Rome", "Etc/GMT-9", "Etc/GMT-5"])
        #expect(r.notes.contains("The time zone “My office, Tokyo” was read as Etc/GMT-9, whose clock matches the file's description of it in 2026."))
        #expect(ICalendarTimeZones.zone(named: "Eastern Standard Time")?.identifier == "America/New_York")
        #expect(ICalendarTimeZones.zone(named: "tokyo standard time")?.identifier == "Asia/Tokyo")
        #expect(ICalendarTimeZones.zone(named: "AUS Eastern Standard Time")?.identifier == "Australia/Sydney")
        #expect(ICalendarTimeZones.zone(named: "GMT Standard Time")?.identifier == "Europe/London")
        #expect(ICalendarTimeZones.zone(named: "Etc/UTC").map(ICalendarTimeZones.isUTC) == true)
        #expect(ICalendarTimeZones.zone(named: "Nowhere Standard Time") == nil)
        #expect(ICalendarTimeZones.zone(named: "europe/berlin")?.identifier == "Europe/Berlin")
        #expect(ICalendarTimeZones.windowsNames.values.allSatisfy { TimeZone(identifier: $0) != nil })
    }

    @Test("PLN-10: a VTIMEZONE with daylight saving picks the main zone with the same clock and the same change days")
    func pln10DescribedZone() throws {
        func read(_ from: String, _ to: String, daylight: String, standard: String) throws -> String? {
            try ICal.read(ICal.calendar(
                "BEGIN:VTIMEZONE", "TZID:Office", "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:\(to)", "TZOFFSETTO:\(from)",
                "RRULE:FREQ=YEARLY;\(standard)", "END:STANDARD",
                "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:\(from)", "TZOFFSETTO:\(to)",
                "RRULE:FREQ=YEARLY;\(daylight)", "END:DAYLIGHT", "END:VTIMEZONE",
                "BEGIN:VEVENT", "UID:x", "SUMMARY:X", "DTSTART;TZID=Office:20261201T090000", "DURATION:PT1H", "END:VEVENT"))
                .events.first?.zone.identifier
        }
        let europe = (daylight: "BYMONTH=3;BYDAY=-1SU", standard: "BYMONTH=10;BYDAY=-1SU")
        #expect(try read("+0100", "+0200", daylight: europe.daylight, standard: europe.standard) == "Europe/Berlin")
        #expect(try read("+0000", "+0100", daylight: europe.daylight, standard: europe.standard) == "Europe/London")
        #expect(try read("-0500", "-0400", daylight: "BYMONTH=3;BYDAY=2SU", standard: "BYMONTH=11;BYDAY=1SU") == "America/New_York")
        // Brazil's old rules (third Saturday of February, second Saturday of October) in 2017.
        let brazil = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:b", "SUMMARY:B", "DTSTART;TZID=\"(UTC-03:00) Brasília\":20170511T133000", "DURATION:PT30M", "END:VEVENT",
            "BEGIN:VTIMEZONE", "TZID:(UTC-03:00) Brasília", "BEGIN:STANDARD", "DTSTART:16010101T235959", "TZOFFSETFROM:-0200",
            "TZOFFSETTO:-0300", "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=3SA;BYMONTH=2", "END:STANDARD", "BEGIN:DAYLIGHT",
            "DTSTART:16010101T235959", "TZOFFSETFROM:-0300", "TZOFFSETTO:-0200", "RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SA;BYMONTH=10",
            "END:DAYLIGHT", "END:VTIMEZONE"))
        #expect(brazil.events.first?.zone.identifier == "America/Sao_Paulo")
    }

    @Test("PLN-10: flexible minutes, places and unknown properties are read; the unknown ones are kept as they were")
    func pln10DetailsAndExtra() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:lunch", "DTSTAMP:20261101T000000Z", "SUMMARY:Lunch\\; with Ana\\, Bo", "DESCRIPTION:Line one\\nLine two",
            "DTSTART;TZID=Europe/Rome:20261201T120000", "DTEND;TZID=Europe/Rome:20261201T140000", "X-WAYMARK-FLEXIBLE-MINUTES:45",
            "ATTENDEE;CN=\"Ana, B.\";PARTSTAT=ACCEPTED:mailto:ana@example.com", "X-CUSTOM:keep me",
            "DUE;TZID=Europe/Rome:20261201T120000",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT",
            "BEGIN:VEVENT", "UID:tight", "SUMMARY:Tight", "DTSTART:20261201T120000Z", "DTEND:20261201T123000Z",
            "X-WAYMARK-FLEXIBLE-MINUTES:45", "END:VEVENT"))
        let e = try #require(ICal.event(r, "lunch"))
        #expect(e.title == "Lunch; with Ana, Bo" && e.description == "Line one\nLine two" && e.flexibleMinutes == 45)
        #expect(e.extra == ["ATTENDEE;CN=\"Ana, B.\";PARTSTAT=ACCEPTED:mailto:ana@example.com", "X-CUSTOM:keep me",
                            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"])
        #expect(ICal.event(r, "tight")?.flexibleMinutes == nil)
        #expect(r.notes.contains { $0.hasPrefix("“Tight” (line 20): its flexible length “45” does not fit its window") })
    }

    @Test("PLN-10: an override whose series is missing is imported on its own; a file of bare events is read")
    func pln10OrphanAndBare() throws {
        let r = try ICal.read("BEGIN:VEVENT\nUID:lone\nRECURRENCE-ID:20261201T090000Z\nSUMMARY:Lone\nDTSTART:20261201T100000Z\nDURATION:PT1H\nEND:VEVENT\n")
        #expect(r.events.map(\.uid) == ["lone"] && r.events[0].start == ICal.wall("2026-12-01T10:00"))
        #expect(r.notes.contains("The file has no VCALENDAR around its events; they were read all the same."))
        #expect(r.notes.contains("“Lone” (line 1) changes one occurrence of a repeating event that is not in the file; it was added on its own."))
    }

    @Test("PLN-10: a repeat with more than 500 occurrences keeps the latest 500 up to two years from now")
    func pln10ExpansionLimit() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:often", "SUMMARY:Often", "DTSTART:20200101T090000Z", "DURATION:PT1H",
            "RRULE:FREQ=DAILY;INTERVAL=2", "END:VEVENT"))
        #expect(r.events.count == 500)
        #expect(r.events.last!.start.day <= ICal.day("2028-11-27") && r.events.last!.start.day >= ICal.day("2028-11-25"))
        #expect(r.notes.count == 1 && r.notes[0].contains("were left out") && r.notes[0].contains("every 2 days"))
    }

    @Test("PLN-10: overrides of a repeat added one by one move, cancel or replace the single event they name")
    func pln10OverridesOfExpanded() throws {
        let r = try ICal.read(ICal.calendar(
            "BEGIN:VEVENT", "UID:club", "SUMMARY:Book club", "DTSTART;TZID=Europe/Rome:20261201T190000", "DURATION:PT2H",
            "RRULE:FREQ=MONTHLY;BYDAY=1TU;COUNT=4", "END:VEVENT",
            "BEGIN:VEVENT", "UID:club", "RECURRENCE-ID;TZID=Europe/Rome:20270105T190000", "SUMMARY:Book club",
            "DTSTART;TZID=Europe/Rome:20270107T200000", "DURATION:PT2H", "END:VEVENT",
            "BEGIN:VEVENT", "UID:club", "RECURRENCE-ID;TZID=Europe/Rome:20270202T190000", "STATUS:CANCELLED",
            "DTSTART;TZID=Europe/Rome:20270202T190000", "END:VEVENT",
            "BEGIN:VEVENT", "UID:club", "RECURRENCE-ID;TZID=Europe/Rome:20270302T190000", "SUMMARY:Book club: author's visit",
            "DTSTART;TZID=Europe/Rome:20270302T180000", "DURATION:PT3H", "END:VEVENT"))
        #expect(r.events.map { "\($0.uid) \($0.title) \($0.start)-\($0.end)" } == [
            "club#20261201T1900 Book club 2026-12-01T19:00-2026-12-01T21:00",
            "club#20270105T1900 Book club 2027-01-07T20:00-2027-01-07T22:00",
            "club#20270302T1900 Book club: author's visit 2027-03-02T18:00-2027-03-02T21:00",
        ])
        #expect(r.skipped.isEmpty)
    }

    @Test("PLN-10: a file that would make more than 5,000 events stops there, saying so for each event left out")
    func pln10EventLimit() throws {
        let events = (0..<40).map { i in
            "BEGIN:VEVENT\r\nUID:e\(i)\r\nSUMMARY:E\(i)\r\nDTSTART:20200101T09\(String(format: "%02d", i))00Z\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY;INTERVAL=2\r\nEND:VEVENT"
        }
        let clock = ContinuousClock.now
        let r = try ICal.read(ICal.calendar(events.joined(separator: "\r\n")))
        #expect(ContinuousClock.now - clock < .seconds(10))
        #expect(r.events.count == CalendarImport.maximumEvents)
        #expect(r.skipped.count == 30 && r.skipped.allSatisfy { $0.reason == "The file holds more than 5,000 events; Waymark imports at most that many at once." })
    }

    @Test("PLN-10: a file that is not iCalendar is refused as a whole with a plain reason")
    func pln10NotICalendar() {
        #expect(throws: ICalendarError(line: nil, "The file is empty.")) { try ICal.read("") }
        #expect(throws: ICalendarError.self) { try ICal.read("Dear Ana,\nsee you on Tuesday.\n") }
        #expect(throws: ICalendarError(line: 1, "The file has no VCALENDAR, so it is not an iCalendar calendar.")) {
            try ICal.read("BEGIN:VCARD\r\nFN:Ana\r\nEND:VCARD\r\n")
        }
    }
}
