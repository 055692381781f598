/// The ways of getting to an event a person can allow (G4.7). Sharing schemes are not modes of
/// their own: a shared bike is ridden like one's own, a shared car driven like one's own; the
/// preferences say whether the person has either (G6.4, G6.6).
public enum TravelMode: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
    case walk, bike, transit, car, rideShare

    /// Walking, cycling and public transport: what eco mode prefers (G6.1).
    public var isGreen: Bool { self == .walk || self == .bike || self == .transit }

    public static func < (a: TravelMode, b: TravelMode) -> Bool { a.order < b.order }

    private var order: Int { Self.allCases.firstIndex(of: self)! }
}
