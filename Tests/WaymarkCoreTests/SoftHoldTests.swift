import Foundation
import Testing
@testable import WaymarkCore

@Suite("Soft hold rules (PRK-9, PRK-10)")
struct SoftHoldTests {
    let names = PermitNames(DemoCampus.fullerton.permits)
    let greenWeekdays = [PermitRule(weekdays: PermitRule.weekdaysMondayToFriday, startMinute: 420, endMinute: 1320, permits: [.green, .yellow])]

    @Test("PRK-9 the warning names the permits a spot needs now, and only when the holder has none of them")
    func warning() {
        let wednesday9 = SoftHold.requiredPermits(category: .regular, rules: greenWeekdays, weekday: 4, minute: 540)
        #expect(wednesday9 == [.green, .yellow])
        #expect(SoftHold.permitWarning(required: wednesday9, holding: [], names: names) == "This spot needs a Green or Yellow permit now.")
        #expect(SoftHold.permitWarning(required: wednesday9, holding: [.black], names: names) == "This spot needs a Green or Yellow permit now.")
        #expect(SoftHold.permitWarning(required: wednesday9, holding: [.yellow], names: names) == nil)
        #expect(SoftHold.requiredPermits(category: .regular, rules: greenWeekdays, weekday: 4, minute: 1320) == nil, "end is exclusive")
        #expect(SoftHold.requiredPermits(category: .regular, rules: greenWeekdays, weekday: 1, minute: 540) == nil, "Sunday is open")
        let handicap = SoftHold.requiredPermits(category: .handicap, rules: greenWeekdays, weekday: 1, minute: 540)
        #expect(handicap == [.handicap], "a handicap spot needs its permit at all times, and that alone")
        #expect(SoftHold.permitWarning(required: handicap, holding: [.green], names: names) == "This spot needs a Handicap permit now.")
        #expect(SoftHold.permitWarning(required: [], holding: [.green], names: names) == "Nobody may park on this spot now.")
        #expect(SoftHold.permitWarning(required: [.green, .yellow, .black], holding: [], names: names) == "This spot needs a Green, Yellow or Black permit now.")
    }

    @Test("PRK-10 the nearest free spot by distance, skipping spots whose permit the holder lacks; ties by id")
    func nearest() {
        let origin = Coordinate(latitude: 33.8823, longitude: -117.8851)
        func at(_ east: Double, _ id: String, _ category: SpotCategory = .regular, rules: [PermitRule] = []) -> SoftHold.Candidate {
            SoftHold.Candidate(spotId: id, center: Geo.offset(origin, east: east, north: 0), category: category, rules: rules)
        }
        let candidates = [at(5, "handicap", .handicap), at(10, "green-lot", rules: greenWeekdays), at(40, "far"), at(-25, "west")]
        #expect(SoftHold.nearest(to: origin, among: candidates, permits: [], weekday: 4, minute: 540)?.spotId == "west")
        #expect(SoftHold.nearest(to: origin, among: candidates, permits: [.green], weekday: 4, minute: 540)?.spotId == "green-lot")
        #expect(SoftHold.nearest(to: origin, among: candidates, permits: [.handicap], weekday: 4, minute: 540)?.spotId == "handicap")
        #expect(SoftHold.nearest(to: origin, among: candidates, permits: [], weekday: 1, minute: 540)?.spotId == "green-lot", "open on Sunday")
        #expect(SoftHold.nearest(to: origin, among: [at(5, "b"), at(-5, "a")], permits: [], weekday: 4, minute: 540)?.spotId == "a")
        #expect(SoftHold.nearest(to: origin, among: [candidates[0]], permits: [], weekday: 4, minute: 540) == nil)
    }

    @Test("PRK-9 a hold lasts 10 minutes; directions open the maps apps at the spot")
    func expiryAndLinks() {
        let start = Date(timeIntervalSince1970: 1_795_021_200)
        #expect(SoftHold.expiry(from: start).timeIntervalSince(start) == 600)
        let spot = Coordinate(latitude: 33.88231234, longitude: -117.88519876)
        #expect(MapsLinks.appleMaps(to: spot) == "https://maps.apple.com/?daddr=33.882312,-117.885199&dirflg=d")
        #expect(MapsLinks.googleMaps(to: spot, driving: false)
                == "https://www.google.com/maps/dir/?api=1&destination=33.882312,-117.885199&travelmode=walking")
    }

    @Test("PRK-9 permit rules are read at the site's local weekday and minute")
    func localMoment() throws {
        // 2026-11-18 17:00 UTC is Wednesday 09:00 in Fullerton.
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let m = PermitCheck.localMoment(of: Date(timeIntervalSince1970: 1_795_021_200), timeZone: zone)
        #expect(m.weekday == 4 && m.minute == 540)
    }
}
