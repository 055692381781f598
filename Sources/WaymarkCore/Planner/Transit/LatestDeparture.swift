import Foundation

extension Timetable {
    /// The journey that sets off last and still arrives by `deadline`, looking no earlier than
    /// `earliest`: what "time to leave" needs. Each earliest-arrival search from just after the
    /// last one's departure catches a later vehicle, so a few searches reach the last one that
    /// is in time. Nil when nothing from `earliest` on arrives by the deadline.
    public func latestDeparture(from: Coordinate, to: Coordinate, arrivingBy deadline: Int, earliest: Int,
                                maximumWalk: Double, maximumRides: Int = 5) -> Journey? {
        var best: Journey?
        var leave = earliest
        // More than enough for any deadline hours away; bounds the work on a dense timetable.
        for _ in 0..<64 {
            let q = JourneyQuery(from: from, to: to, departure: leave, maximumWalk: maximumWalk, maximumRides: maximumRides)
            guard let j = earliestArrival(q), j.arrival <= deadline else { break }
            guard j.legs.contains(where: \.isRide) else {
                // On foot the whole way: leave just in time.
                return RaptorSearch.shifted(j, by: deadline - j.arrival)
            }
            best = j
            leave = j.departure + 1
        }
        return best
    }
}

extension RaptorSearch {
    /// The same journey, every leg moved by `seconds`.
    static func shifted(_ j: Journey, by seconds: Int) -> Journey {
        Journey(legs: j.legs.map { leg in
            switch leg {
            case .walk(var w): w.departure += seconds; w.arrival += seconds; return .walk(w)
            case .ride(var r): r.departure += seconds; r.arrival += seconds; return .ride(r)
            }
        }, departure: j.departure + seconds, arrival: j.arrival + seconds)
    }
}
