import Foundation
import WaymarkCore

/// The day plan as the API shows it (PLN-3, PLN-5, PLN-6): each event at the time the planner
/// gives it (unreachable ones at their own time), lunch, the trip to each event with the other
/// trips the person would take, and what to warn about. Reads only; `plan(events:…)` is pure.
struct DayPlans: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    /// Readied by `prepare` before each plan: the synchronous planner cannot wait on a street router.
    let estimator: any PreparableEstimator
    /// The timetable's journeys for transit legs, when a feed is loaded.
    let transit: TransitServices?

    /// Search nodes per day on the server. Each node costs more the more events a day has, so
    /// beyond 20 events the budget shrinks with their square: a crowded day answers quickly with
    /// the best plan found (marked not proven) rather than keeping the request waiting. Checking
    /// the days a change touches plans up to 14 of them, so each gets a tenth.
    static let budget = 200_000
    static let checkBudget = 20_000

    static func budget(_ base: Int, events n: Int) -> Int {
        n <= 20 ? base : max(1_000, base * 100 / (n * n))
    }
    /// The planner moves at most 64 flexible events a day; any more keep their window's opening.
    static let maximumFlexible = 64

    struct Leg: Sendable, Hashable {
        var mode: TravelMode
        var depart: Date
        var arrive: Date
        var minutes: Int
        var metres: Int
        var from: Coordinate
        var to: Coordinate
        /// A transit leg's journey on the timetable: the vehicles and walks, leaving as late as
        /// still arrives by the event's start.
        var journey: TimetableJourney?
        /// Who provides a ride or a shared bike, with the link that opens their app (G3.2.2).
        var provider: SharingLink?
    }

    struct TimetableJourney: Sendable, Hashable {
        var journey: Journey
        var day: ServiceDay
    }

    struct Step: Sendable {
        enum Kind: String, Sendable { case event, lunch }
        var kind: Kind
        var start: Date
        var end: Date
        var event: PlannerEventRow?
        var occurrenceDay: LocalDay?
        var flexible = false
        var arrival: DayPlan.Arrival?
        var lateMinutes = 0
        var why: String?
        var leg: Leg?
        var lunchBefore = false
        var options: [TravelEstimate] = []
        var refusals: [(mode: TravelMode, reason: String)] = []
    }

    struct Warning: Sendable, Hashable {
        var eventId: String
        var day: LocalDay
        var title: String
        var message: String
    }

    struct View: Sendable {
        var day: LocalDay
        var zone: TimeZone
        var past: Bool
        var steps: [Step]
        var warnings: [Warning]
        var travelMinutes: Int
        var lunchMissed: Bool
        var proven: Bool
    }

    func plan(userId: String, day: LocalDay, zone: TimeZone?) async throws -> View {
        let events = try await PlannerStore.events(userId: userId, on: store.sql)
        let prefs = try await PlannerStore.preferences(userId: userId, on: store.sql)
        return try await plan(events: events, preferences: prefs, day: day, zone: zone)
    }

    /// The same from rows already read, for callers that plan several days of one person.
    func plan(events: [PlannerEventRow], preferences prefs: TravelPreferences, day: LocalDay, zone: TimeZone?) async throws -> View {
        let zone = zone ?? Self.zone(of: events), at = now()
        // A day gone by shows no travel (D3): nothing to ask a router.
        if day >= LocalDay(containing: at, timeZone: zone) {
            await Self.prepare(estimator, events: events, from: Self.midnight(day, zone), to: Self.midnight(day.adding(days: 1), zone),
                               preferences: prefs)
        }
        var view = Self.plan(events: events, preferences: prefs, day: day, zone: zone, now: at, estimator: estimator)
        if let transit { try await ride(&view, on: transit, preferences: prefs) }
        for i in view.steps.indices {
            if let leg = view.steps[i].leg { view.steps[i].leg?.provider = Self.provider(leg, prefs) }
        }
        return view
    }

    /// A ride goes through the person's service; a bike they do not own is the city's shared one.
    static func provider(_ leg: Leg, _ prefs: TravelPreferences) -> SharingLink? {
        switch leg.mode {
        case .rideShare: prefs.rideSharingService.map { SharingServices.ride($0, to: leg.to) }
        case .bike where !prefs.ownsBike && prefs.bikeSharing: SharingServices.bikeSharing(at: leg.from)
        default: nil
        }
    }

    /// Each transit leg on the timetable, where a journey makes it (`onTimetable`); the others
    /// keep the estimate.
    func ride(_ view: inout View, on transit: TransitServices, preferences: TravelPreferences) async throws {
        for i in view.steps.indices {
            guard let leg = view.steps[i].leg, leg.mode == .transit,
                  let timed = try await Self.onTimetable(leg, by: view.steps[i].start, walking: preferences.maxWalkingMetres, transit: transit)
            else { continue }
            view.steps[i].leg = timed
            view.travelMinutes += timed.minutes - leg.minutes
            // The explanation told the estimate's figures; it tells the journey's now.
            let start = view.steps[i].start
            let spare = { (arrive: Date) in Int(start.timeIntervalSince(arrive) / 60) }
            view.steps[i].why = view.steps[i].why.map {
                $0.replacingOccurrences(of: "\(PlanExplanation.minutes(leg.minutes)) \(PlanExplanation.words(.transit))",
                                        with: "\(PlanExplanation.minutes(timed.minutes)) \(PlanExplanation.words(.transit))")
                  .replacingOccurrences(of: "\(PlanExplanation.minutes(spare(leg.arrive))) to spare",
                                        with: "\(PlanExplanation.minutes(spare(timed.arrive))) to spare")
            }
        }
    }

    /// A transit leg as the timetable has it: the journey that leaves last and still arrives by
    /// `start`, looked for from an hour before the estimate said to leave; nil without a
    /// timetable or when no journey makes it.
    static func onTimetable(_ leg: Leg, by start: Date, walking: Int, transit: TransitServices) async throws -> Leg? {
        guard let row = try await transit.store.current(), let feedZone = TimeZone(identifier: row.timeZone) else { return nil }
        let day = ServiceDay(containing: start, timeZone: feedZone)
        let timetable = try await transit.cache.timetable(for: row, on: day.date)
        guard let j = timetable.latestDeparture(from: leg.from, to: leg.to, arrivingBy: day.seconds(at: start),
                                                earliest: max(0, day.seconds(at: leg.depart) - 3600), maximumWalk: Double(walking))
        else { return nil }
        var out = leg
        out.journey = TimetableJourney(journey: j, day: day)
        out.depart = day.instant(j.departure)
        out.arrive = day.instant(j.arrival)
        out.minutes = Int((Double(j.arrival - j.departure) / 60).rounded(.up))
        return out
    }

    /// Readies `estimator` for the trips between the events that begin in `from..<to`: their places
    /// in the order they come, by the ways they allow that the person has.
    static func prepare(_ estimator: any PreparableEstimator, events: [PlannerEventRow], from: Date, to: Date,
                        preferences: TravelPreferences) async {
        let occurrences = events.flatMap { $0.dayEvents(from: from, to: to) }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        let modes = occurrences.reduce(into: Set<TravelMode>()) { $0.formUnion($1.modes) }.filter(preferences.has)
        await estimator.prepare(occurrences.compactMap(\.place), modes: modes)
    }

    /// The zone a person's days are read in when none is asked for: the one most of their events
    /// use (ties by name), or UTC.
    static func zone(of events: [PlannerEventRow]) -> TimeZone {
        let counts = Dictionary(grouping: events, by: \.zone.identifier).mapValues(\.count)
        let best = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
        return best.flatMap { TimeZone(identifier: $0.key) } ?? TimeZone(identifier: "UTC")!
    }

    static func midnight(_ day: LocalDay, _ zone: TimeZone) -> Date { WallTime(day: day, minute: 0).instant(in: zone) }

    static func plan(events: [PlannerEventRow], preferences: TravelPreferences, day: LocalDay, zone: TimeZone, now: Date,
                     estimator: any TravelEstimator, budget: Int = budget) -> View {
        let from = midnight(day, zone), to = midnight(day.adding(days: 1), zone)
        let past = day < LocalDay(containing: now, timeZone: zone)
        var rows: [String: PlannerEventRow] = [:]
        var dayEvents: [DayEvent] = []
        for e in events {
            rows[e.id] = e
            dayEvents += e.dayEvents(from: from, to: to)
        }
        guard !dayEvents.isEmpty else {
            return View(day: day, zone: zone, past: past, steps: [], warnings: [], travelMinutes: 0, lunchMissed: false, proven: true)
        }
        dayEvents.sort { ($0.start, $0.end, $0.id) < ($1.start, $1.end, $1.id) }
        var flexible = 0
        for i in dayEvents.indices where dayEvents[i].flexibleMinutes != nil {
            flexible += 1
            if flexible > maximumFlexible, let m = dayEvents[i].flexibleMinutes {
                dayEvents[i].end = dayEvents[i].start.addingTimeInterval(TimeInterval(m * 60))
                dayEvents[i].flexibleMinutes = nil
            }
        }
        let options = TripOptions(estimator: estimator, preferences: preferences)
        let planned = DayProblem.planDay(dayEvents, day: day, zone: zone, options: options,
                                         budget: Self.budget(budget, events: dayEvents.count))
        let titles = dayEvents.map { rows[$0.id]?.title ?? "" }
        var steps: [Step] = []
        var warnings: [Warning] = []
        var here: Coordinate?
        for step in planned.plan.steps {
            switch step {
            case .lunch(let s, let e):
                steps.append(Step(kind: .lunch, start: planned.date(s), end: planned.date(e)))
            case .visit(let v):
                let ev = dayEvents[v.item]
                let row = rows[ev.id]!
                if let s = v.lunchOnArrival {
                    steps.append(Step(kind: .lunch, start: planned.date(s), end: planned.date(s + planned.plan.lunchMinutes)))
                }
                var out = Step(kind: .event, start: planned.date(v.begin), end: planned.date(v.end), event: row, occurrenceDay: ev.originalDay,
                               flexible: ev.flexibleMinutes != nil, arrival: v.arrival, lateMinutes: v.lateness,
                               why: Optional(PlanExplanation.why(v, titles: titles)).flatMap { $0.isEmpty ? nil : $0 },
                               lunchBefore: v.lunchOnArrival != nil)
                if let trip = v.trip {
                    let a = planned.places[trip.from], b = planned.places[trip.to]
                    out.leg = Leg(mode: trip.mode, depart: planned.date(trip.depart), arrive: planned.date(trip.arrive), minutes: trip.minutes,
                                  metres: estimator.estimate(from: a, to: b, by: trip.mode)?.metres ?? 0, from: a, to: b)
                }
                if let a = here, let b = ev.place, a != b {
                    out.options = options.options(from: a, to: b, modes: ev.modes).sorted { ($0.minutes, $0.mode) < ($1.minutes, $1.mode) }
                    for mode in TravelMode.allCases where ev.modes.contains(mode) && !out.options.contains(where: { $0.mode == mode }) {
                        out.refusals.append((mode, options.refusal(from: a, to: b, mode: mode) ?? "Public transport is outside your hours for it."))
                    }
                }
                if v.arrival == .late {
                    warnings.append(Warning(eventId: row.id, day: day, title: row.title, message: "“\(row.title)” will begin late. \(out.why ?? "")"))
                }
                if let p = ev.place { here = p }
                steps.append(out)
            }
        }
        for item in planned.plan.unreachable {
            let ev = dayEvents[item]
            let row = rows[ev.id]!
            let start = ev.start
            let end = ev.flexibleMinutes.map { start.addingTimeInterval(TimeInterval($0 * 60)) } ?? ev.end
            // From where the person is at the event's time: the last place reached before it.
            let before = steps.last { $0.kind == .event && $0.end <= start && $0.event?.place != nil }?.event?.place?.coordinate
            // Transit runs for it when a trip arriving by its start leaves and arrives in the person's hours.
            let startMinute = Int(start.timeIntervalSince(from) / 60)
            let ride = before.flatMap { a in ev.place.flatMap { estimator.estimate(from: a, to: $0, by: .transit)?.minutes } } ?? 0
            let window = planned.problem.transitWindow
            let transitRuns = window.map { startMinute - ride >= $0.from && startMinute <= $0.to } ?? true
            let reason = PlanExplanation.unreachable(from: before, to: ev.place, modes: ev.modes, options: options, transitRuns: transitRuns)
            steps.append(Step(kind: .event, start: start, end: end, event: row, occurrenceDay: ev.originalDay, flexible: ev.flexibleMinutes != nil,
                              arrival: .unreachable, why: reason))
            warnings.append(Warning(eventId: row.id, day: day, title: row.title, message: "“\(row.title)” cannot be reached. \(reason)"))
        }
        steps.sort { ($0.start, $0.kind == .lunch ? 0 : 1) < ($1.start, $1.kind == .lunch ? 0 : 1) }
        if past {
            // No travel for days gone by (D3).
            for i in steps.indices {
                steps[i].leg = nil
                steps[i].options = []
                steps[i].refusals = []
                steps[i].arrival = nil
                steps[i].why = nil
            }
            warnings = []
        }
        return View(day: day, zone: zone, past: past, steps: steps, warnings: warnings, travelMinutes: past ? 0 : planned.plan.travelMinutes,
                    lunchMissed: planned.plan.objective.missedLunch > 0, proven: planned.plan.proven)
    }
}
