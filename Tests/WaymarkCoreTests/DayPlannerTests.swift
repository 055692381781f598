import Foundation
import Testing
import WaymarkCore

/// PLN-6: flexible events placed so everything is reached, lunch kept, the plan explained.
@Suite("Day planner (PLN-5, PLN-6)")
struct DayPlannerTests {
    typealias Item = DayProblem.Item

    static func fixed(_ id: String, _ start: Int, _ end: Int, at place: Int?, _ modes: Set<TravelMode> = [.walk, .transit]) -> Item {
        Item(id: id, timing: .fixed(start: start, end: end), location: place, modes: modes)
    }

    static func flexible(_ id: String, _ earliest: Int, _ latest: Int, _ minutes: Int, at place: Int?, _ modes: Set<TravelMode> = [.walk, .transit]) -> Item {
        Item(id: id, timing: .flexible(earliest: earliest, latest: latest, minutes: minutes), location: place, modes: modes)
    }

    /// Places on a line 1 km apart: walking 12 min per km, transit 8 min plus 3 per km.
    static func line(_ places: Int) -> [[TravelMode: Int]] {
        var travel = Array(repeating: [TravelMode: Int](), count: places * places)
        for a in 0..<places {
            for b in 0..<places where a != b {
                let km = abs(a - b)
                travel[a * places + b] = [.walk: 12 * km, .transit: 8 + 3 * km]
            }
        }
        return travel
    }

    static let lunch = DayProblem.Lunch(window: MinuteWindow(from: 690, to: 870))

    @Test("PLN-6: a flexible event goes where it fits between fixed ones, with the trips there and away")
    func pln6FlexibleFits() {
        let problem = DayProblem(
            items: [
                Self.fixed("lecture", 540, 660, at: 0),
                Self.fixed("lab", 900, 1020, at: 0),
                Self.flexible("gym", 600, 900, 60, at: 2),
            ],
            locationCount: 3, travel: Self.line(3), lunch: Self.lunch)
        let plan = DayPlanner.plan(problem)
        #expect(plan.proven)
        #expect(plan.objective.unreachable == 0 && plan.objective.lateness == 0 && plan.objective.missedLunch == 0)
        let order = plan.visits.map { problem.items[$0.item].id }
        #expect(order == ["lecture", "gym", "lab"])
        let gym = plan.visits[1]
        // 14 minutes by transit (walking takes 24), begun as soon as the person is there.
        #expect(gym.trip?.mode == .transit && gym.trip?.minutes == 14 && gym.begin == gym.ready)
        #expect(gym.reason == .afterPrevious(0) || gym.reason == .afterLunch)
        #expect(plan.lunch.map { $0.start >= 690 && $0.end <= 870 } == true)
        #expect(plan.objective.travelCost == 28)
    }

    @Test("PLN-6: lunch is kept inside its window when the day allows, missed only when it cannot fit")
    func pln6Lunch() {
        var problem = DayProblem(
            items: [Self.fixed("a", 660, 750, at: nil), Self.fixed("b", 760, 870, at: nil)],
            locationCount: 0, travel: [], lunch: Self.lunch)
        var plan = DayPlanner.plan(problem)
        #expect(plan.objective.missedLunch == 1, "11:00–12:30 and 12:40–14:30 leave no 30 minutes inside 11:30–14:30")
        #expect(plan.lunch == nil)

        problem.items[1] = Self.fixed("b", 790, 870, at: nil)
        plan = DayPlanner.plan(problem)
        #expect(plan.objective.missedLunch == 0)
        #expect(plan.lunch.map { [$0.start, $0.end] } == [750, 780])
    }

    @Test("PLN-6: lunch is never bought with lateness; lateness is never bought with an unreachable event")
    func pln6Order() {
        // The only lunch slot would make 'b' late: the plan keeps 'b' on time and skips lunch.
        let problem = DayProblem(
            items: [Self.fixed("a", 690, 720, at: 0), Self.fixed("b", 740, 880, at: 1)],
            locationCount: 2, travel: Self.line(2), lunch: Self.lunch)
        let plan = DayPlanner.plan(problem)
        #expect(plan.objective == .init(unreachable: 0, lateness: 0, missedLunch: 1, travelCost: 11))
        #expect(plan.visits[1].arrival == .hurry, "arrives 12:11 for 12:20: less than ten minutes to spare")
    }

    @Test("PLN-5: an event no allowed mode reaches is unreachable, with the rest of the day planned around it")
    func pln5Unreachable() {
        var travel = Self.line(3)
        travel[0 * 3 + 2] = [:]
        travel[1 * 3 + 2] = [:]
        let problem = DayProblem(
            items: [Self.fixed("a", 540, 600, at: 0), Self.fixed("island", 660, 720, at: 2), Self.fixed("c", 780, 840, at: 1)],
            locationCount: 3, travel: travel, origin: .init(location: 0, ready: 480))
        let plan = DayPlanner.plan(problem)
        #expect(plan.unreachable.map { problem.items[$0].id } == ["island"])
        #expect(plan.objective.unreachable == 1 && plan.objective.lateness == 0)
        #expect(plan.visits.map(\.item) == [0, 2])
    }

    @Test("PLN-5: transit leaves only inside its window; the planner waits for it or walks")
    func pln5TransitWindow() {
        let problem = DayProblem(
            items: [Self.fixed("a", 360, 380, at: 0), Self.fixed("b", 480, 540, at: 3)],
            locationCount: 4, travel: Self.line(4), transitWindow: MinuteWindow(from: 420, to: 1320))
        let plan = DayPlanner.plan(problem)
        let trip = plan.visits[1].trip!
        // Walking takes 36 min, transit 17; transit may leave at 07:00 and still arrive by 08:00.
        #expect(trip.mode == .transit && trip.depart == 420 && trip.arrive == 437)

        var late = problem
        late.transitWindow = MinuteWindow(from: 470, to: 1320)
        let walked = DayPlanner.plan(late).visits[1].trip!
        #expect(walked.mode == .walk, "transit from 07:50 would arrive at 08:07, walking arrives at 06:56")
    }

    @Test("PLN-4: eco mode prefers walking and transit unless a car saves more than half the time")
    func pln4Eco() {
        let travel: [[TravelMode: Int]] = [[:], [.transit: 30, .car: 20], [.transit: 30, .car: 20], [:]]
        var problem = DayProblem(
            items: [Self.fixed("a", 540, 600, at: 0), Self.fixed("b", 700, 760, at: 1, [.transit, .car])],
            locationCount: 2, travel: travel, weights: [.car: 1])
        #expect(DayPlanner.plan(problem).visits[1].trip?.mode == .car)
        problem.weights = [.car: 2]
        #expect(DayPlanner.plan(problem).visits[1].trip?.mode == .transit)
    }

    @Test("PLN-6: overlapping fixed events make the least lateness, and say so")
    func pln6Overlap() {
        let problem = DayProblem(
            items: [Self.fixed("a", 540, 630, at: 0), Self.fixed("b", 600, 660, at: 1)],
            locationCount: 2, travel: Self.line(2))
        let plan = DayPlanner.plan(problem)
        #expect(plan.objective.lateness == 41, "leaves 'a' at 10:30, transit 11 min: 41 min late")
        #expect(plan.visits[1].arrival == .late && plan.visits[1].lateness == 41)
    }

    @Test("PLN-6: during a call the person may be anywhere, so the trip to the next meeting can be made before it")
    func pln6MoveBeforeACall() {
        // Found by the exhaustive comparison on 7-event days: the best plan walks to place 0 for
        // an errand before the call, and so is there when the call ends and the meeting begins.
        let problem = DayProblem(
            items: [
                Self.flexible("e0", 1005, 1185, 30, at: 1, [.rideShare, .walk, .transit]),
                Self.fixed("e1", 675, 720, at: 0, [.bike, .car, .transit]),
                Self.fixed("e2", 1050, 1110, at: 0, [.car, .walk, .transit]),
                Self.flexible("e3", 855, 1185, 45, at: 1, [.walk, .rideShare, .car]),
                Self.fixed("call", 1005, 1080, at: nil, [.car, .bike, .rideShare]),
                Self.flexible("e5", 765, 1035, 15, at: 0, [.walk]),
                Self.flexible("e6", 660, 810, 15, at: 1, [.rideShare, .bike]),
            ],
            locationCount: 2, travel: [[:], [.transit: 11, .walk: 12], [.walk: 12, .transit: 11], [:]],
            transitWindow: MinuteWindow(from: 480, to: 1200), weights: [.car: 2, .rideShare: 2],
            lunch: DayProblem.Lunch(window: MinuteWindow(from: 690, to: 870), minutes: 30))
        let plan = DayPlanner.plan(problem)
        #expect(plan.objective == ExhaustivePlanner(problem).best())
        #expect(plan.objective.lateness == 41, "11 min late to e1, 30 to e2 after the call")
    }

    // MARK: Properties

    /// A random small day: places on a line with some trips missing, a mix of fixed and flexible
    /// events, sometimes no lunch, an origin or not, a transit window.
    static func randomDay(_ rng: inout SplitMix64, events: ClosedRange<Int> = 2...6) -> DayProblem {
        let places = Int.random(in: 1...4, using: &rng)
        var travel = line(places)
        for i in travel.indices where Int.random(in: 0..<6, using: &rng) == 0 { travel[i] = [.walk: 60 + Int.random(in: 0...60, using: &rng)] }
        for i in travel.indices where Int.random(in: 0..<10, using: &rng) == 0 { travel[i] = [:] }
        var items: [Item] = []
        let count = Int.random(in: events, using: &rng)
        for k in 0..<count {
            let place: Int? = Int.random(in: 0..<5, using: &rng) == 0 ? nil : Int.random(in: 0..<places, using: &rng)
            var modes = Set(TravelMode.allCases.filter { _ in Bool.random(using: &rng) })
            if modes.isEmpty { modes = [.walk] }
            let start = 480 + 15 * Int.random(in: 0...40, using: &rng)
            if Bool.random(using: &rng) {
                items.append(fixed("e\(k)", start, start + 15 * Int.random(in: 1...6, using: &rng), at: place, modes))
            } else {
                let minutes = 15 * Int.random(in: 1...4, using: &rng)
                items.append(flexible("e\(k)", start, start + minutes + 15 * Int.random(in: 0...24, using: &rng), minutes, at: place, modes))
            }
        }
        return DayProblem(
            items: items, locationCount: places, travel: travel,
            transitWindow: Bool.random(using: &rng) ? MinuteWindow(from: 420 + 30 * Int.random(in: 0...8, using: &rng), to: 1200) : nil,
            weights: [.car: Int.random(in: 1...2, using: &rng), .rideShare: 2],
            lunch: Int.random(in: 0..<4, using: &rng) == 0 ? nil : lunch,
            origin: Bool.random(using: &rng) ? DayProblem.Origin(location: Int.random(in: 0..<places, using: &rng), ready: 450) : nil)
    }

    @Test("PLN-6: on 400 random small days the planner's plan is as good as trying every order, mode and lunch")
    func pln6Exhaustive() {
        var rng = SplitMix64(seed: 0x9A7_0D4)
        for n in 0..<400 {
            let problem = Self.randomDay(&rng, events: 2...5)
            let plan = DayPlanner.plan(problem)
            let best = ExhaustivePlanner(problem).best()
            #expect(plan.objective == best, "day \(n): \(problem.items.map(\.id))")
            #expect(plan.proven)
        }
    }

    @Test("PLN-6: a returned plan never breaks a window, a fixed time, a trip's length or the lunch window, and its figures add up")
    func pln6PlanIsValid() {
        var rng = SplitMix64(seed: 0x5AFE)
        for _ in 0..<300 {
            let problem = Self.randomDay(&rng, events: 3...12)
            let plan = DayPlanner.plan(problem)
            var t = problem.origin?.ready ?? 0
            var loc = problem.origin?.location
            var lateness = 0, cost = 0
            for step in plan.steps {
                switch step {
                case .lunch(let s, let e):
                    #expect(s >= t && s >= problem.lunch!.window.from && e <= problem.lunch!.window.to && e - s == 30)
                    t = e
                case .visit(let v):
                    let item = problem.items[v.item]
                    if let trip = v.trip {
                        #expect(trip.from == loc && trip.to == item.location && trip.depart >= t)
                        #expect(item.modes.contains(trip.mode))
                        #expect(problem.minutes(from: trip.from, to: trip.to, by: trip.mode) == trip.minutes)
                        if trip.mode == .transit, let w = problem.transitWindow { #expect(trip.depart >= w.from && trip.arrive <= w.to) }
                        cost += trip.minutes * problem.weight(trip.mode)
                        t = trip.arrive
                    } else {
                        #expect(loc == nil || item.location == nil || loc == item.location, "a change of place needs a trip")
                    }
                    if let ls = v.lunchOnArrival {
                        #expect(ls >= t && ls >= problem.lunch!.window.from && ls + 30 <= problem.lunch!.window.to)
                        t = ls + 30
                    }
                    #expect(v.ready == t && v.begin >= v.ready)
                    switch item.timing {
                    case .fixed(let start, let end):
                        #expect(v.begin == max(start, t) && v.end == max(end, v.begin))
                        lateness += v.begin - start
                    case .flexible(let earliest, let latest, let minutes):
                        #expect(v.begin >= earliest && v.end == v.begin + minutes)
                        lateness += max(0, v.end - latest)
                    }
                    t = v.end
                    if let x = item.location { loc = x }
                }
            }
            #expect(plan.objective.lateness == lateness && plan.objective.travelCost == cost)
            #expect(plan.objective.unreachable == plan.unreachable.count)
            #expect(plan.visits.count + plan.unreachable.count == problem.items.count)
            let fixedOrder = plan.visits.filter { !problem.items[$0.item].isFlexible }.map { v -> Int in
                if case .fixed(let s, _) = problem.items[v.item].timing { s } else { 0 }
            }
            #expect(fixedOrder == fixedOrder.sorted(), "fixed events in the order they start")
        }
    }

    /// A full day as a calendar holds one: fixed events one after another, mostly where the one
    /// before was, with room to travel when the place changes; errands with windows of hours.
    static func fullDay(_ rng: inout SplitMix64, events: Int) -> DayProblem {
        let places = 6
        var items: [Item] = []
        var t = 480, place = 0
        let flexibleCount = events / 3
        for k in 0..<(events - flexibleCount) {
            let moves = Int.random(in: 0..<10, using: &rng) < 3
            if moves { place = Int.random(in: 0..<places, using: &rng) }
            t += 15 * Int.random(in: 0...1, using: &rng) + (moves ? 30 : 0)
            let length = 15 * Int.random(in: 1...3, using: &rng)
            items.append(fixed("f\(k)", t, t + length, at: place, [.walk, .transit, .bike]))
            t += length
        }
        for k in 0..<flexibleCount {
            let earliest = 480 + 30 * Int.random(in: 0...20, using: &rng)
            let minutes = 15 * Int.random(in: 1...3, using: &rng)
            let at: Int? = Int.random(in: 0..<4, using: &rng) == 0 ? nil : Int.random(in: 0..<places, using: &rng)
            items.append(flexible("x\(k)", earliest, earliest + minutes + 60 * Int.random(in: 2...6, using: &rng), minutes, at: at))
        }
        var travel = line(places)
        for i in travel.indices where !travel[i].isEmpty { travel[i][.bike] = 4 + 4 * (travel[i][.walk]! / 12) }
        return DayProblem(items: items, locationCount: places, travel: travel, transitWindow: MinuteWindow(from: 360, to: 1380),
                          weights: [:], lunch: lunch, origin: .init(location: 0, ready: 450))
    }

    @Test("PLN-6: the same day gives the same plan, and full days of 30 events are solved and proven")
    func pln6Deterministic() {
        var rng = SplitMix64(seed: 40)
        for _ in 0..<2 {
            let problem = Self.fullDay(&rng, events: 30)
            let a = DayPlanner.plan(problem), b = DayPlanner.plan(problem)
            #expect(a == b)
            #expect(a.proven, "explored \(a.explored)")
        }
    }
}

/// The rules of `DayPlanner` tried in every way, with no bound and no memory: the reference the
/// planner's cuts are checked against.
struct ExhaustivePlanner {
    let problem: DayProblem
    let fixed: [Int]

    init(_ problem: DayProblem) {
        self.problem = problem
        fixed = problem.items.indices.filter { !problem.items[$0].isFlexible }.sorted { a, b in
            guard case .fixed(let sa, let ea) = problem.items[a].timing, case .fixed(let sb, let eb) = problem.items[b].timing else { return a < b }
            return (sa, ea, a) < (sb, eb, b)
        }
    }

    func best() -> DayPlan.Objective {
        var best = DayPlan.Objective(unreachable: .max, lateness: 0, missedLunch: 0, travelCost: 0)
        go(t: problem.origin?.ready ?? 0, loc: problem.origin?.location, done: [], lunch: problem.lunch == nil,
           u: 0, late: 0, cost: 0, best: &best)
        return best
    }

    private func go(t: Int, loc: Int?, done: Set<Int>, lunch: Bool, u: Int, late: Int, cost: Int, best: inout DayPlan.Objective) {
        let nextFixed = fixed.first { !done.contains($0) }
        if nextFixed == nil {
            let left = problem.items.indices.filter { !done.contains($0) }.count
            best = min(best, .init(unreachable: u + left, lateness: late, missedLunch: lunch ? 0 : 1, travelCost: cost))
        }
        if !lunch, let l = problem.lunch, max(t, l.window.from) + l.minutes <= l.window.to {
            go(t: max(t, l.window.from) + l.minutes, loc: loc, done: done, lunch: true, u: u, late: late, cost: cost, best: &best)
        }
        var candidates = problem.items.indices.filter { problem.items[$0].isFlexible && !done.contains($0) }
        if let nextFixed {
            candidates.append(nextFixed)
            go(t: t, loc: loc, done: done.union([nextFixed]), lunch: lunch, u: u + 1, late: late, cost: cost, best: &best)
        }
        for i in candidates {
            let item = problem.items[i]
            var arrivals: [(ready: Int, cost: Int)] = []
            if let x = item.location, let loc, x != loc {
                for m in item.modes {
                    guard let d = problem.minutes(from: loc, to: x, by: m) else { continue }
                    var depart = t
                    if m == .transit, let w = problem.transitWindow {
                        depart = max(t, w.from)
                        if depart + d > w.to { continue }
                    }
                    arrivals.append((depart + d, d * problem.weight(m)))
                }
            } else {
                arrivals.append((t, 0))
            }
            for a in arrivals {
                var readies = [(a.ready, lunch)]
                if !lunch, let l = problem.lunch, arrivals.count > 0, item.location != nil, loc != nil, item.location != loc,
                   max(a.ready, l.window.from) + l.minutes <= l.window.to {
                    readies.append((max(a.ready, l.window.from) + l.minutes, true))
                }
                for (ready, ate) in readies {
                    var nt = 0, nl = late
                    switch item.timing {
                    case .fixed(let start, let end):
                        let begin = max(ready, start)
                        nl += begin - start
                        nt = max(end, begin)
                    case .flexible(let earliest, let latest, let minutes):
                        let begin = max(ready, earliest)
                        nl += max(0, begin + minutes - latest)
                        nt = begin + minutes
                    }
                    go(t: nt, loc: item.location ?? loc, done: done.union([i]), lunch: ate, u: u, late: nl, cost: cost + a.cost, best: &best)
                }
            }
        }
    }
}
