import Foundation

/// A way from one place to another by public transport (PLN-5): walks and rides in order.
public struct Journey: Hashable, Sendable {
    public var legs: [Leg]
    /// Seconds after the service day's start: when to set off, as late as still catches the
    /// first ride.
    public var departure: Int
    public var arrival: Int
    /// Rides after the first.
    public var transfers: Int { max(0, legs.filter(\.isRide).count - 1) }

    public enum Leg: Hashable, Sendable {
        case walk(Walk)
        case ride(Ride)

        public var isRide: Bool { if case .ride = self { true } else { false } }
        public var departure: Int { switch self { case .walk(let w): w.departure; case .ride(let r): r.departure } }
        public var arrival: Int { switch self { case .walk(let w): w.arrival; case .ride(let r): r.arrival } }
    }

    /// On foot; `from` or `to` is nil for the journey's own start or end.
    public struct Walk: Hashable, Sendable {
        public var from: TransitFeed.Stop?
        public var to: TransitFeed.Stop?
        public var metres: Double
        public var departure: Int
        public var arrival: Int
    }

    public struct Ride: Hashable, Sendable {
        public var route: TransitFeed.Route
        public var tripId: String
        public var headsign: String?
        public var from: TransitFeed.Stop
        public var to: TransitFeed.Stop
        public var departure: Int
        public var arrival: Int
        /// Stops the vehicle calls at after boarding, the last one included.
        public var stopCount: Int
    }
}

/// What a journey is asked for.
public struct JourneyQuery: Hashable, Sendable {
    public var from: Coordinate
    public var to: Coordinate
    /// Seconds after the service day's start.
    public var departure: Int
    /// The longest walk to the first stop, from the last one, or instead of riding at all.
    public var maximumWalk: Double
    /// Rides at most (RAPTOR's rounds).
    public var maximumRides: Int

    public init(from: Coordinate, to: Coordinate, departure: Int, maximumWalk: Double = 1_000, maximumRides: Int = 5) {
        self.from = from; self.to = to; self.departure = departure; self.maximumWalk = maximumWalk; self.maximumRides = maximumRides
    }
}
