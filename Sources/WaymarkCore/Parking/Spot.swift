/// What kind of space a spot is. Handicap spots need the Handicap permit at all times.
public enum SpotCategory: String, CaseIterable, Codable, Sendable {
    case regular, handicap, ev, motorcycle, visitor, reserved

    public var requiredPermit: Permit? { self == .handicap ? .handicap : nil }
}

public enum LotKind: String, CaseIterable, Codable, Sendable {
    case structure, surface
}

/// The state a client sees for one spot, one character each on the wire so that a lot of 2,500
/// spots costs 2.5 kB. The alphabet is part of the API contract.
public enum SpotState: Character, CaseIterable, Sendable, Codable {
    case free = "f"
    case occupied = "o"
    case held = "h"
    case booked = "b"
    case closed = "c"
    case unknown = "u"

    /// Counts toward congestion (PRK-4: occupied including held and booked).
    public var isTaken: Bool { self == .occupied || self == .held || self == .booked }

    public init?(code: Character) { self.init(rawValue: code) }
}
