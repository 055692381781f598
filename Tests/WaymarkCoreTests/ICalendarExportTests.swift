import Foundation
import Testing
import WaymarkCore

/// PLN-10: writing events as RFC 5545 text — the calendar's header, one VTIMEZONE per zone from
/// Foundation's rules, RRULE/EXDATE/RECURRENCE-ID from Waymark's repeats — and reading it back
/// to the very same events.
@Suite("iCalendar export (PLN-10)")
struct ICalendarExportTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    static let events: [CalendarEvent] = [
        CalendarEvent(uid: "seminar@waymark", title: "Seminar; room 2, \"north\"",
                      description: "Bring:\n- laptop, charger\n- notes\\drafts " + String(repeating: "più lungo ", count: 20) + "fine",
                      locationName: "Politecnico, Via Bonardi 9", coordinate: Coordinate(latitude: 45.478_1, longitude: 9.227_5),
                      start: ICal.wall("2026-12-01T09:00"), end: ICal.wall("2026-12-01T11:00"), zone: ICal.rome, flexibleMinutes: 90,
                      repeats: WeeklyRepeat(weekdays: [3], until: ICal.day("2027-03-30")),
                      cancelled: [ICal.day("2026-12-08"), ICal.day("2026-12-15")],
                      moved: [ICal.day("2026-12-22"): ICal.wall("2026-12-22T10:00")...ICal.wall("2026-12-22T12:00")],
                      extra: ["X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"]),
        CalendarEvent(uid: "market", title: "Market day", start: ICal.wall("2026-12-07T00:00"), end: ICal.wall("2026-12-08T00:00"),
                      zone: ICal.rome, allDay: true, repeats: WeeklyRepeat(weekdays: [2], until: ICal.day("2027-01-04")),
                      cancelled: [ICal.day("2026-12-28")]),
        CalendarEvent(uid: "call", title: "Call", start: ICal.wall("2026-12-02T09:00"), end: ICal.wall("2026-12-02T09:30"), zone: utc,
                      repeats: WeeklyRepeat(weekdays: [1, 2, 4], interval: 2, count: 10)),
        CalendarEvent(uid: "tokyo", title: "Tokyo visit", start: ICal.wall("2027-04-02T10:00"), end: ICal.wall("2027-04-02T18:00"), zone: tokyo),
        CalendarEvent(uid: "nyc", title: "NYC", start: ICal.wall("2026-12-03T08:00"), end: ICal.wall("2026-12-03T09:00"), zone: ICal.newYork,
                      moved: [:]),
    ]

    static var text: String { CalendarExport.write(name: "Ana's plan, winter", events: events, now: ICal.now, refreshMinutes: 60) }
    static var lines: [String] { text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n") }

    @Test("PLN-10: the file has the calendar's header, CRLF line ends and no line over 75 octets")
    func pln10Header() {
        let text = Self.text
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Waymark//Planner//EN\r\nCALSCALE:GREGORIAN\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let lines = Self.lines
        #expect(lines.contains("X-WR-CALNAME:Ana's plan\\, winter"))
        #expect(lines.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H") && lines.contains("X-PUBLISHED-TTL:PT1H"))
        #expect(!CalendarExport.write(name: "x", events: [], now: ICal.now).contains("REFRESH-INTERVAL"))
        #expect(lines.filter { $0 == "DTSTAMP:20261127T100000Z" }.count == 6)
        #expect(text == Self.text)
    }

    @Test("PLN-10: one VTIMEZONE per zone used, from Foundation's transitions; none for UTC or all-day dates")
    func pln10TimeZones() throws {
        let lines = Self.lines
        #expect(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count == 3)
        #expect(lines.filter { $0.hasPrefix("TZID:") } == ["TZID:America/New_York", "TZID:Asia/Tokyo", "TZID:Europe/Rome"])
        let rome = try #require(Self.block(lines, "TZID:Europe/Rome"))
        #expect(rome.contains("BEGIN:DAYLIGHT\nDTSTART:20260329T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200"))
        #expect(rome.contains("BEGIN:STANDARD\nDTSTART:20261025T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100"))
        // From the year before the first event to ten years after now.
        #expect(rome.contains("DTSTART:20250330T020000") && rome.contains("DTSTART:20361026T030000") && !rome.contains("DTSTART:2024"))
        let tokyo = try #require(Self.block(lines, "TZID:Asia/Tokyo"))
        #expect(tokyo.components(separatedBy: "BEGIN:STANDARD").count == 2 && !tokyo.contains("DAYLIGHT"))
        #expect(tokyo.contains("TZOFFSETFROM:+0900\nTZOFFSETTO:+0900"))
    }

    /// The VTIMEZONE holding `line`, its lines joined by "\n".
    static func block(_ lines: [String], _ line: String) -> String? {
        guard let i = lines.firstIndex(of: line), let start = lines[..<i].lastIndex(of: "BEGIN:VTIMEZONE"),
              let end = lines[i...].firstIndex(of: "END:VTIMEZONE") else { return nil }
        return lines[start...end].joined(separator: "\n")
    }

    @Test("PLN-10: start, end and repeat: TZID times, UTC with Z, dates for all-day; UNTIL of DTSTART's type")
    func pln10EventLines() {
        let lines = Self.lines
        #expect(lines.contains("DTSTART;TZID=Europe/Rome:20261201T090000") && lines.contains("DTEND;TZID=Europe/Rome:20261201T110000"))
        // The last second of 30 March 2027 in Rome (CEST, +2) is 21:59:59 UTC.
        #expect(lines.contains("RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270330T215959Z"))
        #expect(lines.contains("DTSTART;VALUE=DATE:20261207") && lines.contains("DTEND;VALUE=DATE:20261208"))
        #expect(lines.contains("RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270104") && lines.contains("EXDATE;VALUE=DATE:20261228"))
        #expect(lines.contains("DTSTART:20261202T090000Z") && lines.contains("DTEND:20261202T093000Z"))
        #expect(lines.contains("RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=MO;BYDAY=MO,WE,SU;COUNT=10"))
        #expect(lines.contains("EXDATE;TZID=Europe/Rome:20261208T090000,20261215T090000"))
        #expect(lines.contains("SUMMARY:Seminar\\; room 2\\, \"north\""))
        #expect(lines.contains { $0.hasPrefix("DESCRIPTION:Bring:\\n- laptop\\, charger\\n- notes\\\\drafts più lungo") })
        #expect(lines.contains("LOCATION:Politecnico\\, Via Bonardi 9") && lines.contains("GEO:45.4781;9.2275"))
        #expect(lines.contains("X-WAYMARK-FLEXIBLE-MINUTES:90") && lines.contains("X-MICROSOFT-CDO-BUSYSTATUS:BUSY"))
    }

    @Test("PLN-10: a moved occurrence is its own VEVENT with the series' UID and a RECURRENCE-ID")
    func pln10MovedOccurrence() throws {
        let lines = Self.lines
        let rid = try #require(lines.firstIndex(of: "RECURRENCE-ID;TZID=Europe/Rome:20261222T090000"))
        let begin = try #require(lines[..<rid].lastIndex(of: "BEGIN:VEVENT"))
        let end = try #require(lines[rid...].firstIndex(of: "END:VEVENT"))
        let override = Array(lines[begin...end])
        #expect(override.contains("UID:seminar@waymark") && override.contains("DTSTART;TZID=Europe/Rome:20261222T100000"))
        #expect(override.contains("DTEND;TZID=Europe/Rome:20261222T120000") && !override.contains { $0.hasPrefix("RRULE") })
        #expect(override.contains("BEGIN:VALARM"))
    }

    @Test("PLN-10: what is written reads back as the very same events")
    func pln10RoundTrip() throws {
        let r = try CalendarImport.read(Data(Self.text.utf8), defaultZone: ICal.rome, now: ICal.now)
        #expect(r.calendarName == "Ana's plan, winter")
        #expect(r.skipped.isEmpty && r.notes.isEmpty)
        #expect(r.events.count == Self.events.count)
        for (a, b) in zip(Self.events, r.events) { #expect(a == b, "\(a.uid)") }
        // And written again, the same text.
        #expect(CalendarExport.write(name: r.calendarName!, events: r.events, now: ICal.now, refreshMinutes: 60) == Self.text)
    }

    @Test("PLN-10: kept lines that would break the file's structure are written without their BEGIN/END")
    func pln10SafeExtra() throws {
        var e = Self.events[3]
        e.extra = ["X-A:1", "END:VEVENT", "BEGIN:VCALENDAR", "not a line", "X-B:2\r\nX-C:3"]
        let text = CalendarExport.write(name: "x", events: [e], now: ICal.now)
        #expect(text.contains("\r\nX-A:1\r\nX-B:2X-C:3\r\n") && !text.contains("not a line"))
        let r = try CalendarImport.read(Data(text.utf8), defaultZone: ICal.rome, now: ICal.now)
        #expect(r.events.first?.extra == ["X-A:1", "X-B:2X-C:3"])
    }
}
