import Foundation
import Testing
import WaymarkCore

@Suite("Lots closed for dates (PRK-1)")
struct LotClosureCoreTests {
    static let la = TimeZone(identifier: "America/Los_Angeles")!
    static func at(_ d: Int, _ h: Int, _ mi: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = la
        return calendar.date(from: DateComponents(year: 2026, month: 12, day: d, hour: h, minute: mi))!
    }
    static let now = at(1, 9)
    static let resurfacing = LotClosure(id: "c1", lotId: "l", range: BookingRange(start: at(12, 8), end: at(14, 18)), reason: "Resurfacing")

    @Test("PRK-1 a booking that touches a closure is refused with its dates on the site's clock and its reason; one beside it is priced")
    func quoteRefusesClosedDates() throws {
        var pricing = LotPricing(currency: "USD", rateMinor: 100, rateUnitMinutes: 60)
        pricing.closures = [Self.resurfacing]
        let inside = BookingRange(start: Self.at(14, 17), end: Self.at(14, 19))
        #expect(throws: PricingError.closedForDates(Self.resurfacing)) { try pricing.quote(for: inside, in: Self.la, now: Self.now) }
        let words = PricingError.closedForDates(Self.resurfacing).words(zone: Self.la, locale: Locale(identifier: "en_US"))
        // The words and spaces between date and time are the locale data's ("Sat, Dec 12 at 8:00 AM").
        for part in ["The lot is closed Sat, Dec 12", "8:00", "Mon, Dec 14", "6:00", "(Resurfacing); choose other times or another lot."] {
            #expect(words.contains(part), "\(words)")
        }
        let after = BookingRange(start: Self.at(14, 18), end: Self.at(14, 20))
        #expect(try pricing.quote(for: after, in: Self.la, now: Self.now).total.minorUnits == 200, "the end is exclusive")
        let before = BookingRange(start: Self.at(12, 6), end: Self.at(12, 8))
        #expect(try pricing.quote(for: before, in: Self.la, now: Self.now).total.minorUnits == 200)
    }

    @Test("PRK-1 a closure needs a reason, whole minutes, an end after its start and not in the past, and at most 366 days")
    func closureRules() {
        let ok = BookingRange(start: Self.at(12, 8), end: Self.at(14, 18))
        #expect(LotClosure.problem(range: ok, reason: "Resurfacing", now: Self.now) == nil)
        #expect(LotClosure.problem(range: ok, reason: " \n", now: Self.now)?.contains("Say why") == true)
        #expect(LotClosure.problem(range: ok, reason: String(repeating: "x", count: 201), now: Self.now)?.contains("200") == true)
        #expect(LotClosure.problem(range: ok, reason: " " + String(repeating: "x", count: 200), now: Self.now)?.contains("200") == true,
                "as the contract counts: the spaces too")
        #expect(LotClosure.problem(range: ok, reason: String(repeating: "e\u{301}", count: 101), now: Self.now)?.contains("200") == true,
                "code points, not letters")
        #expect(LotClosure.problem(range: ok, reason: "Works\u{7}", now: Self.now)?.contains("control") == true)
        #expect(LotClosure.problem(range: BookingRange(start: ok.start.addingTimeInterval(1), end: ok.end), reason: "x", now: Self.now)?.contains("whole minute") == true)
        #expect(LotClosure.problem(range: BookingRange(start: ok.end, end: ok.start), reason: "x", now: Self.now)?.contains("after it starts") == true)
        #expect(LotClosure.problem(range: ok, reason: "x", now: Self.at(15, 0))?.contains("over") == true)
        #expect(LotClosure.problem(range: BookingRange(start: ok.start, end: ok.start.addingTimeInterval(367 * 86_400)), reason: "x", now: Self.now)?.contains("366") == true)
        #expect(LotClosure.problem(range: BookingRange(start: Self.at(1, 0), end: Self.at(2, 0)), reason: "Snow", now: Self.now) == nil,
                "one already under way may be saved")
    }
}
