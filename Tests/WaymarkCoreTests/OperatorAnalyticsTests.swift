import Foundation
import Testing
import WaymarkCore

@Suite("Operator analytics (PRK-17)")
struct OperatorAnalyticsTests {
    static let zone = TimeZone(identifier: "America/Los_Angeles")!

    /// A wall-clock time in Los Angeles, 2026.
    static func la(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
    }

    static func fact(_ user: String, _ lot: String = "L", start: Date, created: Date? = nil, mods: Int = 0,
                     cancelled: Bool = false) -> OperatorAnalytics.BookingFact {
        .init(userId: user, lotId: lot, start: start, createdAt: created ?? start.addingTimeInterval(-3600),
              modifications: mods, cancelled: cancelled)
    }

    @Test("PRK-17 local days parse strictly, print back and count across months and leap years")
    func localDays() throws {
        let day = try #require(LocalDay("2026-11-18"))
        #expect(day.description == "2026-11-18")
        #expect(day.adding(days: 13).description == "2026-12-01")
        #expect(LocalDay("2028-02-29")?.adding(days: 1).description == "2028-03-01")
        #expect(LocalDay("1970-01-01")?.number == 0)
        for bad in ["2026-02-29", "2026-13-01", "2026-11-31", "26-11-18", "2026-1-18", "2026-11-18T00", "２０２６-11-18", "", "2026-00-10"] {
            #expect(LocalDay(bad) == nil, "\(bad)")
        }
    }

    @Test("PRK-17 the day and minute follow the site's wall clock on both DST change days")
    func dstDays() throws {
        // 2026-11-01: Los Angeles falls back at 02:00 PDT; 01:30 happens twice, the day has 25 hours.
        let beforeMidnight = Self.la(10, 31, 23, 59)
        #expect(LocalDay(containing: beforeMidnight, timeZone: Self.zone).description == "2026-10-31")
        let lastOfDay = Self.la(11, 1, 23, 59)
        #expect(LocalDay(containing: lastOfDay, timeZone: Self.zone).description == "2026-11-01")
        #expect(LocalDay.minuteOfDay(Self.la(11, 1, 7, 0), timeZone: Self.zone) == 420)
        // 2026-03-08: springs forward at 02:00; the day has 23 hours and 06:30 is still 06:30.
        #expect(LocalDay.minuteOfDay(Self.la(3, 8, 6, 30), timeZone: Self.zone) == 390)
        #expect(LocalDay(containing: Self.la(3, 8, 0, 0), timeZone: Self.zone).description == "2026-03-08")
        #expect(LocalDay(containing: Self.la(3, 8, 0, 0).addingTimeInterval(-1), timeZone: Self.zone).description == "2026-03-07")
        // The same UTC instant is another day in another zone.
        let utcMorning = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 ~11:06 UTC
        #expect(LocalDay(containing: utcMorning, timeZone: TimeZone(identifier: "UTC")!).description == "2026-11-18")
        #expect(LocalDay(containing: utcMorning, timeZone: Self.zone).description == "2026-11-18")
        #expect(LocalDay(containing: utcMorning, timeZone: TimeZone(identifier: "Pacific/Kiritimati")!).description == "2026-11-19")
    }

    @Test("PRK-17 a range is at most 92 days and never backwards")
    func ranges() throws {
        let from = try #require(LocalDay("2026-11-01"))
        #expect(try OperatorAnalytics.days(from: from, to: from).get().count == 1)
        #expect(try OperatorAnalytics.days(from: from, to: from.adding(days: 91)).get().count == 92)
        #expect(OperatorAnalytics.days(from: from, to: from.adding(days: 92)) == .failure(.tooLong(92)))
        #expect(OperatorAnalytics.days(from: from, to: from.adding(days: -1)) == .failure(.reversed))
    }

    @Test("PRK-17 the reserving share counts distinct bookers per local day of booking, never above 1")
    func reservingShare() throws {
        let d17 = try #require(LocalDay("2026-11-17")), d18 = d17.adding(days: 1), d19 = d17.adding(days: 2)
        let bookings = [
            Self.fact("a", start: Self.la(11, 20, 8), created: Self.la(11, 17, 23, 30)),
            Self.fact("a", start: Self.la(11, 21, 8), created: Self.la(11, 17, 23, 45)), // same person, same day: once
            Self.fact("b", start: Self.la(11, 20, 8), created: Self.la(11, 18, 0, 15)), // 08:15 UTC on the 18th, still the 18th locally
            Self.fact("erased-x", start: Self.la(11, 20, 8), created: Self.la(11, 19, 10)),
        ]
        let shares = OperatorAnalytics.reservingShare(days: [d17, d18, d19], activeUsers: [d17: 4, d18: 2], bookings: bookings, timeZone: Self.zone)
        #expect(shares.map(\.bookingUsers) == [1, 1, 1])
        #expect(shares.map(\.activeUsers) == [4, 2, 1], "a booker with no recorded activity still counts as active")
        #expect(shares.map(\.share) == [0.25, 0.5, 1])
        let empty = OperatorAnalytics.reservingShare(days: [d17], activeUsers: [:], bookings: [], timeZone: Self.zone)
        #expect(empty == [.init(day: d17, activeUsers: 0, bookingUsers: 0, share: 0)])
    }

    @Test("PRK-17 peak lots: starts from 06:30 up to 09:30 site-local count, 06:29 and 09:30 do not, on a DST day too")
    func peakLots() throws {
        let days = try #require(LocalDay("2026-10-30"))...(try #require(LocalDay("2026-11-02")))
        let bookings = [
            Self.fact("a", "L", start: Self.la(11, 2, 6, 30)),
            Self.fact("b", "L", start: Self.la(11, 2, 9, 29)),
            Self.fact("c", "L", start: Self.la(11, 2, 9, 30)),
            Self.fact("d", "L", start: Self.la(11, 2, 6, 29)),
            Self.fact("e", "S", start: Self.la(11, 1, 7, 0)), // the fall-back day: 07:00 PST is 15:00 UTC
            Self.fact("f", "S", start: Self.la(10, 31, 8, 0)), // the day before: 08:00 PDT is 15:00 UTC too
            Self.fact("g", "S", start: Self.la(11, 1, 8, 0), cancelled: true),
            Self.fact("h", "T", start: Self.la(11, 3, 7, 0)), // outside the days asked for
            Self.fact("i", "T", start: Self.la(10, 29, 23, 0).addingTimeInterval(8 * 3600)), // 07:00 on the 30th
        ]
        let ranked = OperatorAnalytics.peakLots(days: days, bookings: bookings, timeZone: Self.zone)
        #expect(ranked == [.init(lotId: "L", bookings: 2), .init(lotId: "S", bookings: 2), .init(lotId: "T", bookings: 1)])
        #expect(!OperatorAnalytics.isPeak(Self.la(11, 1, 6, 30).addingTimeInterval(-1), timeZone: Self.zone))
        // 06:30 UTC is 22:30 the evening before in Los Angeles: UTC hours must not leak in.
        #expect(!OperatorAnalytics.isPeak(Date(timeIntervalSince1970: 1_795_069_800), timeZone: Self.zone))
    }

    @Test("PRK-17 modifications: the mean and the 0/1/2/3+ distribution of bookings made on the days asked for")
    func modifications() throws {
        let days = try #require(LocalDay("2026-11-18"))...(try #require(LocalDay("2026-11-18")))
        let start = Self.la(11, 25, 8)
        let m = OperatorAnalytics.modifications(days: days, bookings: [
            Self.fact("a", start: start, created: Self.la(11, 18, 9), mods: 0),
            Self.fact("b", start: start, created: Self.la(11, 18, 10), mods: 1),
            Self.fact("c", start: start, created: Self.la(11, 18, 11), mods: 2),
            Self.fact("d", start: start, created: Self.la(11, 18, 12), mods: 5, cancelled: true),
            Self.fact("e", start: start, created: Self.la(11, 19, 0, 0), mods: 7),
        ], timeZone: Self.zone)
        #expect(m == .init(bookings: 4, total: 8, mean: 2, never: 1, once: 1, twice: 1, threeOrMore: 1))
        let none = OperatorAnalytics.modifications(days: days, bookings: [], timeZone: Self.zone)
        #expect(none.mean == 0 && none.bookings == 0)
    }

    @Test("PRK-17 latency: nearest-rank percentiles over a bounded reservoir, slowest operations first")
    func latency() {
        var r = LatencyReservoir(capacity: 100)
        for i in 1...100 { r.record(seconds: Double(i) / 1000) }
        let s = LatencySummary.summarize("getThing", r)
        #expect(s.count == 100 && s.p50 == 0.05 && s.p95 == 0.095 && s.p99 == 0.099)
        for _ in 0..<100 { r.record(seconds: 1) }
        #expect(r.kept.count == 100, "the reservoir keeps only its capacity")
        #expect(r.count == 200)
        #expect(LatencySummary.summarize("getThing", r).p50 == 1, "old durations make way for new ones")

        var fast = LatencyReservoir(), slow = LatencyReservoir(), tail = LatencyReservoir()
        for _ in 0..<20 { fast.record(seconds: 0.001) }
        for _ in 0..<20 { slow.record(seconds: 0.2) }
        for i in 0..<20 { tail.record(seconds: i == 19 ? 3 : 0.002) }
        let ranked = LatencySummary.slowestFirst(["fast": fast, "slow": slow, "tail": tail, "idle": LatencyReservoir()], limit: 10)
        #expect(ranked.map(\.operation) == ["slow", "tail", "fast"], "by the 95th percentile; operations never called are left out")
        #expect(ranked[1].p99 == 3, "one slow request in twenty shows in the 99th percentile")
        #expect(LatencySummary.slowestFirst(["fast": fast, "slow": slow], limit: 1).map(\.operation) == ["slow"])
        #expect(LatencySummary.percentile(99, ofSorted: []) == 0)
    }
}
