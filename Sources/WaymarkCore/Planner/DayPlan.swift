/// What the planner decided for a day (PLN-6): the order, the times, the trips, lunch, what cannot
/// be reached, and why each event is where it is.
public struct DayPlan: Hashable, Sendable {
    /// Compared in order, each smaller is better: events that cannot be reached, minutes late in
    /// total, lunch missed (0 or 1), and minutes travelled weighted by mode.
    public struct Objective: Hashable, Sendable, Comparable, CustomStringConvertible {
        public var unreachable: Int
        public var lateness: Int
        public var missedLunch: Int
        public var travelCost: Int

        public init(unreachable: Int, lateness: Int, missedLunch: Int, travelCost: Int) {
            self.unreachable = unreachable
            self.lateness = lateness
            self.missedLunch = missedLunch
            self.travelCost = travelCost
        }

        public static func < (a: Objective, b: Objective) -> Bool {
            (a.unreachable, a.lateness, a.missedLunch, a.travelCost) < (b.unreachable, b.lateness, b.missedLunch, b.travelCost)
        }

        public var description: String { "[\(unreachable), \(lateness), \(missedLunch), \(travelCost)]" }
    }

    public struct Trip: Hashable, Sendable {
        public var from: Int
        public var to: Int
        public var mode: TravelMode
        public var depart: Int
        public var arrive: Int
        public var minutes: Int { arrive - depart }
    }

    /// Why an event begins when it does.
    public enum Reason: Hashable, Sendable {
        /// A fixed event at its own time.
        case fixedTime
        /// A flexible event at the opening of its window: nothing earlier keeps it waiting.
        case windowOpens
        /// A flexible event as soon as the person is there: after the event before it (by index)
        /// and the trip, if any.
        case afterPrevious(Int?)
        /// As soon as lunch is over.
        case afterLunch
    }

    /// How the trip to an event stands (PLN-3): enough time, little time, late, or no way there.
    public enum Arrival: String, Hashable, Sendable, Codable {
        case onTime, hurry, late, unreachable
    }

    public struct Visit: Hashable, Sendable {
        public var item: Int
        public var trip: Trip?
        /// Lunch taken on arrival, before the event, starting at this minute.
        public var lunchOnArrival: Int?
        /// When the person can begin: after the trip (and lunch on arrival, if taken there).
        public var ready: Int
        public var begin: Int
        public var end: Int
        public var lateness: Int
        public var reason: Reason
        public var arrival: Arrival
    }

    public enum Step: Hashable, Sendable {
        case visit(Visit)
        /// Lunch, where the person is at the time.
        case lunch(start: Int, end: Int)
    }

    public var steps: [Step]
    public var lunchMinutes: Int
    /// Events no allowed mode can reach from where the person would be (by index).
    public var unreachable: [Int]
    public var objective: DayPlan.Objective
    /// Minutes on the move, unweighted.
    public var travelMinutes: Int
    /// False when the search stopped at its budget: the plan is the best found, not proven best.
    public var proven: Bool
    /// Search nodes visited, for benchmarks.
    public var explored: Int

    public var visits: [Visit] { steps.compactMap { if case .visit(let v) = $0 { v } else { nil } } }

    public var lunch: (start: Int, end: Int)? {
        for step in steps {
            switch step {
            case .lunch(let s, let e): return (s, e)
            case .visit(let v): if let s = v.lunchOnArrival { return (s, s + lunchMinutes) }
            }
        }
        return nil
    }

    /// Less slack than this before a fixed event's start (after a trip) is a hurry.
    public static let hurryMinutes = 10
}
