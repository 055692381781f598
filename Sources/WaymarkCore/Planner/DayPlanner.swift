/// Places a day's flexible events among its fixed ones (PLN-6; Travlendar+ 3.3.2, 3.3.3, 3.3.6).
///
/// The rules of a plan: the person starts at the origin (or nowhere, at minute 0). Each event is
/// attended once or counted unreachable. Fixed events are attended in the order they start;
/// flexible ones anywhere. Going to an event at another place takes one allowed mode that has a
/// trip there; transit leaves no earlier than its window opens and arrives before it closes.
/// A fixed event begins at the later of its start and the person's arrival (the difference is
/// lateness) and is left at the later of its end and its beginning; a flexible event begins at
/// the later of arrival and its window's opening, and any part after the window's close is
/// lateness. Lunch, once, with no place: where the person is before leaving, or where they arrive
/// before the event begins, wholly inside the lunch window.
///
/// The best plan has, in this order, the fewest unreachable events, the least lateness, lunch if
/// possible, and the least weighted travel; of plans as good, the one that gives up later fixed
/// events rather than earlier ones. Search: depth first over "what comes next", earliest
/// first so a good plan is found at once; a branch is cut when a lower bound on what it can still
/// reach is no better than the best plan so far, or when another branch reached the same state
/// (same events done, same place, lunch had or not) no later and no worse on every count.
/// Deterministic: the same day gives the same plan.
public enum DayPlanner {
    /// Search nodes before the planner settles for the best plan found (`proven` false). Generated
    /// days of 40 events need a few thousand.
    public static let defaultBudget = 2_000_000

    public static func plan(_ problem: DayProblem, budget: Int = defaultBudget) -> DayPlan {
        let search = PlanSearch(problem, budget: budget)
        search.run()
        return search.result()
    }
}

/// The state of the depth-first search and its bounds. Times are minutes; `loc` is -1 before
/// the person is anywhere.
private final class PlanSearch {
    struct Option {
        var mode: TravelMode
        var minutes: Int
        var cost: Int
    }

    enum Action {
        case attend(item: Int, option: Int, lunchOnArrival: Bool)
        case lunchNow
        case skipFixed(item: Int)

        var isSkip: Bool { if case .skipFixed = self { true } else { false } }
    }

    struct State {
        var t: Int
        var loc: Int
        var fixedDone: Int
        var flexDone: UInt64
        var lunchDone: Bool
        var unreachable: Int
        var lateness: Int
        var cost: Int
        /// Grows more for giving up an earlier fixed event: of two plans as good, the one that
        /// keeps the earlier events wins (a person expects the later one to be the one in doubt).
        var skipPenalty: Int
    }

    struct Key: Hashable {
        var flexDone: UInt64
        var packed: Int
    }

    struct Label {
        var unreachable: Int, lateness: Int, cost: Int, t: Int, skipPenalty: Int
        func dominates(_ o: Label) -> Bool {
            unreachable <= o.unreachable && lateness <= o.lateness && cost <= o.cost && t <= o.t && skipPenalty <= o.skipPenalty
        }
    }

    let problem: DayProblem
    let budget: Int
    let fixed: [Int]            // item indices in the order they are attended
    let flex: [Int]             // item indices; bit i of flexDone is flex[i]
    let flexBit: [UInt64]       // per item: its bit in flexDone, 0 for a fixed event
    let locationCount: Int
    /// Trips into item `i` from place `y`, at `i * locationCount + y`, with no option worse in
    /// both time and cost than a mode that always runs.
    let inbound: [[Option]]
    /// Cheapest and quickest trip into each item from anywhere, 0 when another event shares its place.
    let minInCost: [Int]
    let minInMinutes: [Int]
    /// Items whose place no allowed trip enters: reachable only by being there already.
    let sealed: [Bool]
    /// Quickest and cheapest trip into each item's place from anywhere else, by the ways allowed
    /// to any event there, shared place or not.
    let entryMinutes: [Int]
    let entryCost: [Int]
    let allFlex: UInt64

    var best: DayPlan.Objective?
    var bestSkipPenalty = 0
    var bestPath: [Action] = []
    var path: [Action] = []
    var seen: [Key: [Label]] = [:]
    var explored = 0
    var exhausted = false
    // The fixed chain of `bound`, kept between calls: time before each link, arrival, start, end,
    // beginning, and time after. Raw memory, as the bound runs for every child of every node and
    // a class's arrays are checked for exclusive access on each write.
    let chainBefore: UnsafeMutablePointer<Int>, chainArrive: UnsafeMutablePointer<Int>, chainStart: UnsafeMutablePointer<Int>
    let chainEnd: UnsafeMutablePointer<Int>, chainBegin: UnsafeMutablePointer<Int>, chainAfter: UnsafeMutablePointer<Int>

    init(_ problem: DayProblem, budget: Int) {
        precondition(problem.items.filter(\.isFlexible).count <= 64, "at most 64 flexible events a day")
        self.problem = problem
        self.budget = budget
        locationCount = problem.locationCount
        let indices = Array(problem.items.indices)
        fixed = indices.filter { !problem.items[$0].isFlexible }.sorted { a, b in
            guard case .fixed(let sa, let ea) = problem.items[a].timing, case .fixed(let sb, let eb) = problem.items[b].timing else { return a < b }
            return (sa, ea, a) < (sb, eb, b)
        }
        flex = indices.filter { problem.items[$0].isFlexible }
        var bits = Array(repeating: UInt64(0), count: problem.items.count)
        for (bit, item) in flex.enumerated() { bits[item] = 1 << UInt64(bit) }
        flexBit = bits
        allFlex = flex.count == 64 ? ~0 : (UInt64(1) << UInt64(flex.count)) - 1
        let links = problem.items.count + 1
        func scratch() -> UnsafeMutablePointer<Int> {
            let p = UnsafeMutablePointer<Int>.allocate(capacity: links)
            p.initialize(repeating: 0, count: links)
            return p
        }
        chainBefore = scratch()
        chainArrive = scratch()
        chainStart = scratch()
        chainEnd = scratch()
        chainBegin = scratch()
        chainAfter = scratch()
        (inbound, minInCost, minInMinutes, sealed) = Self.trips(problem)
        (entryMinutes, entryCost) = Self.entries(problem, inbound)
    }

    deinit {
        for p in [chainBefore, chainArrive, chainStart, chainEnd, chainBegin, chainAfter] { p.deallocate() }
    }

    private static func trips(_ problem: DayProblem) -> (inbound: [[Option]], minInCost: [Int], minInMinutes: [Int], sealed: [Bool]) {
        let n = problem.items.count, l = problem.locationCount
        var inbound = Array(repeating: [Option](), count: n * l)
        var minInCost = Array(repeating: 0, count: n)
        var minInMinutes = Array(repeating: 0, count: n)
        var sealed = Array(repeating: false, count: n)
        var placeShared = [Int: Int]()
        for item in problem.items { if let x = item.location { placeShared[x, default: 0] += 1 } }
        for (i, item) in problem.items.enumerated() {
            guard let x = item.location else { continue }
            var cheapest = Int.max, quickest = Int.max
            for y in 0..<l where y != x {
                let options = TravelMode.allCases.compactMap { m -> Option? in
                    guard item.modes.contains(m), let d = problem.minutes(from: y, to: x, by: m) else { return nil }
                    if m == .transit, let w = problem.transitWindow, d > w.minutes { return nil }
                    return Option(mode: m, minutes: d, cost: d * problem.weight(m))
                }
                // A mode that runs at any hour and is no slower and no dearer makes another useless.
                let useful = options.filter { o in
                    !options.contains { p in
                        p.mode != o.mode && (p.mode != .transit || problem.transitWindow == nil)
                            && p.minutes <= o.minutes && p.cost <= o.cost && (p.minutes < o.minutes || p.cost < o.cost || p.mode < o.mode)
                    }
                }
                for o in useful {
                    cheapest = min(cheapest, o.cost)
                    quickest = min(quickest, o.minutes)
                }
                inbound[i * l + y] = useful
            }
            if placeShared[x, default: 0] > 1 {
                minInCost[i] = 0
                minInMinutes[i] = 0
            } else {
                minInCost[i] = cheapest == Int.max ? 0 : cheapest
                minInMinutes[i] = quickest == Int.max ? 0 : quickest
            }
        }
        // A place is sealed when no event there can be entered from elsewhere.
        var enterable = Set<Int>()
        for (i, item) in problem.items.enumerated() {
            guard let x = item.location else { continue }
            if (0..<l).contains(where: { !inbound[i * l + $0].isEmpty }) { enterable.insert(x) }
        }
        for (i, item) in problem.items.enumerated() {
            if let x = item.location, !enterable.contains(x) { sealed[i] = true }
        }
        return (inbound, minInCost, minInMinutes, sealed)
    }

    private static func entries(_ problem: DayProblem, _ inbound: [[Option]]) -> (minutes: [Int], cost: [Int]) {
        var quickest = [Int: Int](), cheapest = [Int: Int]()
        for (i, item) in problem.items.enumerated() {
            guard let x = item.location else { continue }
            for y in 0..<problem.locationCount {
                for o in inbound[i * problem.locationCount + y] {
                    quickest[x] = min(quickest[x] ?? Int.max, o.minutes)
                    cheapest[x] = min(cheapest[x] ?? Int.max, o.cost)
                }
            }
        }
        return (problem.items.map { $0.location.flatMap { quickest[$0] } ?? 0 },
                problem.items.map { $0.location.flatMap { cheapest[$0] } ?? 0 })
    }

    /// At the origin (or nowhere), nothing done yet.
    var start: State {
        State(t: problem.origin?.ready ?? 0, loc: problem.origin?.location ?? -1, fixedDone: 0, flexDone: 0,
              lunchDone: problem.lunch == nil, unreachable: 0, lateness: 0, cost: 0, skipPenalty: 0)
    }

    func run() {
        visit(start, bound: bound(start))
    }

    // MARK: The search

    private func visit(_ s: State, bound b: DayPlan.Objective) {
        if exhausted { return }
        explored += 1
        if explored > budget { exhausted = true; return }
        if !canImprove(b, s) { return }
        if !record(s) { return }

        if s.fixedDone == fixed.count { finish(s) }

        var children: [(State, Action)] = []
        if s.fixedDone < fixed.count {
            let item = fixed[s.fixedDone]
            attendChildren(s, item: item, into: &children)
            var skipped = s
            skipped.fixedDone += 1
            skipped.unreachable += 1
            skipped.skipPenalty += fixed.count - s.fixedDone
            children.append((skipped, .skipFixed(item: item)))
        }
        for (bit, item) in flex.enumerated() where s.flexDone & (1 << UInt64(bit)) == 0 {
            attendChildren(s, item: item, into: &children)
        }
        if !s.lunchDone, let lunch = problem.lunch {
            let ls = max(s.t, lunch.window.from)
            if ls + lunch.minutes <= lunch.window.to {
                var eaten = s
                eaten.t = ls + lunch.minutes
                eaten.lunchDone = true
                children.append((eaten, .lunchNow))
            }
        }
        // Most promising first, by what each child can still reach at best, then going over
        // giving up (of two plans as good, the one that keeps the earlier event), then the
        // earliest: the first plan found is usually the best, and the bound cuts the rest.
        var ranked = children.map { (state: $0.0, action: $0.1, bound: bound($0.0)) }
        ranked.removeAll { !canImprove($0.bound, $0.state) }
        ranked.sort { a, b in
            if a.bound != b.bound { return a.bound < b.bound }
            if a.action.isSkip != b.action.isSkip { return b.action.isSkip }
            return a.state.t < b.state.t
        }
        for (child, action, childBound) in ranked {
            path.append(action)
            visit(child, bound: childBound)
            path.removeLast()
            if exhausted { return }
        }
    }

    /// The states after going to `item` from `s`: one per trip option, with and without lunch on arrival.
    private func attendChildren(_ s: State, item: Int, into children: inout [(State, Action)]) {
        let it = problem.items[item]
        func attend(ready: Int, tripCost: Int, option: Int, lunchOnArrival: Bool) {
            var n = s
            n.cost += tripCost
            switch it.timing {
            case .fixed(let start, let end):
                let begin = max(ready, start)
                n.lateness += begin - start
                n.t = max(end, begin)
                n.fixedDone += 1
            case .flexible(let earliest, let latest, let minutes):
                let begin = max(ready, earliest)
                n.lateness += max(0, begin + minutes - latest)
                n.t = begin + minutes
                n.flexDone |= flexBit[item]
            }
            if let x = it.location { n.loc = x }
            if lunchOnArrival { n.lunchDone = true }
            children.append((n, .attend(item: item, option: option, lunchOnArrival: lunchOnArrival)))
        }
        guard let x = it.location, s.loc >= 0, s.loc != x else {
            attend(ready: s.t, tripCost: 0, option: -1, lunchOnArrival: false)
            return
        }
        for (k, o) in inbound[item * locationCount + s.loc].enumerated() {
            guard let arrival = arrival(s.t, o) else { continue }
            attend(ready: arrival, tripCost: o.cost, option: k, lunchOnArrival: false)
            if !s.lunchDone, let lunch = problem.lunch {
                let ls = max(arrival, lunch.window.from)
                if ls + lunch.minutes <= lunch.window.to {
                    attend(ready: ls + lunch.minutes, tripCost: o.cost, option: k, lunchOnArrival: true)
                }
            }
        }
    }

    func arrival(_ t: Int, _ o: Option) -> Int? {
        guard o.mode == .transit, let w = problem.transitWindow else { return t + o.minutes }
        let depart = max(t, w.from)
        return depart + o.minutes <= w.to ? depart + o.minutes : nil
    }

    /// Every flexible event not yet placed is unreachable from here; is this the best plan so far?
    private func finish(_ s: State) {
        let left = (allFlex & ~s.flexDone).nonzeroBitCount
        let objective = DayPlan.Objective(
            unreachable: s.unreachable + left, lateness: s.lateness, missedLunch: s.lunchDone ? 0 : 1, travelCost: s.cost)
        if best == nil || objective < best! || (objective == best! && s.skipPenalty < bestSkipPenalty) {
            best = objective
            bestSkipPenalty = s.skipPenalty
            bestPath = path
        }
    }

    /// Whether a state whose plans reach `bound` at best could beat the best plan so far. The
    /// skip penalty only grows, so the state's own is a bound on it.
    private func canImprove(_ bound: DayPlan.Objective, _ s: State) -> Bool {
        guard let best else { return true }
        return bound < best || (bound == best && s.skipPenalty < bestSkipPenalty)
    }

    /// False when an earlier branch reached the same state no worse on every count.
    private func record(_ s: State) -> Bool {
        let key = Key(flexDone: s.flexDone, packed: s.fixedDone | (s.loc + 1) << 8 | (s.lunchDone ? 1 << 30 : 0))
        let label = Label(unreachable: s.unreachable, lateness: s.lateness, cost: s.cost, t: s.t, skipPenalty: s.skipPenalty)
        if var labels = seen[key] {
            if labels.contains(where: { $0.dominates(label) }) { return false }
            labels.removeAll { label.dominates($0) }
            labels.append(label)
            seen[key] = labels
        } else {
            seen[key] = [label]
        }
        return true
    }

    /// What any plan through `s` reaches at best. Remaining events at sealed places are
    /// unreachable. The fixed events, in order, make a chain: each begins no earlier than the one
    /// before ends plus the quickest trip into its place, if that is another. Each flexible event
    /// is then put where it costs least on its own: its lateness there plus the delay its length
    /// and trip push down the chain (waiting for its window is left out, as two events can share
    /// one wait). Delays only grow when events are added, so the sum over flexible events is a
    /// lower bound. Trips cost at least the cheapest way in, unless the person is already there.
    private func bound(_ s: State) -> DayPlan.Objective {
        var unreachable = s.unreachable, lateness = s.lateness, cost = s.cost
        // Past the best plan's unreachable count and lateness the rest cannot matter: such a
        // state is cut whatever else it adds, so the bound stops adding.
        let enoughUnreachable = best?.unreachable ?? Int.max, enoughLateness = best?.lateness ?? Int.max
        func beyond() -> Bool { unreachable > enoughUnreachable || (unreachable == enoughUnreachable && lateness > enoughLateness) }
        func partial() -> DayPlan.Objective { DayPlan.Objective(unreachable: unreachable, lateness: lateness, missedLunch: 0, travelCost: cost) }
        // Before the person is anywhere, any event could be the first and need no trip.
        let nowhere = s.loc < 0
        func tripIn(_ i: Int) -> (minutes: Int, cost: Int) {
            guard !nowhere, let x = problem.items[i].location, s.loc != x else { return (0, 0) }
            return (minInMinutes[i], minInCost[i])
        }
        // A fixed event at another place than the fixed one just before it is entered from
        // elsewhere in between: by its own trip, or by the trip of a flexible event at its place
        // (whose own trip in is counted as nothing, its place being shared). After a fixed event
        // with no place the person may be anywhere.
        let anywhere = -2
        func chainTripIn(_ i: Int, after previous: Int) -> (minutes: Int, cost: Int) {
            guard !nowhere, let x = problem.items[i].location, previous != x else { return (0, 0) }
            return previous == anywhere ? tripIn(i) : (entryMinutes[i], entryCost[i])
        }
        var t = s.t
        var links = 0
        var previous = s.loc
        for k in s.fixedDone..<fixed.count {
            let i = fixed[k]
            if !nowhere && sealed[i] && problem.items[i].location != s.loc { unreachable += 1; continue }
            guard case .fixed(let start, let end) = problem.items[i].timing else { continue }
            let trip = chainTripIn(i, after: previous)
            previous = problem.items[i].location ?? anywhere
            let begin = max(t + trip.minutes, start)
            chainBefore[links] = t
            chainArrive[links] = t + trip.minutes
            chainStart[links] = start
            chainEnd[links] = end
            chainBegin[links] = begin
            lateness += begin - start
            cost += trip.cost
            t = max(end, begin)
            chainAfter[links] = t
            links += 1
            if beyond() { return partial() }
        }
        chainBefore[links] = t
        for (bit, i) in flex.enumerated() where s.flexDone & (1 << UInt64(bit)) == 0 {
            if !nowhere && sealed[i] && problem.items[i].location != s.loc { unreachable += 1; continue }
            guard case .flexible(let earliest, let latest, let minutes) = problem.items[i].timing else { continue }
            let trip = tripIn(i)
            cost += trip.cost
            var least = Int.max
            for p in 0...links {
                let own = max(0, max(chainBefore[p] + trip.minutes, earliest) + minutes - latest)
                if own >= least { break }  // later places only make it later
                var pushed = 0, delay = trip.minutes + minutes
                var k = p
                while delay > 0 && k < links && own + pushed < least {
                    let begin = max(chainArrive[k] + delay, chainStart[k])
                    pushed += begin - chainBegin[k]
                    delay = max(chainEnd[k], begin) - chainAfter[k]
                    k += 1
                }
                least = min(least, own + pushed)
                if least == 0 { break }
            }
            lateness += least
            if beyond() { return partial() }
        }
        var missed = 0
        if !s.lunchDone, let lunch = problem.lunch, max(s.t, lunch.window.from) + lunch.minutes > lunch.window.to { missed = 1 }
        return DayPlan.Objective(unreachable: unreachable, lateness: lateness, missedLunch: missed, travelCost: cost)
    }

    // MARK: The plan, replayed from the best path

    func result() -> DayPlan {
        var s = start
        var steps: [DayPlan.Step] = []
        var unreachable: [Int] = []
        var travelMinutes = 0
        var previous: Int?
        var lunchEnded: Int?
        let lunchMinutes = problem.lunch?.minutes ?? TravelPreferences.lunchMinutes
        for action in bestPath {
            switch action {
            case .skipFixed(let item):
                unreachable.append(item)
                s.fixedDone += 1
            case .lunchNow:
                let ls = max(s.t, problem.lunch!.window.from)
                steps.append(.lunch(start: ls, end: ls + lunchMinutes))
                s.t = ls + lunchMinutes
                lunchEnded = s.t
            case .attend(let item, let option, let lunchOnArrival):
                let it = problem.items[item]
                var trip: DayPlan.Trip?
                var ready = s.t
                if option >= 0, let x = it.location {
                    let o = inbound[item * locationCount + s.loc][option]
                    let arrive = arrival(s.t, o)!
                    trip = DayPlan.Trip(from: s.loc, to: x, mode: o.mode, depart: arrive - o.minutes, arrive: arrive)
                    travelMinutes += o.minutes
                    ready = arrive
                }
                var lunchStart: Int?
                if lunchOnArrival {
                    let ls = max(ready, problem.lunch!.window.from)
                    lunchStart = ls
                    ready = ls + lunchMinutes
                    lunchEnded = ready
                }
                let visit: DayPlan.Visit
                switch it.timing {
                case .fixed(let start, let end):
                    let begin = max(ready, start)
                    let slack = start - ready
                    let arrivalState: DayPlan.Arrival = begin > start ? .late : (trip != nil && slack < DayPlan.hurryMinutes ? .hurry : .onTime)
                    visit = DayPlan.Visit(item: item, trip: trip, lunchOnArrival: lunchStart, ready: ready, begin: begin, end: max(end, begin),
                                          lateness: begin - start, reason: .fixedTime, arrival: arrivalState)
                    s.fixedDone += 1
                case .flexible(let earliest, let latest, let minutes):
                    let begin = max(ready, earliest)
                    let late = max(0, begin + minutes - latest)
                    let reason: DayPlan.Reason = begin == earliest && ready <= earliest ? .windowOpens
                        : (lunchEnded == ready && lunchEnded != nil ? .afterLunch : .afterPrevious(previous))
                    visit = DayPlan.Visit(item: item, trip: trip, lunchOnArrival: lunchStart, ready: ready, begin: begin, end: begin + minutes,
                                          lateness: late, reason: reason, arrival: late > 0 ? .late : .onTime)
                    s.flexDone |= flexBit[item]
                }
                steps.append(.visit(visit))
                s.t = visit.end
                if let x = it.location { s.loc = x }
                previous = item
            }
        }
        for (bit, item) in flex.enumerated() where s.flexDone & (1 << UInt64(bit)) == 0 { unreachable.append(item) }
        return DayPlan(
            steps: steps, lunchMinutes: lunchMinutes, unreachable: unreachable,
            objective: best ?? DayPlan.Objective(unreachable: problem.items.count, lateness: 0, missedLunch: 0, travelCost: 0),
            travelMinutes: travelMinutes, proven: !exhausted, explored: explored)
    }
}
