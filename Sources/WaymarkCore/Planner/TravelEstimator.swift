import Foundation

/// One way of making one trip: how long it takes door to door, in whole minutes, and how far.
public struct TravelEstimate: Hashable, Sendable, Codable {
    public var mode: TravelMode
    public var minutes: Int
    public var metres: Int

    public init(mode: TravelMode, minutes: Int, metres: Int) {
        self.mode = mode
        self.minutes = minutes
        self.metres = metres
    }
}

/// Estimates a trip between two places by one mode, or nil when the mode cannot make it (PLN-5).
/// The built-in `GroundDistanceEstimator` needs nothing outside the process; real routing plugs
/// in behind the same interface.
public protocol TravelEstimator: Sendable {
    func estimate(from: Coordinate, to: Coordinate, by mode: TravelMode) -> TravelEstimate?
}

/// Distance on the ground (the great circle stretched by a detour factor for streets), a speed per
/// mode, and a fixed time to reach the vehicle: walking to the stop and waiting, parking, a ride
/// arriving. Coarse, but it never needs a network and is the same on every machine.
public struct GroundDistanceEstimator: TravelEstimator {
    public var detourFactor: Double
    /// Metres per minute.
    public var speeds: [TravelMode: Double]
    public var accessMinutes: [TravelMode: Int]

    public init(
        detourFactor: Double = 1.3,
        speeds: [TravelMode: Double] = [.walk: 80, .bike: 250, .transit: 333, .car: 417, .rideShare: 417],
        accessMinutes: [TravelMode: Int] = [.walk: 0, .bike: 2, .transit: 8, .car: 5, .rideShare: 7]
    ) {
        self.detourFactor = detourFactor
        self.speeds = speeds
        self.accessMinutes = accessMinutes
    }

    public func estimate(from: Coordinate, to: Coordinate, by mode: TravelMode) -> TravelEstimate? {
        guard from.isValid, to.isValid, let speed = speeds[mode], speed > 0 else { return nil }
        let metres = Geo.distance(from, to) * detourFactor
        let minutes = Int((metres / speed).rounded(.up)) + (accessMinutes[mode] ?? 0)
        return TravelEstimate(mode: mode, minutes: max(1, minutes), metres: Int(metres.rounded()))
    }
}

/// The trips a person would accept between two places, under their preferences (PLN-4, PLN-5):
/// no walk or ride beyond its limit, no vehicle they have no access to. The transit window
/// depends on the time of leaving, so the planner applies it.
public struct TripOptions: Sendable {
    public var estimator: any TravelEstimator
    public var preferences: TravelPreferences

    public init(estimator: any TravelEstimator, preferences: TravelPreferences) {
        self.estimator = estimator
        self.preferences = preferences
    }

    public func options(from: Coordinate, to: Coordinate, modes: Set<TravelMode>) -> [TravelEstimate] {
        TravelMode.allCases.compactMap { mode in
            guard modes.contains(mode), preferences.has(mode), let e = estimator.estimate(from: from, to: to, by: mode) else { return nil }
            return accepts(e) ? e : nil
        }
    }

    /// Why the person would not take this trip, or nil: the reason a leg shows when no mode fits.
    public func refusal(from: Coordinate, to: Coordinate, mode: TravelMode) -> String? {
        guard preferences.has(mode) else {
            switch mode {
            case .bike: return "You have no bike and bike sharing is off."
            case .car: return "You have no car and car sharing is off."
            case .rideShare: return "No ride-sharing service is chosen."
            case .walk, .transit: return nil
            }
        }
        guard let e = estimator.estimate(from: from, to: to, by: mode) else { return "No \(mode.rawValue) route is known." }
        return accepts(e) ? nil : (mode == .walk ? "Too far to walk with your limit." : "Too far to cycle with your limit.")
    }

    private func accepts(_ e: TravelEstimate) -> Bool {
        switch e.mode {
        case .walk: e.metres <= preferences.maxWalkingMetres
        case .bike: e.metres <= preferences.maxBikingMetres
        case .transit, .car, .rideShare: true
        }
    }
}
