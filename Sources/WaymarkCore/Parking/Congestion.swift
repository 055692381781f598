/// Lot congestion colours of PRK-4 (SpotMe 3.1.1): green below 65 %, yellow up to 85 %, red from 85 %.
public enum CongestionLevel: String, CaseIterable, Codable, Sendable {
    case green, yellow, red

    public static let yellowFrom = 0.65
    public static let redFrom = 0.85

    public init(fraction: Double) {
        if fraction >= Self.redFrom { self = .red }
        else if fraction >= Self.yellowFrom { self = .yellow }
        else { self = .green }
    }
}

/// Per-state counts of one lot. Closed spots are not part of the capacity.
public struct LotCounts: Hashable, Codable, Sendable {
    public var free = 0, occupied = 0, held = 0, booked = 0, closed = 0, unknown = 0

    public init(free: Int = 0, occupied: Int = 0, held: Int = 0, booked: Int = 0, closed: Int = 0, unknown: Int = 0) {
        self.free = free; self.occupied = occupied; self.held = held
        self.booked = booked; self.closed = closed; self.unknown = unknown
    }

    public init(states: some Sequence<SpotState>) {
        for s in states { self[s] += 1 }
    }

    public subscript(state: SpotState) -> Int {
        get {
            switch state {
            case .free: free
            case .occupied: occupied
            case .held: held
            case .booked: booked
            case .closed: closed
            case .unknown: unknown
            }
        }
        set {
            switch state {
            case .free: free = newValue
            case .occupied: occupied = newValue
            case .held: held = newValue
            case .booked: booked = newValue
            case .closed: closed = newValue
            case .unknown: unknown = newValue
            }
        }
    }

    /// Usable capacity.
    public var total: Int { free + occupied + held + booked + unknown }
    public var taken: Int { occupied + held + booked }

    /// Occupied including held and booked over capacity; 0 for an empty or fully closed lot.
    public var fraction: Double { total == 0 ? 0 : Double(taken) / Double(total) }
    public var level: CongestionLevel { CongestionLevel(fraction: fraction) }

    /// As drivers should see them when `spaces` booked drivers are expected
    /// (`Booking.awaitsArrival`): that many free spaces count as booked, as far as there are
    /// free ones — the sensors' other figures stay as they are.
    public func promising(_ spaces: Int) -> LotCounts {
        var shown = self
        let kept = min(max(spaces, 0), max(free, 0))
        shown.free -= kept
        shown.booked += kept
        return shown
    }

    public mutating func move(from old: SpotState, to new: SpotState) {
        guard old != new else { return }
        self[old] -= 1
        self[new] += 1
    }
}
