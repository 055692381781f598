import WaymarkCore

/// The street networks a router can be asked about. OSRM serves one profile per process, so each
/// has its own address; car and ride share drive the same streets.
enum StreetProfile: String, Sendable, CaseIterable {
    case foot, bike, car

    /// The network `mode` travels on; nil for transit, which runs on the timetable, not the streets.
    init?(_ mode: TravelMode) {
        switch mode {
        case .walk: self = .foot
        case .bike: self = .bike
        case .car, .rideShare: self = .car
        case .transit: return nil
        }
    }
}
