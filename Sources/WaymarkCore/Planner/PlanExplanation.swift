import Foundation

/// Each event of a planned day explained in words (PLN-3, PLN-6): why it begins when it does and
/// how the trip to it stands. No clock times (the reader's locale and zone format those); spans
/// in minutes.
public enum PlanExplanation {
    /// The mode as a person says it, in a sentence.
    public static func words(_ mode: TravelMode) -> String {
        switch mode {
        case .walk: "walking"
        case .bike: "by bike"
        case .transit: "by public transport"
        case .car: "by car"
        case .rideShare: "by ride share"
        }
    }

    /// Why a visit begins when it does and how its trip stands; `titles` by item index.
    public static func why(_ visit: DayPlan.Visit, titles: [String]) -> String {
        var parts: [String] = []
        switch visit.reason {
        case .fixedTime: break
        case .windowOpens: parts.append("Placed as its window opens.")
        case .afterPrevious(let i?): parts.append("Placed right after \(quoted(titles[i])).")
        case .afterPrevious(nil): parts.append("Placed as early as you can be there.")
        case .afterLunch: parts.append("Placed right after lunch.")
        }
        let trip = visit.trip.map { "\(minutes($0.minutes)) \(words($0.mode))" }
        switch visit.arrival {
        case .onTime:
            if let trip, visit.reason == .fixedTime { parts.append("On time: \(trip), \(minutes(visit.begin - visit.ready)) to spare.") }
            else if let trip { parts.append("\(trip.prefix(1).uppercased() + trip.dropFirst()).") }
        case .hurry:
            parts.append("Hurry: \(trip ?? "the trip") leaves \(visit.begin == visit.ready ? "no time" : minutes(visit.begin - visit.ready)) to spare.")
        case .late:
            if let trip { parts.append("\(minutes(visit.lateness)) late: \(trip) from the event before.") }
            else { parts.append("\(minutes(visit.lateness)) late: the event before ends after it should begin.") }
        case .unreachable: break
        }
        return parts.joined(separator: " ")
    }

    /// Why the plan leaves out an event at `to`, the person being at `from` before it: one reason
    /// per mode allowed for the event; `transitRuns` says whether public transport runs in the
    /// person's hours at that time. When some way would get there, the event was given up so
    /// that another could be reached.
    public static func unreachable(from: Coordinate?, to: Coordinate?, modes: Set<TravelMode>, options: TripOptions,
                                   transitRuns: Bool) -> String {
        guard let from, let to else { return "No way there is known." }
        var reasons: [String] = []
        for mode in TravelMode.allCases where modes.contains(mode) {
            if let refusal = options.refusal(from: from, to: to, mode: mode) { reasons.append(refusal) }
            else if mode == .transit && !transitRuns { reasons.append("Public transport is outside your hours for it.") }
            else { return "You could get there, but then another event of the day could not be reached." }
        }
        if reasons.isEmpty { return "None of the ways you allow for it reaches it in the day." }
        return "No way there you allow: " + reasons.map { $0.prefix(1).lowercased() + $0.dropFirst().dropLast() }.joined(separator: "; ") + "."
    }

    public static func minutes(_ m: Int) -> String {
        if m < 60 { return "\(m) min" }
        return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min"
    }

    static func quoted(_ s: String) -> String { "“\(s)”" }
}
