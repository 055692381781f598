import Foundation
import Testing
import WaymarkCore

/// PRK-12: a booking is priced from the lot's fees and must fit its opening hours.
@Suite("Booking prices (PRK-12)")
struct PricingTests {
    static let bogota = TimeZone(identifier: "America/Bogota")!
    static let la = TimeZone(identifier: "America/Los_Angeles")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// A wall-clock time in `zone`.
    static func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int = 0, in zone: TimeZone = bogota) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!
    }

    static func range(_ start: Date, minutes: Int) -> BookingRange {
        BookingRange(start: start, end: start.addingTimeInterval(TimeInterval(minutes * 60)))
    }

    /// Long before every booking below.
    static let now = at(2025, 1, 1, 0)

    func quote(_ pricing: LotPricing, _ range: BookingRange, _ zone: TimeZone = bogota) throws -> PriceQuote {
        try pricing.quote(for: range, in: zone, now: Self.now)
    }

    func error(_ pricing: LotPricing, _ range: BookingRange, _ zone: TimeZone = bogota, now: Date = now) -> PricingError? {
        do { _ = try pricing.quote(for: range, in: zone, now: now); return nil } catch { return error }
    }

    // MARK: Fees

    @Test("PRK-12: a per-minute rate charges every booked minute, in integer minor units")
    func prk12PerMinute() throws {
        let pricing = LotPricing(currency: "COP", rateMinor: 110_00)
        // Tuesday 11:00–21:00, the seed's example booking.
        let q = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 11), end: Self.at(2025, 3, 4, 21)))
        #expect(q.total == Money(600 * 110_00, "COP"))
        #expect(q.days.count == 1)
        #expect(q.days[0].minutes == 600)
        #expect(q.days[0].chargedUnits == 600)
        // One minute more is one rate more: nothing is rounded to hours.
        let longer = try quote(pricing, Self.range(Self.at(2025, 3, 4, 11), minutes: 601))
        #expect(longer.total.minorUnits - q.total.minorUnits == 110_00)
    }

    @Test("PRK-12: the daily fee is charged once per site-local day touched")
    func prk12DailyFeePerDay() throws {
        let pricing = LotPricing(currency: "COP", dailyFeeMinor: 12_000_00)
        let sameDay = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 6), end: Self.at(2025, 3, 4, 23, 59)))
        #expect(sameDay.total.minorUnits == 12_000_00)
        // Two hours across midnight touch two days.
        let overnight = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 23), end: Self.at(2025, 3, 5, 1)))
        #expect(overnight.total.minorUnits == 2 * 12_000_00)
        #expect(overnight.days.map(\.minutes) == [60, 60])
        // Ending exactly at midnight does not touch the next day.
        let toMidnight = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 22), end: Self.at(2025, 3, 5, 0)))
        #expect(toMidnight.total.minorUnits == 12_000_00)
        // Tuesday 10:00 to Friday 09:00 touches Tue, Wed, Thu, Fri.
        let multi = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 10), end: Self.at(2025, 3, 7, 9)))
        #expect(multi.total.minorUnits == 4 * 12_000_00)
        #expect(multi.days.map(\.minutes) == [840, 1440, 1440, 540])
    }

    @Test("PRK-12: the daily fee covers its included minutes; time beyond them is charged per minute")
    func prk12IncludedMinutes() throws {
        // UniPark: "the amount of time the daily fee covers ... and how much it costs per minute".
        let pricing = LotPricing(currency: "COP", dailyFeeMinor: 5_000_00, includedMinutesPerDay: 120, rateMinor: 60_00)
        let within = try quote(pricing, Self.range(Self.at(2025, 3, 4, 8), minutes: 120))
        #expect(within.total.minorUnits == 5_000_00)
        let beyond = try quote(pricing, Self.range(Self.at(2025, 3, 4, 8), minutes: 150))
        #expect(beyond.total.minorUnits == 5_000_00 + 30 * 60_00)
        // Each day has its own included minutes: 22:00–03:00 is 120 + 180 minutes, 60 charged on day two.
        let overnight = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 22), end: Self.at(2025, 3, 5, 3)))
        #expect(overnight.days.map(\.chargedUnits) == [0, 60])
        #expect(overnight.total.minorUnits == 2 * 5_000_00 + 60 * 60_00)
    }

    @Test("PRK-12: the daily cap limits each site-local day separately, fee included")
    func prk12DailyCap() throws {
        let pricing = LotPricing(currency: "USD", dailyFeeMinor: 200, rateMinor: 5, dailyCapMinor: 1_500)
        // 4 h: 200 + 240 × 5 = 1 400, under the cap.
        #expect(try quote(pricing, Self.range(Self.at(2025, 3, 4, 8), minutes: 240)).total.minorUnits == 1_400)
        // 5 h: 200 + 1 500 = 1 700, capped.
        #expect(try quote(pricing, Self.range(Self.at(2025, 3, 4, 8), minutes: 300)).total.minorUnits == 1_500)
        // 20:00 to 01:00 next day: 200 + 240×5 = 1 400 and 200 + 60×5 = 500; neither reaches the cap.
        let overnight = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 20), end: Self.at(2025, 3, 5, 1)))
        #expect(overnight.days.map(\.total.minorUnits) == [1_400, 500])
        // Three whole days and a bit: three capped days plus 200 + 30 × 5.
        let long = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 0), end: Self.at(2025, 3, 7, 0, 30)))
        #expect(long.total.minorUnits == 3 * 1_500 + 350)
        #expect(long.total.minorUnits == long.days.reduce(0) { $0 + $1.total.minorUnits })
    }

    @Test("PRK-12: rate units count from the booking's start, so 23:30–00:30 is one started hour, not two")
    func prk12UnitsFromStart() throws {
        let hourly = LotPricing(currency: "USD", rateMinor: 400, rateUnitMinutes: 60)
        let q = try quote(hourly, BookingRange(start: Self.at(2025, 3, 4, 23, 30), end: Self.at(2025, 3, 5, 0, 30)))
        #expect(q.total.minorUnits == 400)
        #expect(q.days.map(\.chargedUnits) == [1, 0])
        // Started hours: 61 minutes are two.
        #expect(try quote(hourly, Self.range(Self.at(2025, 3, 4, 9), minutes: 61)).total.minorUnits == 800)
        #expect(try quote(hourly, Self.range(Self.at(2025, 3, 4, 9), minutes: 60)).total.minorUnits == 400)
    }

    @Test("PRK-12: the stored LotPrice maps onto the booking tariff and agrees with it within a day")
    func prk12StoredLotPrice() throws {
        let stored = LotPrice(currency: "USD", hourlyCents: 400, dailyMaxCents: 1_000)
        let pricing = LotPricing(stored, hours: [])
        for minutes in 1...(24 * 60 - 6 * 60) {
            let q = try quote(pricing, Self.range(Self.at(2025, 3, 4, 6), minutes: minutes), Self.la)
            #expect(q.total.minorUnits == stored.cents(forMinutes: minutes), "\(minutes) min")
        }
        // Across midnight the cap is per local day: 22:00–02:00 is 2 h + 2 h, not one 4-hour stretch.
        let overnight = try quote(pricing, BookingRange(start: Self.at(2025, 3, 4, 22, in: Self.la), end: Self.at(2025, 3, 5, 2, in: Self.la)), Self.la)
        #expect(overnight.total.minorUnits == 800 + 800)
    }

    @Test("PRK-12: every demo lot can be priced from its stored price and hours")
    func prk12DemoLots() throws {
        let zone = TimeZone(identifier: DemoCampus.fullerton.timeZone)!
        // Wednesday 10:00–12:00 is inside every demo lot's hours.
        let range = BookingRange(start: Self.at(2025, 3, 5, 10, in: zone), end: Self.at(2025, 3, 5, 12, in: zone))
        for lot in DemoCampus.fullerton.lots {
            let pricing = LotPricing(lot.price, hours: lot.hours)
            #expect(pricing.problem == nil, "\(lot.code)")
            #expect(try pricing.price(for: range, in: zone, now: Self.now) == Money(800, "USD"), "\(lot.code)")
        }
        // A lot open Monday to Saturday only refuses a Sunday.
        let closedSunday = try #require(DemoCampus.fullerton.lots.first { lot in
            !lot.hours.isEmpty && !lot.hours.contains { $0.weekdays.contains(1) }
        })
        let sunday = BookingRange(start: Self.at(2025, 3, 9, 10, in: zone), end: Self.at(2025, 3, 9, 12, in: zone))
        #expect(error(LotPricing(closedSunday.price, hours: closedSunday.hours), sunday, zone) == .closed(at: sunday.start))
    }

    @Test("PRK-12: a free lot costs zero, and a week at one minor unit a minute is exactly 10 080")
    func prk12Extremes() throws {
        #expect(try quote(LotPricing(currency: "EUR"), Self.range(Self.at(2025, 3, 4, 8), minutes: 90)).total == .zero("EUR"))
        let week = try quote(LotPricing(currency: "EUR", rateMinor: 1), Self.range(Self.at(2025, 3, 3, 0), minutes: 7 * 1440))
        #expect(week.total.minorUnits == 10_080)
        #expect(week.days.count == 7)
    }

    // MARK: Time zones and DST

    @Test("PRK-12: days are the site's days: the same instants touch different days in Bogotá and Tokyo")
    func prk12SiteLocalDays() throws {
        let pricing = LotPricing(currency: "USD", dailyFeeMinor: 1_000)
        // 2025-03-04 20:00–23:00 in Bogotá (UTC−5) is 10:00–13:00 on the 5th in Tokyo (UTC+9): one day each.
        let r = BookingRange(start: Self.at(2025, 3, 4, 20), end: Self.at(2025, 3, 4, 23))
        #expect(try quote(pricing, r, Self.bogota).total.minorUnits == 1_000)
        #expect(try quote(pricing, r, Self.tokyo).total.minorUnits == 1_000)
        // 2025-03-04 08:00–12:00 in Bogotá is 22:00–02:00 in Tokyo: two days there.
        let r2 = BookingRange(start: Self.at(2025, 3, 4, 8), end: Self.at(2025, 3, 4, 12))
        #expect(try quote(pricing, r2, Self.bogota).total.minorUnits == 1_000)
        #expect(try quote(pricing, r2, Self.tokyo).total.minorUnits == 2_000)
    }

    @Test("PRK-12: on DST days per-minute charges count real minutes and the fee counts the day once")
    func prk12DaylightSaving() throws {
        let pricing = LotPricing(currency: "USD", dailyFeeMinor: 100, rateMinor: 1)
        // Spring forward 2025-03-09: 00:00–04:00 on the wall is three real hours.
        let spring = try quote(pricing, BookingRange(start: Self.at(2025, 3, 9, 0, in: Self.la), end: Self.at(2025, 3, 9, 4, in: Self.la)), Self.la)
        #expect(spring.total.minorUnits == 100 + 180)
        #expect(spring.days.count == 1)
        // Fall back 2025-11-02: 00:00–04:00 on the wall is five real hours.
        let fall = try quote(pricing, BookingRange(start: Self.at(2025, 11, 2, 0, in: Self.la), end: Self.at(2025, 11, 2, 4, in: Self.la)), Self.la)
        #expect(fall.total.minorUnits == 100 + 300)
        #expect(fall.days.count == 1)
        // The whole fall-back day has 1 500 minutes.
        let day = try quote(pricing, BookingRange(start: Self.at(2025, 11, 2, 0, in: Self.la), end: Self.at(2025, 11, 3, 0, in: Self.la)), Self.la)
        #expect(day.days.map(\.minutes) == [1_500])
    }

    @Test("PRK-12: opening hours are wall-clock: the skipped hour of spring forward is never closed, both 1 a.m. hours of fall back are checked")
    func prk12HoursOnDSTDays() throws {
        // Closed 02:00–03:00 every day.
        let hours = [OpeningHours(weekdays: OpeningHours.everyDay, openMinute: 0, closeMinute: 120),
                     OpeningHours(weekdays: OpeningHours.everyDay, openMinute: 180, closeMinute: 1440)]
        let pricing = LotPricing(currency: "USD", rateMinor: 1, hours: hours)
        // Spring forward: 01:00 PST to 04:00 PDT never shows 02:xx on the wall.
        let spring = BookingRange(start: Self.at(2025, 3, 9, 1, in: Self.la), end: Self.at(2025, 3, 9, 4, in: Self.la))
        #expect(error(pricing, spring, Self.la) == nil)
        // An ordinary day, same wall times: closed at 02:00.
        let ordinary = BookingRange(start: Self.at(2025, 3, 16, 1, in: Self.la), end: Self.at(2025, 3, 16, 4, in: Self.la))
        #expect(error(pricing, ordinary, Self.la) == .closed(at: Self.at(2025, 3, 16, 2, in: Self.la)))

        // Open only 00:00–01:30 on 2 November: the second 01:00–01:30 is inside, 01:30 PDT is not.
        let early = LotPricing(currency: "USD", hours: [OpeningHours(weekdays: [1], openMinute: 0, closeMinute: 90)])
        let firstOne = Self.at(2025, 11, 2, 0, in: Self.la).addingTimeInterval(3_600) // 01:00 PDT
        let closedAt = firstOne.addingTimeInterval(1_800)                          // 01:30 PDT
        #expect(error(early, BookingRange(start: firstOne, end: closedAt), Self.la) == nil)
        #expect(error(early, BookingRange(start: firstOne, end: closedAt.addingTimeInterval(60)), Self.la) == .closed(at: closedAt))
        // 01:00–01:30 PST, an hour later in real time, is open again.
        let secondOne = firstOne.addingTimeInterval(3_600)
        #expect(error(early, BookingRange(start: secondOne, end: secondOne.addingTimeInterval(1_800)), Self.la) == nil)
    }

    // MARK: Opening hours

    @Test("PRK-12: a booking must lie within opening hours; the error names the first closed instant")
    func prk12OpeningHours() {
        // Monday–Friday 06:00–22:00, Saturday 07:00–18:00, closed Sunday.
        let pricing = LotPricing(currency: "USD", rateMinor: 1, hours: [
            OpeningHours(weekdays: [2, 3, 4, 5, 6], openMinute: 6 * 60, closeMinute: 22 * 60),
            OpeningHours(weekdays: [7], openMinute: 7 * 60, closeMinute: 18 * 60),
        ])
        // Tuesday 2025-03-04.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 6), end: Self.at(2025, 3, 4, 22))) == nil)
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 5, 59), end: Self.at(2025, 3, 4, 8))) == .closed(at: Self.at(2025, 3, 4, 5, 59)))
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 20), end: Self.at(2025, 3, 4, 22, 1))) == .closed(at: Self.at(2025, 3, 4, 22)))
        // Over night into Wednesday: closed from 22:00.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 21), end: Self.at(2025, 3, 5, 7))) == .closed(at: Self.at(2025, 3, 4, 22)))
        // Saturday afternoon past 18:00; Sunday at all.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 8, 17), end: Self.at(2025, 3, 8, 19))) == .closed(at: Self.at(2025, 3, 8, 18)))
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 9, 10), end: Self.at(2025, 3, 9, 11))) == .closed(at: Self.at(2025, 3, 9, 10)))
    }

    @Test("PRK-12: hours past midnight are written as two spans, and touching spans join")
    func prk12SpansJoin() {
        // Open 18:00 to 02:00 every night, written per day; and a day split at noon.
        let pricing = LotPricing(currency: "USD", rateMinor: 1, hours: [
            OpeningHours(weekdays: OpeningHours.everyDay, openMinute: 0, closeMinute: 120),
            OpeningHours(weekdays: OpeningHours.everyDay, openMinute: 18 * 60, closeMinute: 1440),
            OpeningHours(weekdays: [3], openMinute: 12 * 60, closeMinute: 18 * 60),
            OpeningHours(weekdays: [3], openMinute: 6 * 60, closeMinute: 12 * 60),
        ])
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 20), end: Self.at(2025, 3, 5, 2))) == nil)
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 20), end: Self.at(2025, 3, 5, 2, 1))) == .closed(at: Self.at(2025, 3, 5, 2)))
        // Tuesday (3): 06:00 through midnight to 02:00 is open without a gap.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 4, 6), end: Self.at(2025, 3, 5, 2))) == nil)
        // Wednesday (4) has no daytime span.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 5, 1), end: Self.at(2025, 3, 5, 3))) == .closed(at: Self.at(2025, 3, 5, 2)))
    }

    @Test("PRK-12: no hours means never closed")
    func prk12NoHoursMeansOpen() {
        let pricing = LotPricing(currency: "USD", rateMinor: 1)
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 9, 0), end: Self.at(2025, 3, 12, 0))) == nil)
    }

    // MARK: Invalid ranges

    @Test("PRK-12: a booking must end after it starts")
    func prk12EndAfterStart() {
        let pricing = LotPricing(currency: "USD", rateMinor: 1)
        let t = Self.at(2025, 3, 4, 10)
        #expect(error(pricing, BookingRange(start: t, end: t)) == .endNotAfterStart)
        #expect(error(pricing, BookingRange(start: t, end: t.addingTimeInterval(-60))) == .endNotAfterStart)
        #expect(error(pricing, BookingRange(start: t, end: t.addingTimeInterval(60))) == nil)
    }

    @Test("PRK-12: a booking lasts at most seven days by default, or the lot's own maximum")
    func prk12MaximumDuration() {
        let pricing = LotPricing(currency: "USD", rateMinor: 1)
        let t = Self.at(2025, 3, 4, 10)
        #expect(error(pricing, Self.range(t, minutes: 7 * 1440)) == nil)
        #expect(error(pricing, Self.range(t, minutes: 7 * 1440 + 1)) == .tooLong(maximum: 7 * 86_400))
        var short = pricing
        short.maximumDuration = 4 * 3_600
        #expect(error(short, Self.range(t, minutes: 240)) == nil)
        #expect(error(short, Self.range(t, minutes: 241)) == .tooLong(maximum: 4 * 3_600))
        #expect(PricingError.tooLong(maximum: 4 * 3_600).description.contains("240 minutes"))
        #expect(PricingError.tooLong(maximum: 7 * 86_400).description.contains("7 days"))
    }

    @Test("PRK-12: a booking cannot start before now; starting exactly now is allowed")
    func prk12NotInPast() {
        let pricing = LotPricing(currency: "USD", rateMinor: 1)
        let now = Self.at(2025, 3, 4, 10)
        #expect(error(pricing, Self.range(now.addingTimeInterval(-60), minutes: 60), now: now) == .startsInPast)
        #expect(error(pricing, Self.range(now, minutes: 60), now: now) == nil)
        // `now` itself need not be on a whole minute.
        #expect(error(pricing, Self.range(now, minutes: 60), now: now.addingTimeInterval(0.5)) == .startsInPast)
    }

    @Test("PRK-12: bookings start and end on whole minutes")
    func prk12WholeMinutes() {
        let pricing = LotPricing(currency: "USD", rateMinor: 1)
        let t = Self.at(2025, 3, 4, 10)
        #expect(error(pricing, BookingRange(start: t.addingTimeInterval(30), end: t.addingTimeInterval(3_600))) == .notWholeMinutes)
        #expect(error(pricing, BookingRange(start: t, end: t.addingTimeInterval(3_600.5))) == .notWholeMinutes)
    }

    @Test("PRK-12: the most basic problem is reported first")
    func prk12ErrorOrder() {
        let pricing = LotPricing(currency: "USD", rateMinor: 1, hours: [OpeningHours(weekdays: [2], openMinute: 0, closeMinute: 60)])
        let now = Self.at(2025, 3, 4, 10)
        // Reversed, in the past and closed: reversed wins.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 3, 10), end: Self.at(2025, 3, 3, 9)), now: now) == .endNotAfterStart)
        // In the past, too long and closed: the past wins.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 3, 10), end: Self.at(2025, 3, 13, 9)), now: now) == .startsInPast)
        // Too long and closed: too long wins.
        #expect(error(pricing, BookingRange(start: Self.at(2025, 3, 5, 10), end: Self.at(2025, 3, 15, 9)), now: now) == .tooLong(maximum: 7 * 86_400))
    }

    @Test("PRK-12: a misconfigured tariff is refused with a reason")
    func prk12InvalidTariff() {
        let r = Self.range(Self.at(2025, 3, 4, 10), minutes: 60)
        let bad: [LotPricing] = [
            LotPricing(currency: "usd", rateMinor: 1),
            LotPricing(currency: "US", rateMinor: 1),
            LotPricing(currency: "USD", rateMinor: -1),
            LotPricing(currency: "USD", dailyFeeMinor: -5),
            LotPricing(currency: "USD", rateMinor: 1, rateUnitMinutes: 0),
            LotPricing(currency: "USD", includedMinutesPerDay: -1),
            LotPricing(currency: "USD", dailyFeeMinor: 500, dailyCapMinor: 400),
            LotPricing(currency: "USD", rateMinor: LotPricing.maximumAmountMinor + 1),
            LotPricing(currency: "USD", hours: [OpeningHours(weekdays: [8], openMinute: 0, closeMinute: 60)]),
            LotPricing(currency: "USD", hours: [OpeningHours(weekdays: [2], openMinute: 600, closeMinute: 600)]),
            LotPricing(currency: "USD", maximumDuration: 0),
        ]
        for pricing in bad {
            #expect(pricing.problem != nil, "\(pricing)")
            guard case .invalidTariff(let why)? = error(pricing, r) else {
                Issue.record("expected invalidTariff for \(pricing)")
                continue
            }
            #expect(why == pricing.problem)
        }
        #expect(LotPricing(currency: "COP", dailyFeeMinor: 500, rateMinor: 1, dailyCapMinor: 500).problem == nil)
    }

    @Test("PRK-12: pricing errors read as sentences")
    func prk12ErrorText() {
        let errors: [PricingError] = [.invalidTariff("x"), .notWholeMinutes, .endNotAfterStart, .startsInPast,
                                      .tooLong(maximum: 86_400), .closed(at: Date(timeIntervalSince1970: 0))]
        for e in errors { #expect(e.description.hasSuffix(".") || e.description.hasSuffix("x")) }
        // Logs read it in UTC, in words (`ParkingWordsTests` checks the site's clock).
        #expect(PricingError.closed(at: Date(timeIntervalSince1970: 0)).description.contains("Thu, Jan 1"))
    }
}
