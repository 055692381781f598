import Foundation
import Testing
@testable import WaymarkCore

@Suite("Planner: calendar colours, places by name, plans in words (PLN-1, PLN-2, PLN-3)")
struct PlannerWordsTests {
    @Test("PLN-1 a calendar's text is black or white by WCAG contrast; colours read only as #RRGGBB")
    func colours() throws {
        let blue = try #require(CalendarColour("#1A73E8"))
        #expect(blue.hex == "#1a73e8")
        #expect(abs(CalendarColour.contrast(.black, .white) - 21) < 0.001)
        #expect(abs(CalendarColour.contrast(blue, blue) - 1) < 0.001)
        #expect(CalendarColour("#ffeb3b")?.text == .black)
        #expect(CalendarColour("#0b3d91")?.text == .white)
        for colour in ["#000000", "#ffffff", "#808080", "#d50000", "#0b8043", "#1a73e8"].compactMap(CalendarColour.init) {
            let chosen = CalendarColour.contrast(colour, colour.text)
            let other = CalendarColour.contrast(colour, colour.text == .black ? .white : .black)
            #expect(chosen >= other, "\(colour.hex)")
            #expect(chosen >= 4.5, "\(colour.hex): black or white always reaches 4.5:1 on some side")
        }
        for bad in ["1a73e8", "#1a73e", "#1a73e8f", "#gg0000", "#+12345", ""] { #expect(CalendarColour(bad) == nil, "\(bad)") }
    }

    @Test("PLN-2 places are found by the starts of their words, accents and case aside, whole words first")
    func gazetteer() {
        let names = { (q: String) in Gazetteer.search(q, in: MilanPlaces.all, limit: 5).map(\.name) }
        #expect(names("leonardo").first == "Piazza Leonardo da Vinci (Politecnico)")
        #expect(names("leonardo campus").first == "Politecnico di Milano – Leonardo campus")
        #expect(names("UNIVERSITA").contains("Università Bocconi"))
        #expect(names("bovisa").prefix(3).allSatisfy { $0.contains("Bovisa") })
        #expect(names("milan").count == 5, "the detail matches too, after names")
        #expect(names("zzz").isEmpty)
        #expect(names(" - ").isEmpty)
        #expect(Gazetteer.search("piola", in: MilanPlaces.all, limit: 0).isEmpty)
    }

    @Test("PLN-3 each placement and trip is said in words: why it begins then, how much time is spare, why nothing reaches it")
    func explanations() {
        let titles = ["Lecture", "Library"]
        let walk = DayPlan.Trip(from: 0, to: 1, mode: .walk, depart: 600, arrive: 612)
        let after = DayPlan.Visit(item: 1, trip: walk, lunchOnArrival: nil, ready: 612, begin: 612, end: 672, lateness: 0,
                                  reason: .afterPrevious(0), arrival: .onTime)
        #expect(PlanExplanation.why(after, titles: titles) == "Placed right after “Lecture”. 12 min walking.")
        let fixed = DayPlan.Visit(item: 1, trip: walk, lunchOnArrival: nil, ready: 612, begin: 660, end: 720, lateness: 0,
                                  reason: .fixedTime, arrival: .onTime)
        #expect(PlanExplanation.why(fixed, titles: titles) == "On time: 12 min walking, 48 min to spare.")
        var hurry = fixed
        hurry.begin = 617
        hurry.arrival = .hurry
        #expect(PlanExplanation.why(hurry, titles: titles) == "Hurry: 12 min walking leaves 5 min to spare.")
        var late = fixed
        late.begin = 612
        late.lateness = 7
        late.arrival = .late
        #expect(PlanExplanation.why(late, titles: titles) == "7 min late: 12 min walking from the event before.")
        #expect(PlanExplanation.minutes(75) == "1 h 15 min")
        #expect(PlanExplanation.minutes(120) == "2 h")

        let leonardo = Coordinate(latitude: 45.4781, longitude: 9.2272), bovisa = Coordinate(latitude: 45.5030, longitude: 9.1560)
        let options = TripOptions(estimator: GroundDistanceEstimator(), preferences: TravelPreferences())
        #expect(PlanExplanation.unreachable(from: leonardo, to: bovisa, modes: [.walk, .car], options: options, transitRuns: true)
            == "No way there you allow: too far to walk with your limit; you have no car and car sharing is off.")
        #expect(PlanExplanation.unreachable(from: leonardo, to: bovisa, modes: [.transit], options: options, transitRuns: false)
            == "No way there you allow: public transport is outside your hours for it.")
        #expect(PlanExplanation.unreachable(from: leonardo, to: bovisa, modes: [.walk, .transit], options: options, transitRuns: true)
            == "You could get there, but then another event of the day could not be reached.")
        #expect(PlanExplanation.unreachable(from: nil, to: bovisa, modes: [.walk], options: options, transitRuns: true) == "No way there is known.")
    }

    @Test("PLN-6 of two plans as good, the one that keeps the earlier event: an unreachable event is the later one")
    func keepsTheEarlierEvent() {
        // Two fixed events too far apart to walk between, walking only: one must go.
        let problem = DayProblem(
            items: [.init(id: "a", timing: .fixed(start: 540, end: 660), location: 0, modes: [.walk]),
                    .init(id: "b", timing: .fixed(start: 665, end: 720), location: 1, modes: [.walk])],
            locationCount: 2, travel: [[:], [:], [:], [:]], transitWindow: nil, weights: [:], lunch: nil, origin: nil)
        let plan = DayPlanner.plan(problem)
        #expect(plan.unreachable == [1])
        #expect(plan.visits.map(\.item) == [0])
    }
}
