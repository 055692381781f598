import Foundation

/// A 10-minute soft hold of one free spot while its holder drives there (PRK-9, PRK-10,
/// SpotMe 7.1–7.2). The server decides who wins; these are the rules around it.
public enum SoftHold {
    /// SpotMe 7.1.2: "a maximum of 10 minutes while they navigate to the lot".
    public static let duration: TimeInterval = 600

    public enum Status: String, CaseIterable, Sendable {
        /// The spot shows as held to everyone.
        case active
        /// The sensor saw a car on the held spot; the holder is asked whether it was them.
        case asking
        case ended
    }

    public enum Outcome: String, CaseIterable, Sendable {
        case expired, cancelled
        /// The holder held another spot, which ends the first: one hold per person.
        case replaced
        /// "Was it you?" — yes.
        case parked
        /// "Was it you?" — no, and another spot is held for the time left.
        case moved
        /// "Was it you?" — no, and no spot the holder may use is free.
        case nothingFree = "nothing-free"
    }

    /// The permits of which one is needed on `category` spot of a lot with `rules` at a
    /// site-local moment, or nil when anyone may park there then. A spot's own requirement
    /// (handicap) applies at all times and is enough on its own.
    public static func requiredPermits(category: SpotCategory, rules: [PermitRule], weekday: Weekday, minute: Int) -> Set<Permit>? {
        if let own = category.requiredPermit { return [own] }
        return PermitCheck.required(by: rules, weekday: weekday, minute: minute)
    }

    /// SpotMe 7.1.1.2: a red warning, not a refusal, when the holder (or a guest, who has no
    /// permits on record) lacks a permit the spot needs now.
    public static func permitWarning(required: Set<Permit>?, holding: Set<Permit>, names: PermitNames) -> String? {
        guard let required, required.isDisjoint(with: holding) else { return nil }
        if required.isEmpty { return "Nobody may park on this spot now." }
        return "This spot needs a \(names.either(required)) permit now."
    }

    /// A free spot the server could hold instead.
    public struct Candidate: Hashable, Sendable {
        public var spotId: String
        public var center: Coordinate
        public var category: SpotCategory
        public var rules: [PermitRule]

        public init(spotId: String, center: Coordinate, category: SpotCategory, rules: [PermitRule]) {
            self.spotId = spotId
            self.center = center
            self.category = category
            self.rules = rules
        }
    }

    /// SpotMe 7.2.2: the closest free spot by coordinates, ignoring spots that need a permit
    /// the holder does not have. Ties go to the smaller id so the choice is repeatable.
    public static func nearest(to origin: Coordinate, among candidates: [Candidate], permits: Set<Permit>,
                               weekday: Weekday, minute: Int) -> Candidate? {
        var best: (distance: Double, candidate: Candidate)?
        for c in candidates {
            if let required = requiredPermits(category: c.category, rules: c.rules, weekday: weekday, minute: minute),
               required.isDisjoint(with: permits) { continue }
            let d = Geo.distance(origin, c.center)
            if let b = best, (b.distance, b.candidate.spotId) <= (d, c.spotId) { continue }
            best = (d, c)
        }
        return best?.candidate
    }

    /// When a hold made at `start` ends by itself.
    public static func expiry(from start: Date) -> Date { start.addingTimeInterval(duration) }
}

/// Links that open the phone's maps app with directions to a place (SpotMe 7.1.1 hands
/// navigation to a maps app). Only the destination is in the link: the app knows where the
/// phone is, and the server never needs to.
public enum MapsLinks {
    public static func appleMaps(to place: Coordinate, driving: Bool = true) -> String {
        "https://maps.apple.com/?daddr=\(format(place))&dirflg=\(driving ? "d" : "w")"
    }

    public static func googleMaps(to place: Coordinate, driving: Bool = true) -> String {
        "https://www.google.com/maps/dir/?api=1&destination=\(format(place))&travelmode=\(driving ? "driving" : "walking")"
    }

    /// Six decimals are about 10 cm, finer than any spot.
    static func format(_ c: Coordinate) -> String {
        String(format: "%.6f,%.6f", c.latitude, c.longitude)
    }
}
