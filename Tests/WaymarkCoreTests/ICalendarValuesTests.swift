import Foundation
import Testing
import WaymarkCore

/// PLN-10: iCalendar values (DATE, DATE-TIME, DURATION, PERIOD, GEO, UTC-OFFSET) and the
/// repeat-rule expander, checked against dates worked out by hand and RFC 5545's own examples.
@Suite("iCalendar values and repeat rules (PLN-10)")
struct ICalendarValuesTests {
    static func days(_ rule: String, first: String, through: String = "2030-12-31", last: String? = nil) throws -> [String] {
        try RecurrenceRule(rule).days(first: ICal.day(first), last: last.map(ICal.day), through: ICal.day(through)).map(\.description)
    }

    @Test("PLN-10: DATE and DATE-TIME values: local, UTC, and invalid ones refused")
    func pln10DateTimes() throws {
        let local = try #require(ICalendarDateTime("20261127T093015"))
        #expect(local.day == ICal.day("2026-11-27") && local.second == 9 * 3600 + 30 * 60 + 15 && !local.isUTC && !local.isDate)
        #expect(local.wallTime == ICal.wall("2026-11-27T09:30"))
        let utc = try #require(ICalendarDateTime("20261127T083000Z"))
        #expect(utc.isUTC && utc.instant(in: ICal.rome) == ICal.utc("2026-11-27T08:30:00Z") && utc.description == "20261127T083000Z")
        #expect(ICalendarDateTime("20261127")?.isDate == true)
        #expect(local.instant(in: ICal.rome) == ICal.utc("2026-11-27T08:30:15Z"))
        for bad in ["2026112", "20261327", "20260230", "20261127T250000", "20261127T0930", "20261127T093000X", "2026-11-27", "INVALID-DATE", ""] {
            #expect(ICalendarDateTime(bad) == nil, "\(bad)")
        }
        #expect(ICalendarDateTime.utc(ICal.utc("1969-12-31T23:59:59Z")).description == "19691231T235959Z")
    }

    @Test("PLN-10: DURATION: hours and minutes, days, weeks, negative, and the long forms writers use")
    func pln10Durations() {
        #expect(ICalendarDuration("PT1H30M") == ICalendarDuration(seconds: 5_400))
        #expect(ICalendarDuration("P1D") == ICalendarDuration(days: 1))
        #expect(ICalendarDuration("-PT15M") == ICalendarDuration(seconds: -900))
        #expect(ICalendarDuration("P2W") == ICalendarDuration(days: 14))
        #expect(ICalendarDuration("P0DT0H10M0S") == ICalendarDuration(seconds: 600))
        #expect(ICalendarDuration("+P1DT2H") == ICalendarDuration(days: 1, seconds: 7_200))
        for bad in ["P", "PT", "1H", "P1H", "PT1D", "P1.5D", "PTH", "P1DT", ""] { #expect(ICalendarDuration(bad) == nil, "\(bad)") }
        #expect(ICalendarDuration.text(minutes: 90) == "PT1H30M" && ICalendarDuration.text(minutes: 1_440) == "P1D")
        #expect(ICalendarDuration.text(minutes: 15) == "PT15M" && ICalendarDuration.text(minutes: 60) == "PT1H")
    }

    @Test("PLN-10: PERIOD, GEO and UTC-OFFSET values")
    func pln10OtherValues() throws {
        let explicit = try #require(ICalendarPeriod("19970101T180000Z/19970102T070000Z"))
        #expect(explicit.length == .end(ICalendarDateTime("19970102T070000Z")!))
        #expect(ICalendarPeriod("19970101T180000Z/PT5H30M")?.length == .duration(ICalendarDuration(seconds: 19_800)))
        #expect(ICalendarPeriod("19970101/19970102") == nil && ICalendarPeriod("199709T180000Z/PT5H30M") == nil)
        #expect(ICalendarValues.coordinate("38.90;-77.01") == Coordinate(latitude: 38.9, longitude: -77.01))
        #expect(ICalendarValues.coordinate("91;0") == nil && ICalendarValues.coordinate("north") == nil)
        #expect(ICalendarValues.geoText(Coordinate(latitude: 45.464_2, longitude: 9.19)) == "45.4642;9.19")
        #expect(ICalendarValues.utcOffset("+0100") == 3_600 && ICalendarValues.utcOffset("-075258") == -(7 * 3600 + 52 * 60 + 58))
        #expect(ICalendarValues.utcOffset("0100") == nil && ICalendarValues.utcOffset("+2500") == nil)
        #expect(ICalendarValues.utcOffsetText(-16_200) == "-0430")
    }

    @Test("PLN-10: repeat rules are read leniently (case, spaces, empty parts) and refused when half understood")
    func pln10RuleReading() throws {
        let r = try RecurrenceRule("freq=daily; until=20150722T080000Z;INTERVAL=1;BYDAY=MO, TU, WE ;WKST=SU;")
        #expect(r.frequency == .daily && r.interval == 1 && r.until == ICalendarDateTime("20150722T080000Z") && r.weekStart == 1)
        #expect(r.byDay.map(\.weekday) == [2, 3, 4] && r.isWeekly)
        #expect(try RecurrenceRule("FREQ=MONTHLY;BYDAY=+2TU,-1FR").byDay == [.init(3, ordinal: 2), .init(6, ordinal: -1)])
        #expect(try RecurrenceRule("FREQ=MONTHLY;BYDAY=2TU;COUNT=3").text == "FREQ=MONTHLY;COUNT=3;BYDAY=2TU")
        for bad in ["BYDAY=MO", "FREQ=FORTNIGHTLY", "FREQ=DAILY;BYMONTH=13", "FREQ=DAILY;BYDAY=XX", "FREQ=DAILY;INTERVAL=0",
                    "FREQ=DAILY;COLOUR=RED", "FREQ=DAILY;BYMONTHDAY=0", "FREQ=DAILY;UNTIL=tomorrow", "FREQ=MONTHLY;BYDAY=0MO"] {
            #expect(throws: RecurrenceRule.Problem.self, "\(bad)") { try RecurrenceRule(bad) }
        }
        #expect(try RecurrenceRule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=SU").isWeekly == false)
        #expect(try RecurrenceRule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU").isWeekly == true)
        #expect(try RecurrenceRule("FREQ=DAILY;INTERVAL=2").isWeekly == false)
    }

    @Test("PLN-10: monthly rules: the 2nd Tuesday, the last Friday, the last day, day 31 only in long months")
    func pln10Monthly() throws {
        #expect(try Self.days("FREQ=MONTHLY;BYDAY=2TU;COUNT=6", first: "2026-01-13")
                == ["2026-01-13", "2026-02-10", "2026-03-10", "2026-04-14", "2026-05-12", "2026-06-09"])
        #expect(try Self.days("FREQ=MONTHLY;BYDAY=-1FR;COUNT=4", first: "2026-01-30")
                == ["2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24"])
        #expect(try Self.days("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4", first: "2026-01-31")
                == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        #expect(try Self.days("FREQ=MONTHLY;COUNT=4", first: "2026-01-31") == ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31"])
        // The last weekday of the month (RFC 5545's example of BYSETPOS).
        #expect(try Self.days("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3", first: "2026-01-30")
                == ["2026-01-30", "2026-02-27", "2026-03-31"])
        // Every other month on the 1st and 15th, until a day.
        #expect(try Self.days("FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,15", first: "2026-01-01", last: "2026-05-01")
                == ["2026-01-01", "2026-01-15", "2026-03-01", "2026-03-15", "2026-05-01"])
    }

    @Test("PLN-10: yearly rules: the last Sunday of March, 29 February in leap years, Friday the 13th")
    func pln10Yearly() throws {
        #expect(try Self.days("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", first: "2024-03-31", through: "2027-12-31")
                == ["2024-03-31", "2025-03-30", "2026-03-29", "2027-03-28"])
        #expect(try Self.days("FREQ=YEARLY", first: "2024-02-29", through: "2033-01-01") == ["2024-02-29", "2028-02-29", "2032-02-29"])
        #expect(try Self.days("FREQ=YEARLY;BYMONTH=1,7", first: "2026-01-15", through: "2027-12-31")
                == ["2026-01-15", "2026-07-15", "2027-01-15", "2027-07-15"])
        #expect(try Self.days("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;COUNT=3", first: "2026-02-13")
                == ["2026-02-13", "2026-03-13", "2026-11-13"])
        #expect(try Self.days("FREQ=YEARLY;BYDAY=20MO;COUNT=3", first: "2026-05-18") == ["2026-05-18", "2027-05-17", "2028-05-15"])
    }

    @Test("PLN-10: weekly rules follow WKST as RFC 5545's example shows; DTSTART always counts first")
    func pln10Weekly() throws {
        // RFC 5545, 3.3.10: the same rule gives different days with weeks starting Monday or Sunday.
        #expect(try Self.days("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", first: "1997-08-05")
                == ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"])
        #expect(try Self.days("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", first: "1997-08-05")
                == ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"])
        // DTSTART on a Wednesday, the rule on Mondays: DTSTART is the first of three.
        #expect(try Self.days("FREQ=WEEKLY;BYDAY=MO;COUNT=3", first: "2026-12-02") == ["2026-12-02", "2026-12-07", "2026-12-14"])
        #expect(try Self.days("FREQ=DAILY;INTERVAL=3;BYMONTH=12", first: "2026-12-28", through: "2028-01-02")
                == ["2026-12-28", "2026-12-31"] + Self.decemberEveryThird())
        // A rule that matches nothing ends, however far it is allowed to look.
        #expect(try RecurrenceRule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30").days(first: ICal.day("2026-01-01"), through: ICal.day("9999-12-31"))
                == [ICal.day("2026-01-01")])
    }

    /// Every third day from 28 December 2026 that falls in December 2027.
    static func decemberEveryThird() -> [String] {
        let start = ICal.day("2026-12-28")
        return stride(from: 0, through: 400, by: 3).map { start.adding(days: $0) }
            .filter { $0.components.year == 2027 && $0.components.month == 12 }.map(\.description)
    }

    @Test("PLN-10: rules Waymark cannot honour say why; those that only repeat DTSTART's time are fine")
    func pln10Unsupported() throws {
        let nine = 9 * 3600
        #expect(try RecurrenceRule("FREQ=MINUTELY").unsupportedReason(startSecond: nine) == "It repeats every minute, which Waymark cannot do.")
        #expect(try RecurrenceRule("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0").unsupportedReason(startSecond: nine) == nil)
        #expect(try RecurrenceRule("FREQ=DAILY;BYHOUR=9,10").unsupportedReason(startSecond: nine) != nil)
        #expect(try RecurrenceRule("FREQ=YEARLY;BYYEARDAY=100").unsupportedReason(startSecond: nine)
                == "It repeats on numbered days of the year (BYYEARDAY), which Waymark cannot do.")
        #expect(try RecurrenceRule("RSCALE=CHINESE;FREQ=YEARLY").unsupportedReason(startSecond: nine)
                == "It repeats by the Chinese calendar, which Waymark cannot follow.")
        #expect(try RecurrenceRule("FREQ=WEEKLY;BYDAY=2MO").unsupportedReason(startSecond: nine) != nil)
    }
}
