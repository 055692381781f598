import Foundation

/// An occurrence of an event on the day being planned, with what the planner needs of it.
public struct DayEvent: Hashable, Sendable {
    public var id: String
    public var originalDay: LocalDay
    /// A fixed event's start and end, or a flexible event's window.
    public var start: Date
    public var end: Date
    /// A flexible event's length; nil for a fixed event.
    public var flexibleMinutes: Int?
    public var place: Coordinate?
    public var modes: Set<TravelMode>

    public init(id: String, originalDay: LocalDay, start: Date, end: Date, flexibleMinutes: Int? = nil,
                place: Coordinate? = nil, modes: Set<TravelMode>) {
        self.id = id
        self.originalDay = originalDay
        self.start = start
        self.end = end
        self.flexibleMinutes = flexibleMinutes
        self.place = place
        self.modes = modes
    }
}

/// A day planned: the plan, and the instants and places its minutes and indices stand for.
public struct PlannedDay: Sendable {
    public var plan: DayPlan
    public var problem: DayProblem
    public var events: [DayEvent]
    public var places: [Coordinate]
    /// Local midnight of the day: minute 0 of the plan.
    public var midnight: Date

    public func date(_ minute: Int) -> Date { midnight.addingTimeInterval(TimeInterval(minute * 60)) }
}

extension DayProblem {
    /// Plans `day` in `zone` for these occurrences (PLN-5, PLN-6): places become indices, trips
    /// come from `options` (the person's modes and limits), lunch from their preferences; the day
    /// starts at `origin`, from `ready`, when one is known.
    public static func planDay(
        _ events: [DayEvent], day: LocalDay, zone: TimeZone, options: TripOptions,
        origin: (place: Coordinate, ready: Date)? = nil, budget: Int = DayPlanner.defaultBudget
    ) -> PlannedDay {
        let midnight = WallTime(day: day, minute: 0).instant(in: zone)
        func minute(_ d: Date) -> Int { Int((d.timeIntervalSince(midnight) / 60).rounded(.down)) }
        var places: [Coordinate] = []
        var index: [Coordinate: Int] = [:]
        func place(_ c: Coordinate) -> Int {
            if let i = index[c] { return i }
            index[c] = places.count
            places.append(c)
            return places.count - 1
        }
        let items = events.map { e -> Item in
            let timing: Timing = if let m = e.flexibleMinutes {
                .flexible(earliest: minute(e.start), latest: minute(e.end), minutes: m)
            } else {
                .fixed(start: minute(e.start), end: minute(e.end))
            }
            return Item(id: e.id, timing: timing, location: e.place.map(place), modes: e.modes)
        }
        let start = origin.map { Origin(location: place($0.place), ready: minute($0.ready)) }
        let l = places.count
        var travel = Array(repeating: [TravelMode: Int](), count: l * l)
        for a in 0..<l {
            for b in 0..<l where a != b {
                for e in options.options(from: places[a], to: places[b], modes: Set(TravelMode.allCases)) {
                    travel[a * l + b][e.mode] = e.minutes
                }
            }
        }
        let prefs = options.preferences
        var weights: [TravelMode: Int] = [:]
        for m in TravelMode.allCases { weights[m] = prefs.weight(of: m) }
        // The transit window and lunch are wall-clock times of the day; on a DST day they are
        // minutes after midnight on the clock, which is what the person means.
        let transit = MinuteWindow(
            from: minute(WallTime(day: day, minute: prefs.transitWindow.from).instant(in: zone)),
            to: minute(WallTime(day: day, minute: prefs.transitWindow.to).instant(in: zone)))
        let lunch = prefs.lunchWindow.map { w in
            Lunch(window: MinuteWindow(
                from: minute(WallTime(day: day, minute: w.from).instant(in: zone)),
                to: minute(WallTime(day: day, minute: w.to).instant(in: zone))))
        }
        let problem = DayProblem(items: items, locationCount: l, travel: travel, transitWindow: transit,
                                 weights: weights, lunch: lunch, origin: start)
        return PlannedDay(plan: DayPlanner.plan(problem, budget: budget), problem: problem, events: events,
                          places: places, midnight: midnight)
    }
}
