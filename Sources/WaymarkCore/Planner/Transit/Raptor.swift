import Foundation

/// Journeys on a `Timetable` by RAPTOR (Delling, Pajor and Werneck, "Round-Based Public Transit
/// Routing", 2012): round k finds the earliest arrival at every stop with at most k rides, by
/// scanning each pattern once from the stops the previous round improved, then walking on to
/// nearby stops. Each round that reaches the destination earlier than all rounds before gives
/// one journey of the Pareto set of arrival time against rides.
extension Timetable {
    /// The journeys with fewest rides for each earlier arrival: the first rides least, the last
    /// arrives earliest. A walk the whole way, when it is within `maximumWalk`, is the first.
    public func journeys(_ q: JourneyQuery) -> [Journey] {
        var search = RaptorSearch(timetable: self, query: q)
        return search.run()
    }

    /// The journey that arrives first (among those, the one with fewest rides).
    public func earliestArrival(_ q: JourneyQuery) -> Journey? { journeys(q).last }
}

struct RaptorSearch {
    let t: Timetable
    let q: JourneyQuery
    static let unreached = Int.max

    /// How a stop was reached in a round.
    enum Step {
        /// Not in this round: as in the round before.
        case none
        case access(metres: Double)
        /// By a ride of a pattern's trip boarded at a position.
        case ride(pattern: Int, trip: Int, boardPosition: Int, alightPosition: Int)
        /// On foot from a stop a ride of the same round reached.
        case walk(from: Int, seconds: Int)
    }

    /// Per round k: `reached[k]` the earliest arrival at each stop with at most k rides, however
    /// the last part was made; `rode[k]` the arrival by the round's own ride, which is what a
    /// transfer walk starts from (a walk never follows a walk). Keeping the two apart makes
    /// the answer exact although the walks between stops are not transitively closed.
    var reached: [[Int]]
    var how: [[Step]]
    var rode: [[Int]]
    var rideStep: [[Step]]
    var bestRide: [Int]
    let access: [(stop: Int, metres: Double)]
    let egress: [Int: Double]

    init(timetable: Timetable, query: JourneyQuery) {
        t = timetable
        q = query
        let n = timetable.stops.count
        reached = [Array(repeating: Self.unreached, count: n)]
        how = [Array(repeating: .none, count: n)]
        rode = [Array(repeating: Self.unreached, count: n)]
        rideStep = [Array(repeating: .none, count: n)]
        bestRide = Array(repeating: Self.unreached, count: n)
        access = timetable.stops(near: query.from, within: query.maximumWalk)
        egress = Dictionary(timetable.stops(near: query.to, within: query.maximumWalk).map { ($0.stop, $0.metres) }, uniquingKeysWith: min)
    }

    mutating func run() -> [Journey] {
        var found: [Journey] = []
        var bestAtTarget = Self.unreached
        let direct = Geo.distance(q.from, q.to)
        if direct <= q.maximumWalk {
            let w = t.walking.seconds(direct)
            bestAtTarget = q.departure + w
            found.append(Journey(legs: [.walk(.init(from: nil, to: nil, metres: direct, departure: q.departure, arrival: q.departure + w))],
                                 departure: q.departure, arrival: q.departure + w))
        }
        var marked = Set<Int>()
        for a in access {
            let at = q.departure + t.walking.seconds(a.metres)
            if at < reached[0][a.stop] {
                reached[0][a.stop] = at
                how[0][a.stop] = .access(metres: a.metres)
                marked.insert(a.stop)
            }
        }
        guard q.maximumRides > 0 else { return found }
        let n = t.stops.count
        for k in 1...q.maximumRides {
            guard !marked.isEmpty else { break }
            reached.append(reached[k - 1])
            how.append(Array(repeating: .none, count: n))
            rode.append(Array(repeating: Self.unreached, count: n))
            rideStep.append(Array(repeating: .none, count: n))
            // The patterns to scan, each from its earliest stop the last round improved.
            var from: [Int: Int] = [:]
            for stop in marked {
                for (p, position) in t.patternsAt[stop] { from[p] = min(from[p] ?? .max, position) }
            }
            marked.removeAll()
            var rodeTo: [Int] = []
            for (p, start) in from { scan(pattern: p, from: start, round: k, bound: bestAtTarget, rodeTo: &rodeTo, marked: &marked) }
            // Walks on from the stops a ride of this round reached.
            for stop in rodeTo {
                for w in t.walks[stop] {
                    let at = rode[k][stop] + w.seconds
                    if at < reached[k][w.to] && at < bestAtTarget {
                        reached[k][w.to] = at
                        how[k][w.to] = .walk(from: stop, seconds: w.seconds)
                        marked.insert(w.to)
                    }
                }
            }
            // The destination, on foot from where this round's rides ended (after a walk to a
            // stop, walking on from there would be one shorter walk).
            var arrive = Self.unreached, last = -1
            for stop in rodeTo {
                guard let metres = egress[stop] else { continue }
                let at = rode[k][stop] + t.walking.seconds(metres)
                if at < arrive || (at == arrive && stop < last) { arrive = at; last = stop }
            }
            if arrive < bestAtTarget, last >= 0 {
                bestAtTarget = arrive
                found.append(journey(to: last, round: k, arrive: arrive))
            }
        }
        return found
    }

    mutating func scan(pattern p: Int, from start: Int, round k: Int, bound: Int, rodeTo: inout [Int], marked: inout Set<Int>) {
        let pattern = t.patterns[p]
        var trip = -1, boardAt = -1
        for i in start..<pattern.stops.count {
            let stop = pattern.stops[i]
            if trip >= 0, pattern.trips[trip].alights[i] {
                let at = pattern.trips[trip].arrivals[i]
                if at < bestRide[stop] && at < bound {
                    if rode[k][stop] == Self.unreached { rodeTo.append(stop) }
                    bestRide[stop] = at
                    rode[k][stop] = at
                    rideStep[k][stop] = .ride(pattern: p, trip: trip, boardPosition: boardAt, alightPosition: i)
                    if at < reached[k][stop] {
                        reached[k][stop] = at
                        how[k][stop] = rideStep[k][stop]
                        marked.insert(stop)
                    }
                }
            }
            // Catch an earlier trip here, if the last round reached the stop in time for one.
            let ready = reached[k - 1][stop]
            guard ready != Self.unreached, trip < 0 || ready <= pattern.trips[trip].departures[i] else { continue }
            if let earlier = earliestTrip(pattern, position: i, after: ready, before: trip) {
                trip = earlier
                boardAt = i
            }
        }
    }

    /// The first trip of the pattern that takes people on at position `i` at `time` or later,
    /// before trip `before` when one is already caught.
    func earliestTrip(_ pattern: Timetable.Pattern, position i: Int, after time: Int, before: Int) -> Int? {
        let end = before >= 0 ? before : pattern.trips.count
        var lo = 0, hi = end
        while lo < hi {
            let mid = (lo + hi) / 2
            if pattern.trips[mid].departures[i] < time { lo = mid + 1 } else { hi = mid }
        }
        while lo < end {
            if pattern.trips[lo].boards[i] { return lo }
            lo += 1
        }
        return nil
    }

    /// The journey leaving as late as still catches its first ride: the wait is spent where the
    /// person is, not at the stop, and the departure is when they have to set off.
    static func leavingLate(_ legs: [Journey.Leg], earliest: Int, arrival: Int) -> Journey {
        guard let first = legs.firstIndex(where: \.isRide) else { return Journey(legs: legs, departure: earliest, arrival: arrival) }
        let ready = first == 0 ? earliest : legs[first - 1].arrival
        let slack = legs[first].departure - ready
        let moved = legs.enumerated().map { (i, leg) -> Journey.Leg in
            guard i < first, case .walk(var w) = leg else { return leg }
            w.departure += slack; w.arrival += slack
            return .walk(w)
        }
        return Journey(legs: moved, departure: earliest + slack, arrival: arrival)
    }

    func journey(to target: Int, round: Int, arrive: Int) -> Journey {
        var legs: [Journey.Leg] = []
        var stop = target, k = round
        legs.append(.walk(.init(from: t.stops[target], to: nil, metres: egress[target] ?? 0, departure: rode[round][target], arrival: arrive)))
        var step = rideStep[k][stop]
        while true {
            switch step {
            case .ride(let p, let trip, let board, let alight):
                let pattern = t.patterns[p], times = pattern.trips[trip]
                let route = t.routes[pattern.routeId] ?? TransitFeed.Route(id: pattern.routeId, shortName: pattern.routeId, longName: "", mode: .bus)
                legs.append(.ride(.init(route: route, tripId: times.tripId, headsign: times.headsign,
                                        from: t.stops[pattern.stops[board]], to: t.stops[pattern.stops[alight]],
                                        departure: times.departures[board], arrival: times.arrivals[alight], stopCount: alight - board)))
                stop = pattern.stops[board]
                k -= 1
                step = how[k][stop]
            case .walk(let from, let seconds):
                let m = Geo.distance(t.stops[from].position, t.stops[stop].position)
                legs.append(.walk(.init(from: t.stops[from], to: t.stops[stop], metres: m, departure: rode[k][from], arrival: rode[k][from] + seconds)))
                stop = from
                step = rideStep[k][from]
            case .access(let m):
                legs.append(.walk(.init(from: nil, to: t.stops[stop], metres: m, departure: q.departure, arrival: reached[0][stop])))
                // A stop at the start or end itself needs no walk; a change of platform where the
                // feed gives a time for it stays, however close the platforms are.
                let ordered = legs.reversed().filter { leg in if case .walk(let w) = leg { w.metres > 0 || w.arrival > w.departure } else { true } }
                return Self.leavingLate(ordered, earliest: q.departure, arrival: arrive)
            case .none:
                k -= 1
                step = how[k][stop]
            }
        }
    }
}
