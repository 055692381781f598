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

extension TransitWords {
    /// "08:42": the place's 24-hour clock, as the server's notices and calendar notes write times.
    static func clock(in zone: TimeZone) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_GB")
        f.timeZone = zone
        f.dateFormat = "HH:mm"
        return f
    }

    /// A trip in a few lines a calendar app shows in an event's notes: each ride with its times,
    /// the walks between, in the place's 24-hour clock.
    static func trip(_ leg: DayPlans.Leg, zone: TimeZone) -> String {
        let clock = clock(in: zone)
        guard let timed = leg.journey else {
            return "\(PlanExplanation.minutes(leg.minutes)) \(PlanExplanation.words(leg.mode)), leaving at \(clock.string(from: leg.depart))."
        }
        let at = { (seconds: Int) in clock.string(from: timed.day.instant(seconds)) }
        return timed.journey.legs.map { part in
            switch part {
            case .walk(let w):
                let to = w.to?.name ?? "the event"
                return "\(at(w.departure)) Walk \(Int(w.metres.rounded())) m to \(to)"
            case .ride(let r):
                let toward = r.headsign.map { " toward \($0)" } ?? ""
                return "\(at(r.departure)) \(vehicle(r.route))\(toward) from \(r.from.name), get off at \(r.to.name) at \(at(r.arrival))"
            }
        }.joined(separator: "\n")
    }
}
