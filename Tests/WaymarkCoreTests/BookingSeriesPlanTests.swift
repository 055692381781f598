import Foundation
import Testing
import WaymarkCore

/// PRK-12, UniPark's "every Tuesday 11:00–21:00 until June": which ranges a weekly booking makes.
@Suite("Weekly booking plans (PRK-12)")
struct BookingSeriesPlanTests {
    static let pacific = TimeZone(identifier: "America/Los_Angeles")!
    static func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int) -> Date {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = pacific
        return c.date(from: DateComponents(year: y, month: m, day: d, hour: h))!
    }
    static let now = local(2027, 2, 20, 9)
    static let english = Locale(identifier: "en_US")

    /// ICU puts a narrow no-break space before AM/PM; a reader sees a space.
    func words(_ plan: BookingSeriesPlan) -> String {
        plan.words(zone: Self.pacific, locale: Self.english).replacingOccurrences(of: "\u{202F}", with: " ")
    }

    func problem(_ plan: BookingSeriesPlan) -> BookingSeriesPlan.Problem? {
        do throws(BookingSeriesPlan.Problem) { _ = try plan.occurrences(zone: Self.pacific, now: Self.now); return nil } catch { return error }
    }

    @Test("PRK-12 every Tuesday 11:00–21:00 stays 11:00–21:00 on the site's clock across the start of daylight saving time")
    func wallClockAcrossDST() throws {
        // Daylight saving time starts on Sunday 14 March 2027 in California.
        let plan = BookingSeriesPlan(first: BookingRange(start: Self.local(2027, 3, 2, 11), end: Self.local(2027, 3, 2, 21)),
                                     weekdays: [3], until: LocalDay(year: 2027, month: 3, day: 23)!)
        let ranges = try plan.occurrences(zone: Self.pacific, now: Self.now)
        #expect(ranges.map(\.start) == [2, 9, 16, 23].map { Self.local(2027, 3, $0, 11) })
        #expect(ranges.map(\.end) == [2, 9, 16, 23].map { Self.local(2027, 3, $0, 21) })
        #expect(ranges[2].start.timeIntervalSince(ranges[1].start) == 7 * 86_400 - 3_600, "a week with an hour less")
        #expect(words(plan) == "Every Tuesday, 11:00 AM – 9:00 PM, until Tue, Mar 23, 2027")
    }

    @Test("PRK-12 several weekdays, the until day included, nothing before the first booking")
    func severalDays() throws {
        // First on a Thursday; Tuesdays and Thursdays until Tuesday 16 March.
        let plan = BookingSeriesPlan(first: BookingRange(start: Self.local(2027, 3, 4, 8), end: Self.local(2027, 3, 4, 12)),
                                     weekdays: [5, 3], until: LocalDay(year: 2027, month: 3, day: 16)!)
        let ranges = try plan.occurrences(zone: Self.pacific, now: Self.now)
        #expect(ranges.map(\.start) == [4, 9, 11, 16].map { Self.local(2027, 3, $0, 8) })
        #expect(words(plan).hasPrefix("Every Tuesday and Thursday, 8:00 AM"))
        let german = plan.words(zone: Self.pacific, locale: Locale(identifier: "de_DE"))
        #expect(german.contains("08:00") && german.contains("Dienstag"), "\(german)")
    }

    @Test("PRK-12 a plan that cannot be booked says why")
    func problems() {
        let first = BookingRange(start: Self.local(2027, 3, 2, 11), end: Self.local(2027, 3, 2, 21))
        let march = LocalDay(year: 2027, month: 3, day: 30)!
        #expect(problem(BookingSeriesPlan(first: first, weekdays: [], until: march)) == .noWeekdays)
        #expect(problem(BookingSeriesPlan(first: first, weekdays: [0, 3], until: march)) == .weekdayOutOfRange)
        #expect(problem(BookingSeriesPlan(first: first, weekdays: [4], until: march)) == .firstNotOnWeekday(3))
        #expect(problem(BookingSeriesPlan(first: first, weekdays: [3], until: LocalDay(year: 2027, month: 3, day: 1)!)) == .endsBeforeFirst)
        let reach = problem(BookingSeriesPlan(first: first, weekdays: [3], until: LocalDay(year: 2027, month: 12, day: 1)!))
        #expect(reach == .tooFarAhead(lastDay: LocalDay(year: 2027, month: 9, day: 8)!), "200 days after Feb 20")
        #expect(reach?.words(locale: Self.english).contains("end it by Wed, Sep 8, 2027") == true)
        let daily = problem(BookingSeriesPlan(first: first, weekdays: Array(1...7), until: LocalDay(year: 2027, month: 6, day: 1)!))
        #expect(daily == .tooMany(92))
        #expect(problem(BookingSeriesPlan(first: first, weekdays: [3], until: march)) == nil)
    }
}
