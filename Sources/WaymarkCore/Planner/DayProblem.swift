/// One person's day as the planner sees it (PLN-6): events in minutes after local midnight, the
/// places they are at as indices, and the trips between places each mode can make. Built from
/// calendars, preferences and an estimator by `DayProblem.make`; the benchmark reads the same
/// shape from JSON. The rules of a plan are in `DayPlanner`.
public struct DayProblem: Hashable, Sendable {
    public enum Timing: Hashable, Sendable {
        /// Attended from `start` to `end`; arriving later makes it late.
        case fixed(start: Int, end: Int)
        /// `minutes` long, somewhere inside `earliest`…`latest` (3.3.3).
        case flexible(earliest: Int, latest: Int, minutes: Int)
    }

    public struct Item: Hashable, Sendable {
        public var id: String
        public var timing: Timing
        /// An index into the day's places; nil for an event with no place (a call).
        public var location: Int?
        /// The modes allowed for getting to it (G4.7).
        public var modes: Set<TravelMode>

        public init(id: String, timing: Timing, location: Int?, modes: Set<TravelMode>) {
            self.id = id
            self.timing = timing
            self.location = location
            self.modes = modes
        }

        public var isFlexible: Bool { if case .flexible = timing { true } else { false } }
    }

    public struct Lunch: Hashable, Sendable {
        public var window: MinuteWindow
        public var minutes: Int

        public init(window: MinuteWindow, minutes: Int = TravelPreferences.lunchMinutes) {
            self.window = window
            self.minutes = minutes
        }
    }

    /// Where the day starts and from when; without one the first event needs no trip.
    public struct Origin: Hashable, Sendable {
        public var location: Int
        public var ready: Int

        public init(location: Int, ready: Int) {
            self.location = location
            self.ready = ready
        }
    }

    public var items: [Item]
    public var locationCount: Int
    /// Minutes from place `a` to place `b` by each mode that can make the trip, at `a * locationCount + b`.
    public var travel: [[TravelMode: Int]]
    /// Transit only departing and arriving inside this window; nil: at any time.
    public var transitWindow: MinuteWindow?
    /// What one minute by each mode costs the plan (eco mode makes cars dearer).
    public var weights: [TravelMode: Int]
    public var lunch: Lunch?
    public var origin: Origin?

    public init(
        items: [Item], locationCount: Int, travel: [[TravelMode: Int]], transitWindow: MinuteWindow? = nil,
        weights: [TravelMode: Int] = [:], lunch: Lunch? = nil, origin: Origin? = nil
    ) {
        self.items = items
        self.locationCount = locationCount
        self.travel = travel
        self.transitWindow = transitWindow
        self.weights = weights
        self.lunch = lunch
        self.origin = origin
    }

    public func minutes(from a: Int, to b: Int, by mode: TravelMode) -> Int? { travel[a * locationCount + b][mode] }

    public func weight(_ mode: TravelMode) -> Int { weights[mode] ?? 1 }
}
