import Foundation
import WaymarkCore

/// How riders name a vehicle in a sentence: "Tram 33", "Metro M2", "Train S2".
enum TransitWords {
    static func vehicle(_ route: TransitFeed.Route) -> String {
        let kind: String = switch route.mode {
        case .tram: "Tram"
        case .metro: "Metro"
        case .rail: "Train"
        case .bus: "Bus"
        case .trolleybus: "Trolleybus"
        case .ferry: "Ferry"
        case .cableTram, .aerialLift: "Cable car"
        case .funicular: "Funicular"
        case .monorail: "Monorail"
        }
        return route.name.lowercased().hasPrefix(kind.lowercased()) ? route.name : "\(kind) \(route.name)"
    }
}
