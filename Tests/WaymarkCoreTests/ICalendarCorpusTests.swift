import Foundation
import Testing
import WaymarkCore

/// PLN-10 against real-world files: the 160 iCalendar files of the Python icalendar library's
/// test suite (Fixtures/ical, BSD 2-Clause). Every one is read without a crash or a hang; a
/// dozen representative ones give exactly what they should; and every file that gives events
/// gives the same occurrences after an export and a second import.
@Suite("iCalendar corpus (PLN-10)")
struct ICalendarCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ical")

    /// Every .ics file, by path inside the corpus, sorted.
    static func files() throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".ics") }.sorted()
    }

    static func read(_ path: String) throws -> CalendarImport {
        try CalendarImport.read(ICal.fixture(path), defaultZone: ICal.rome, now: ICal.now)
    }

    /// The files refused as a whole, and why: broken structure, bytes that are not UTF-8, or no
    /// calendar (a lone VTIMEZONE, VALARM or custom component).
    static let refused: [String: String] = [
        "fuzzing/corpus/Index_Error.ics": "Line 1: The file is not UTF-8 text (byte 0xDF); save it as UTF-8 and try again.",
        "fuzzing/corpus/Type_Error.ics": "Line 3: The file is not UTF-8 text (byte 0xDF); save it as UTF-8 and try again.",
        "fuzzing/corpus/issue_100_transformed_doctests_into_unittests.ics": "Line 1: “VEVENT?” is not a component name.",
        "fuzzing/corpus/timezone_same_start_and_offset.ics": "Line 23: END:VCALENDARD closes a VCALENDAR.",
        "tests/calendars/timezone_same_start_and_offset.ics": "Line 23: END:VCALENDARD closes a VCALENDAR.",
        "tests/calendars/fuzz_testcase_0_char_in_component_name.ics": "Line 1: “?” is not a component name.",
        "tests/calendars/fuzz_testcase_invalid_month.ics": "Line 1: BEGIN:V is never closed: the file ends first.",
        "tests/calendars/pr_480_summary_with_colon.ics": "Line 1: BEGIN:VCALENDAR is never closed: the file ends first.",
        "tests/calendars/small_bad_calendar.ics": "Line 1: BEGIN:VCALENDAR is never closed: the file ends first.",
        "tests/calendars/fuzz_testcase_vtimezone_lone_cr.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/calendars/issue_178_component_with_invalid_name_represented.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/calendars/issue_178_custom_component_contains_other.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/alarms/example.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/alarms/rfc_5545_absolute_alarm_example.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/alarms/rfc_5545_end.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/alarms/start_date.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/timezones/issue_237_brazilia_standard.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/timezones/issue_53_tzid_parsed_properly.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/timezones/issue_55_parse_error_on_utc_offset_with_seconds.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
        "tests/timezones/pacific_fiji.ics": "Line 1: The file has no VCALENDAR, so it is not an iCalendar calendar.",
    ]

    @Test("PLN-10: every corpus file is read or refused with ICalendarError, each well under a second")
    func pln10EveryFile() throws {
        let files = try Self.files()
        #expect(files.count == 160)
        var imported = 0, empty = 0, events = 0
        var reasons: [String: Int] = [:]
        var thrown: [String: String] = [:]
        for path in files {
            let clock = ContinuousClock.now
            do {
                let r = try Self.read(path)
                events += r.events.count
                if r.events.isEmpty { empty += 1 } else { imported += 1 }
                for s in r.skipped { reasons[s.reason.hasPrefix("Its time zone") ? "Its time zone … is not one Waymark knows…" : s.reason, default: 0] += 1 }
                for e in r.events {
                    if let rule = e.repeats { #expect(rule.problem(first: e.start.day) == nil, "\(path) \(e.uid)") }
                    #expect(e.start < e.end && e.minutes <= 1_440, "\(path) \(e.uid)")
                    #expect(!e.title.isEmpty && e.title.count <= 200 && (e.description?.count ?? 0) <= 2_000, "\(path) \(e.uid)")
                }
            } catch let error as ICalendarError {
                thrown[path] = error.description
            }
            #expect(ContinuousClock.now - clock < .seconds(1), "\(path)")
        }
        print("PLN-10 corpus: \(files.count) files; \(imported) gave \(events) events, \(empty) gave none, \(thrown.count) were refused.")
        for (reason, n) in reasons.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) { print("  skipped \(n)×: \(reason)") }
        for (path, message) in thrown.sorted(by: { $0.key < $1.key }) { print("  refused \(path): \(message)") }
        #expect(thrown == Self.refused)
        #expect(imported == 81 && events == 155)
    }

    @Test("PLN-10: a bare VEVENT with a daily COUNT and EXDATEs in UTC becomes a weekly repeat with cancelled days")
    func pln10EventWithRecurrence() throws {
        let r = try Self.read("tests/events/event_with_recurrence.ics")
        #expect(r.events.count == 1 && r.skipped.isEmpty)
        let e = r.events[0]
        #expect(e.title == "A recurring event with exdates" && e.zone.identifier == "Europe/Rome")
        #expect(e.start == ICal.wall("1996-04-01T01:00") && e.end == ICal.wall("1996-04-01T02:00"))
        #expect(e.repeats == WeeklyRepeat(weekdays: Array(1...7), count: 100))
        #expect(e.cancelled == [ICal.day("1996-04-02"), ICal.day("1996-04-03"), ICal.day("1996-04-04")])
        #expect(e.schedule.occurrences(from: ICal.utc("1996-01-01T00:00:00Z"), to: ICal.utc("1997-01-01T00:00:00Z")).count == 97)
        #expect(r.notes == ["The file has no VCALENDAR around its events; they were read all the same.",
                            "Times without a time zone were read in Europe/Rome."])
    }

    @Test("PLN-10: weekly repeats with UNTIL in UTC and EXDATEs on several lines, in Vienna and New York")
    func pln10WeeklyWithExdates() throws {
        let vienna = try Self.read("tests/events/event_with_recurrence_exdates_on_different_lines.ics").events
        #expect(vienna.count == 1 && vienna[0].zone.identifier == "Europe/Vienna")
        #expect(vienna[0].repeats == WeeklyRepeat(weekdays: [3], until: ICal.day("2012-07-03")))
        #expect(vienna[0].cancelled == Set(["2012-04-03", "2012-04-10", "2012-04-17", "2012-05-01", "2012-05-29"].map(ICal.day)))
        let philly = try Self.read("tests/events/issue_112_missing_tzinfo_on_exdate.ics").events
        #expect(philly.count == 1 && philly[0].title == "Market East Live!" && philly[0].zone.identifier == "America/New_York")
        // UNTIL 03:59:59 UTC on 25 October is 23:59:59 on the 24th in New York.
        #expect(philly[0].repeats == WeeklyRepeat(weekdays: [6, 7], until: ICal.day("2013-10-24")))
        #expect(philly[0].cancelled == [ICal.day("2013-10-11"), ICal.day("2013-10-12")])
        #expect(philly[0].locationName == "12th and Market Streets (weather permitting)")
        #expect(philly[0].description?.hasPrefix("The Fieldhouse and Hard Rock Cafe are working with PhillyRising to provide") == true)
    }

    @Test("PLN-10: a Google Calendar export: its name, a UTC event, and its four alarms kept for export")
    func pln10GoogleExport() throws {
        let r = try Self.read("tests/calendars/alarm_google_future.ics")
        #expect(r.calendarName == "Nicco Kunzmann" && r.events.count == 1 && r.skipped.isEmpty && r.notes.isEmpty)
        let e = r.events[0]
        #expect(e.uid == "79fs7pkqvht9m5igs0vjv1sfra@google.com" && e.title == "event with alarms")
        #expect(ICalendarTimeZones.isUTC(e.zone) && e.start == ICal.wall("2024-10-04T18:15") && e.end == ICal.wall("2024-10-04T19:00"))
        #expect(e.extra.filter { $0 == "BEGIN:VALARM" }.count == 4 && e.extra.contains("STATUS:CONFIRMED"))
        let own = e.extra.prefix { !$0.hasPrefix("BEGIN:") }
        #expect(own == ["CREATED:20241004T175920Z", "LAST-MODIFIED:20241004T175928Z", "SEQUENCE:0", "STATUS:CONFIRMED", "TRANSP:OPAQUE"])
    }

    @Test("PLN-10: zones: a VTIMEZONE after its events, Windows names, vendor prefixes, fixed offsets, old Brazilian rules")
    func pln10CorpusZones() throws {
        let forward = try Self.read("tests/calendars/america_new_york_forward_reference.ics")
        #expect(forward.events.map(\.zone.identifier) == ["America/New_York"])
        #expect(forward.events[0].start == ICal.wall("2014-08-29T08:00") && forward.events[0].end == ICal.wall("2014-08-29T08:30"))
        #expect(forward.notes.first == "The time zone “custom_America/New_York_Forward_reference” was read as America/New_York, whose clock matches the file's description of it in 2014.")
        #expect(try Self.read("tests/calendars/issue_1050_forward_timezone_reference.ics").events.map(\.zone.identifier) == ["Europe/Berlin"])
        let pacific = try Self.read("tests/calendars/timezone_same_start.ics").events
        #expect(pacific.map(\.zone.identifier) == ["America/Los_Angeles"] && pacific[0].start == ICal.wall("2017-02-24T12:00"))
        #expect(try Self.read("tests/calendars/issue_836_do_not_quote_tzid.ics").events.map(\.zone.identifier) == ["America/New_York"])
        #expect(try Self.read("tests/calendars/issue_313_globally_unique_tzid.ics").events.map(\.zone.identifier)
                == ["Europe/Berlin", "America/New_York", "America/Argentina/Buenos_Aires"])
        #expect(try Self.read("tests/calendars/issue_466_convert_tzid_with_slash.ics").events.map(\.zone.identifier) == ["Europe/Stockholm"])
        #expect(try Self.read("tests/calendars/pacific_fiji.ics").events.map(\.zone.identifier) == ["Pacific/Fiji"])
        #expect(try Self.read("tests/calendars/issue_218_bad_tzid.ics").events.map(\.zone.identifier) == ["Etc/GMT-11"])
        #expect(try Self.read("tests/calendars/issue_237_fail_to_parse_timezone_with_non_ascii_tzid.ics").events.map(\.zone.identifier)
                == ["America/Sao_Paulo"])
        let khal = try Self.read("tests/calendars/issue_156_RDATE_with_PERIOD_TZID_khal_2.ics")
        #expect(khal.events.count == 4 && khal.events.allSatisfy { $0.zone.identifier == "Europe/Berlin" && $0.start.minute == 16 * 60 })
        let undescribed = try Self.read("tests/calendars/issue_526_calendar_with_events.ics")
        #expect(undescribed.events.isEmpty && undescribed.skipped.map(\.reason) == Array(repeating:
            "Its time zone “Western/Central Europe” is not one Waymark knows, and the file does not describe it.", count: 2))
    }

    @Test("PLN-10: an Exchange daily standup on weekdays, in a zone named only by its offsets")
    func pln10ExchangeStandup() throws {
        let r = try Self.read("tests/calendars/issue_165_missing_event.ics")
        #expect(r.events.count == 1)
        let e = r.events[0]
        #expect(e.title == "Sprint 25 Daily Standup" && e.zone.identifier == "Europe/Berlin")
        #expect(e.start == ICal.wall("2015-07-03T10:00") && e.end == ICal.wall("2015-07-03T10:30"))
        #expect(e.repeats == WeeklyRepeat(weekdays: [2, 3, 4, 5, 6], until: ICal.day("2015-07-22")))
    }

    @Test("PLN-10: a monthly rule with RDATE and EXDATE is expanded one occurrence at a time")
    func pln10PeriodWithTimezone() throws {
        let r = try Self.read("tests/calendars/period_with_timezone.ics")
        #expect(r.calendarName == "Test RDATE")
        #expect(r.events.map(\.start.day.description) == ["2023-09-20", "2023-10-18", "2023-11-15", "2023-12-13", "2024-01-17",
                                                          "2024-02-21", "2024-03-20", "2024-04-17", "2024-05-15"])
        // The RDATE period on 13 December lasts three hours; 20 December is cancelled.
        #expect(ICal.event(r, "1#20231213T1200")?.end == ICal.wall("2023-12-13T15:00"))
        #expect(r.events.allSatisfy { $0.zone.identifier == "America/Vancouver" && $0.repeats == nil })
        #expect(r.notes.count == 1 && r.notes[0].contains("on the 3rd Wednesday, which Waymark cannot repeat; its 8 occurrences up to 15 May 2024"))
    }

    @Test("PLN-10: Unicode, a BOM, and the components that are not events each skipped with one reason")
    func pln10UnicodeAndComponents() throws {
        let unicode = try Self.read("tests/calendars/created_calendar_with_unicode_fields.ics")
        #expect(unicode.calendarName == "äöü ÄÖÜ €")
        #expect(unicode.events.map(\.title) == ["Non-ASCII Test: ÄÖÜ äöü €", "åäö"])
        #expect(unicode.events[0].locationName == "Tribstrül")
        #expect(unicode.skipped.map(\.reason) == ["It has no start (DTSTART)."])
        let bom = try Self.read("tests/calendars/bom_calendar.ics")
        #expect(bom.events.isEmpty && bom.skipped.isEmpty && bom.notes.isEmpty)
        let all = try Self.read("tests/calendars/issue_1050_all_components.ics")
        #expect(all.events.map(\.uid) == ["event-1"] && all.events[0].extra.contains("BEGIN:VALARM"))
        #expect(all.skipped.map { "\($0.uid ?? "-"): \($0.reason)" } == [
            "todo-1: A to-do, not an event.", "journal-1: A journal entry, not an event.",
            "availability-1: Times someone is available, not an event.",
        ])
        #expect(try Self.read("tests/freebusy/example.ics").skipped.map(\.reason) == ["Free and busy times, not an event."])
    }

    @Test("PLN-10: events Waymark cannot keep are skipped with the reason, the rest of the file imported")
    func pln10CorpusSkips() throws {
        #expect(try Self.read("tests/calendars/timezoned.ics").skipped.map(\.reason)
                == ["Lasts 4 days and 8 hours; Waymark's events last at most 24 hours."])
        #expect(try Self.read("tests/calendars/rfc_7529.ics").skipped.map(\.reason) == [
            "It repeats by the Chinese calendar, which Waymark cannot follow.",
            "Its repeat rule “RSCALE=ETHIOPIC;FREQ=MONTHLY;BYMONTH=13” cannot be read: BYMONTH “13” is out of range.",
            "Its repeat rule “RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=8;SKIP=FORW…” cannot be read: BYMONTH “5L” is out of range.",
            "It repeats with SKIP=FORWARD (moving a date a month lacks), which Waymark cannot follow.",
        ])
        #expect(try Self.read("tests/calendars/broken_dtstart.ics").skipped.map(\.reason) == ["Its start “INVALID-DATE” is not a date or a time."])
        #expect(try Self.read("tests/calendars/issue_1081_invalid_rrule_freq.ics").skipped.map(\.reason)
                == ["Its repeat rule “FREQ=INVALID_TYPE_CAUSES_ERROR” cannot be read: “INVALID_TYPE_CAUSES_ERROR” is not a frequency."])
        // A stray line inside a calendar is passed over with a note; the event is kept.
        let broken = try Self.read("tests/calendars/issue_104_broken_calendar.ics")
        #expect(broken.events.map(\.title) == ["Broken Eevnt"] && broken.notes == ["Line 13: Not a content line (NAME:value); it was left out."])
    }

    @Test("PLN-10: import → export → import gives the same events and occurrences for every corpus file")
    func pln10CorpusRoundTrip() throws {
        var checked = 0
        let year: TimeInterval = 365 * 86_400
        for path in try Self.files() {
            guard let first = try? Self.read(path), !first.events.isEmpty else { continue }
            let text = CalendarExport.write(name: first.calendarName ?? "Imported", events: first.events, now: ICal.now)
            let second = try CalendarImport.read(Data(text.utf8), defaultZone: ICal.rome, now: ICal.now)
            #expect(second.skipped.isEmpty, "\(path): \(second.skipped)")
            #expect(second.events.count == first.events.count, "\(path)")
            let near = ICal.differences(first, second, from: ICal.now - year, to: ICal.now + 2 * year)
            let all = ICal.differences(first, second, from: ICal.utc("1990-01-01T00:00:00Z"), to: ICal.now + 2 * year)
            #expect(near.isEmpty && all.isEmpty, "\(path): \(all)")
            checked += 1
        }
        #expect(checked == 81)
    }
}
