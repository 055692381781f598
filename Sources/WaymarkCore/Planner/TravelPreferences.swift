/// How a person is willing to travel, and when they like to eat (PLN-4; G6, 3.3.4, 3.3.6).
/// Distances in metres, times in minutes after local midnight.
public struct TravelPreferences: Hashable, Sendable, Codable {
    public var ecoMode: Bool
    public var maxWalkingMetres: Int
    public var maxBikingMetres: Int
    public var ownsBike: Bool
    public var bikeSharing: Bool
    /// Public transport only between these minutes of the day (G6.5).
    public var transitWindow: MinuteWindow
    public var ownsCar: Bool
    public var carSharing: Bool
    /// The ride-sharing or taxi service the person uses, or nil for none (G6.7).
    public var rideSharingService: String?
    /// Where a 30-minute lunch is kept free when the day allows (3.3.6); nil: no lunch wanted.
    public var lunchWindow: MinuteWindow?

    public init(
        ecoMode: Bool = false, maxWalkingMetres: Int = 2_000, maxBikingMetres: Int = 8_000,
        ownsBike: Bool = false, bikeSharing: Bool = true,
        transitWindow: MinuteWindow = MinuteWindow(from: 6 * 60, to: 24 * 60),
        ownsCar: Bool = false, carSharing: Bool = false, rideSharingService: String? = nil,
        lunchWindow: MinuteWindow? = TravelPreferences.defaultLunchWindow
    ) {
        self.ecoMode = ecoMode
        self.maxWalkingMetres = maxWalkingMetres
        self.maxBikingMetres = maxBikingMetres
        self.ownsBike = ownsBike
        self.bikeSharing = bikeSharing
        self.transitWindow = transitWindow
        self.ownsCar = ownsCar
        self.carSharing = carSharing
        self.rideSharingService = rideSharingService
        self.lunchWindow = lunchWindow
    }

    public static let defaultLunchWindow = MinuteWindow(from: 11 * 60 + 30, to: 14 * 60 + 30)
    public static let lunchMinutes = 30
    /// Limits a form accepts: a walk of 50 km or a ride of 300 km is a typing slip.
    public static let walkingRange = 0...50_000
    public static let bikingRange = 0...300_000

    /// Whether the person can use `mode` at all, whatever the distance.
    public func has(_ mode: TravelMode) -> Bool {
        switch mode {
        case .walk, .transit: true
        case .bike: ownsBike || bikeSharing
        case .car: ownsCar || carSharing
        case .rideShare: rideSharingService != nil
        }
    }

    /// What a minute in `mode` costs the plan: in eco mode a minute by car counts twice, so
    /// walking, cycling and transit win unless they take more than twice as long.
    public func weight(of mode: TravelMode) -> Int { ecoMode && !mode.isGreen ? 2 : 1 }

    /// Why the preferences cannot be saved, or nil.
    public var problem: String? {
        if !Self.walkingRange.contains(maxWalkingMetres) { return "The walking limit is 0 to 50 km." }
        if !Self.bikingRange.contains(maxBikingMetres) { return "The biking limit is 0 to 300 km." }
        if let p = transitWindow.problem { return "Public transport times: \(p)" }
        if let lunch = lunchWindow {
            if let p = lunch.problem { return "Lunch: \(p)" }
            if lunch.minutes < Self.lunchMinutes { return "The lunch window is at least \(Self.lunchMinutes) minutes long." }
        }
        if let s = rideSharingService, s.trimmingCharacters(in: .whitespaces).isEmpty || s.count > 60 {
            return "The ride-sharing service is a name of 1 to 60 characters."
        }
        return nil
    }
}

/// A stretch of a day in minutes after local midnight, `from` inclusive, `to` exclusive;
/// `to` may be 1440 (midnight at the end of the day).
public struct MinuteWindow: Hashable, Sendable, Codable {
    public var from: Int
    public var to: Int

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    public var minutes: Int { to - from }

    public var problem: String? {
        guard (0...1440).contains(from), (0...1440).contains(to) else { return "times are between 00:00 and 24:00." }
        guard to > from else { return "the end is after the start." }
        return nil
    }
}
