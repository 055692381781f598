import Foundation
import Testing
@testable import WaymarkCore

@Suite("Lot reviews and lot filters (PRK-14)")
struct LotReviewTests {
    @Test("PRK-14 a review gives 1 to 5 stars; its text is trimmed and at most 2,000 characters")
    func validation() throws {
        let ok = try ReviewRules.validated(stars: 4, text: "  Easy to find a space before 8.\n ")
        #expect(ok.stars == 4)
        #expect(ok.text == "Easy to find a space before 8.")
        #expect(try ReviewRules.validated(stars: 1, text: "").text == "", "stars alone are a review")
        #expect(throws: ReviewError.starsOutOfRange(0)) { try ReviewRules.validated(stars: 0, text: "x") }
        #expect(throws: ReviewError.starsOutOfRange(6)) { try ReviewRules.validated(stars: 6, text: "x") }
        let longest = String(repeating: "é", count: ReviewRules.maxTextLength)
        #expect(try ReviewRules.validated(stars: 5, text: "  " + longest + "  ").text == longest, "counted in characters, after trimming")
        #expect(throws: ReviewError.textTooLong(length: 2001)) { try ReviewRules.validated(stars: 5, text: longest + "!") }
        #expect(throws: ReviewError.textHasControlCharacters) { try ReviewRules.validated(stars: 5, text: "a\u{0}b") }
        #expect(throws: ReviewError.textHasControlCharacters) { try ReviewRules.validated(stars: 5, text: "bell\u{7}") }
        #expect(try ReviewRules.validated(stars: 5, text: "Line one\nLine\ttwo").text == "Line one\nLine\ttwo")
    }

    @Test("PRK-14 the rating is the mean of the reviews with a count per star; no reviews is no rating")
    func summary() {
        let none = RatingSummary()
        #expect(none.count == 0)
        #expect(none.average == nil)
        #expect(none.perStar == [0, 0, 0, 0, 0])
        let some = RatingSummary(stars: [5, 4, 5, 1, 9])
        #expect(some.perStar == [1, 0, 0, 1, 2], "out-of-range stars are ignored")
        #expect(some.count == 4)
        #expect(some.average == 15.0 / 4)
        var grouped = RatingSummary()
        grouped.add(stars: 5, count: 3)
        grouped.add(stars: 4, count: 1)
        grouped.add(stars: 3, count: 0)
        #expect(grouped == RatingSummary(stars: [5, 5, 5, 4]))
        #expect(grouped.average == 4.75)
    }

    static let here = Coordinate(latitude: 33.8823, longitude: -117.8851)
    static let greenWeekdays = [PermitRule(weekdays: PermitRule.weekdaysMondayToFriday, startMinute: 420, endMinute: 1320, permits: [.green])]

    static func lot(east: Double = 0, stars: [Int] = [], keys: Bool = false, rules: [PermitRule] = [], cents: Int = 200) -> LotFilter.Candidate {
        LotFilter.Candidate(center: Geo.offset(here, east: east, north: 0), rating: RatingSummary(stars: stars),
                            keysRequired: keys, permitRules: rules, hourlyCents: cents)
    }

    @Test("PRK-14 rating above 4.5 is strictly above, and a lot nobody rated never passes")
    func ratingAbove() {
        let filter = LotFilter(ratingAbove: 4.5)
        #expect(filter.matches(Self.lot(stars: [5, 5, 4])))
        #expect(!filter.matches(Self.lot(stars: [5, 4])), "exactly 4.5 is not above 4.5")
        #expect(!filter.matches(Self.lot(stars: [])))
        #expect(LotFilter().matches(Self.lot(stars: [])), "no filter lets every lot through")
        #expect(LotFilter(ratingAbove: 0).matches(Self.lot(stars: [1])))
    }

    @Test("PRK-14 near a point: within the radius by great-circle distance, inclusive")
    func radius() {
        let filter = LotFilter(near: Self.here, radiusMetres: 150)
        #expect(filter.matches(Self.lot(east: 149)))
        #expect(!filter.matches(Self.lot(east: -151)))
        #expect(abs((filter.distance(to: Self.lot(east: 100)) ?? 0) - 100) < 0.01)
        #expect(LotFilter(near: Self.here).matches(Self.lot(east: 40_000)), "a point alone only measures")
        #expect(LotFilter().distance(to: Self.lot()) == nil)
    }

    @Test("PRK-14 keys, permit at a time and price narrow the lots")
    func otherConditions() {
        #expect(LotFilter(keysRequired: true).matches(Self.lot(keys: true)))
        #expect(!LotFilter(keysRequired: true).matches(Self.lot(keys: false)))
        #expect(LotFilter(keysRequired: false).matches(Self.lot(keys: false)))
        #expect(!LotFilter(keysRequired: false).matches(Self.lot(keys: true)))

        let wednesday9 = (weekday: 4, minute: 540), sunday9 = (weekday: 1, minute: 540)
        let greenLot = Self.lot(rules: Self.greenWeekdays)
        #expect(LotFilter(permits: [.green], permitAt: wednesday9).matches(greenLot))
        #expect(LotFilter(permits: [.black, .green], permitAt: wednesday9).matches(greenLot), "any one permit held is enough")
        #expect(!LotFilter(permits: [.black], permitAt: wednesday9).matches(greenLot))
        #expect(!LotFilter(permits: [], permitAt: wednesday9).matches(greenLot), "no permit: not while the rule applies")
        #expect(LotFilter(permits: [], permitAt: sunday9).matches(greenLot), "open to all on Sunday")
        #expect(LotFilter(permits: [.black], permitAt: wednesday9).matches(Self.lot()), "a lot without rules is open to all")

        #expect(LotFilter(maxHourlyCents: 200).matches(Self.lot(cents: 200)))
        #expect(!LotFilter(maxHourlyCents: 199).matches(Self.lot(cents: 200)))

        let all = LotFilter(ratingAbove: 4.5, near: Self.here, radiusMetres: 500, keysRequired: false, permits: [.green],
                            permitAt: wednesday9, maxHourlyCents: 300)
        #expect(all.matches(Self.lot(east: 200, stars: [5], rules: Self.greenWeekdays)))
        #expect(!all.matches(Self.lot(east: 200, stars: [5], keys: true, rules: Self.greenWeekdays)), "every condition must hold")
    }

    @Test("PRK-14 a filter out of range or missing what it needs is refused")
    func invalidFilters() {
        #expect(throws: LotFilter.Invalid.ratingOutOfRange) { try LotFilter(ratingAbove: 5.5).validate() }
        #expect(throws: LotFilter.Invalid.ratingOutOfRange) { try LotFilter(ratingAbove: .nan).validate() }
        #expect(throws: LotFilter.Invalid.pointInvalid) { try LotFilter(near: Coordinate(latitude: 91, longitude: 0)).validate() }
        #expect(throws: LotFilter.Invalid.radiusWithoutPoint) { try LotFilter(radiusMetres: 100).validate() }
        #expect(throws: LotFilter.Invalid.radiusOutOfRange) { try LotFilter(near: Self.here, radiusMetres: 0).validate() }
        #expect(throws: LotFilter.Invalid.radiusOutOfRange) { try LotFilter(near: Self.here, radiusMetres: 50_001).validate() }
        #expect(throws: LotFilter.Invalid.priceOutOfRange) { try LotFilter(maxHourlyCents: -1).validate() }
        #expect(throws: LotFilter.Invalid.priceOutOfRange) { try LotFilter(maxHourlyCents: 1_000_001).validate() }
        #expect(throws: LotFilter.Invalid.permitTimeWithoutPermit) { try LotFilter(permitAt: (4, 540)).validate() }
        #expect(throws: Never.self) { try LotFilter(ratingAbove: 4.5, near: Self.here, radiusMetres: 1000).validate() }
    }

    @Test("PRK-14 the demo campus marks its valet and stack-parking lots as taking keys")
    func demoKeys() {
        let keys = DemoCampus.fullerton.lots.filter(\.keysRequired).map(\.code).sorted()
        #expect(keys == ["A", "CP", "G"])
        for lot in DemoCampus.fullerton.lots where lot.keysRequired {
            #expect(lot.rules.contains { $0.localizedCaseInsensitiveContains("keys must be left") })
        }
    }
}
