import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Time to leave (PLN-7; Travlendar+ G8, D4–D6): for each coming event with a place, when to set
/// off by the way the plan chose — from the event before, or for the day's first from the
/// position the app last reported — and a notice at that moment in the inbox, live and by Web
/// Push, with the way and its first ride. Worked out afresh on every run, so a changed plan,
/// position or timetable re-times it; a row per person, event and day makes the database send
/// it once, whichever server runs the job and however often it restarts.
struct LeaveAlerts: Sendable {
    let store: SQLStore
    let plans: DayPlans
    let positions: PlannerPositions
    let estimator: any PreparableEstimator
    let transit: TransitServices
    let now: @Sendable () -> Date
    let logger: Logger

    /// Events starting this far ahead are looked at; a trip longer than this is not a day's trip.
    static let lookahead: TimeInterval = 3 * 3600
    /// The notice goes this long before the moment to leave, so the person has time to get ready.
    static let headStart: TimeInterval = 2 * 60

    /// One event's alert: when to leave, and the way.
    struct Due: Sendable {
        var event: PlannerEventRow
        var day: LocalDay
        var start: Date
        var leg: DayPlans.Leg
        var fromPosition: Bool
    }

    /// Sends the alerts that are due and not sent yet; how many were sent.
    @discardableResult
    func run() async throws -> Int {
        try await positions.prune()
        let at = now()
        let users = try await store.sql.raw("""
            SELECT DISTINCT e.user_id FROM planner_events e JOIN planner_calendars c ON c.id = e.calendar_id
            WHERE c.leave_alerts AND e.place_name IS NOT NULL ORDER BY e.user_id
            """).all().map { try $0.decode(column: "user_id", as: String.self) }
        var sent = 0
        for user in users {
            for due in try await dueAlerts(userId: user, at: at) where at >= due.leg.depart.addingTimeInterval(-Self.headStart) {
                if try await send(due, userId: user, at: at) { sent += 1 }
            }
        }
        return sent
    }

    /// The person's coming events (within `lookahead`) with when to leave for each.
    func dueAlerts(userId: String, at: Date) async throws -> [Due] {
        let events = try await PlannerStore.events(userId: userId, on: store.sql)
        let alerting = Set(try await PlannerStore.calendars(userId: userId, on: store.sql).filter(\.leaveAlerts).map(\.id))
        // Cheap first: most people have nothing in the next hours.
        guard events.contains(where: { e in alerting.contains(e.calendarId) && e.place != nil
                                       && !e.dayEvents(from: at, to: at.addingTimeInterval(Self.lookahead)).isEmpty }) else { return [] }
        let zone = DayPlans.zone(of: events)
        let today = LocalDay(containing: at, timeZone: zone)
        let prefs = try await PlannerStore.preferences(userId: userId, on: store.sql)
        var out: [Due] = []
        for day in [today, today.adding(days: 1)] where DayPlans.midnight(day, zone) < at.addingTimeInterval(Self.lookahead) {
            let view = try await plans.plan(userId: userId, day: day, zone: zone)
            let first = view.steps.first { $0.kind == .event && $0.event?.place != nil && $0.arrival != .unreachable }
            for step in view.steps where step.kind == .event && step.start > at && step.start <= at.addingTimeInterval(Self.lookahead) {
                guard let row = step.event, alerting.contains(row.calendarId), let place = row.place, step.arrival != .unreachable,
                      let occurrence = step.occurrenceDay else { continue }
                if let leg = step.leg {
                    out.append(Due(event: row, day: occurrence, start: step.start, leg: leg, fromPosition: false))
                } else if step.start == first?.start, let here = try await positions.latest(userId: userId),
                          let leg = try await fromPosition(here.position, to: place.coordinate, by: step.start, modes: row.modes, preferences: prefs) {
                    out.append(Due(event: row, day: occurrence, start: step.start, leg: leg, fromPosition: true))
                }
            }
        }
        return out
    }

    /// The day's first trip, from where the person is: the quickest way they would take, on the
    /// timetable when it is public transport.
    func fromPosition(_ here: Coordinate, to place: Coordinate, by start: Date, modes: Set<TravelMode>,
                      preferences: TravelPreferences) async throws -> DayPlans.Leg? {
        await estimator.prepare([here, place], modes: modes.filter(preferences.has))
        let options = TripOptions(estimator: estimator, preferences: preferences).options(from: here, to: place, modes: modes)
        guard let best = options.min(by: { ($0.minutes, $0.mode) < ($1.minutes, $1.mode) }), here != place else { return nil }
        let leg = DayPlans.Leg(mode: best.mode, depart: start.addingTimeInterval(-Double(best.minutes) * 60), arrive: start,
                               minutes: best.minutes, metres: best.metres, from: here, to: place)
        guard best.mode == .transit else { return leg }
        return try await DayPlans.onTimetable(leg, by: start, walking: preferences.maxWalkingMetres, transit: transit) ?? leg
    }

    /// Claims the alert and posts the notice in one transaction; false when it was sent before.
    private func send(_ due: Due, userId: String, at: Date) async throws -> Bool {
        let draft = NotificationDraft(userId: userId, kind: .timeToLeave, title: "Time to leave for “\(due.event.title)”",
                                      body: Self.body(due), planDay: due.day.description, eventId: due.event.id)
        let sent = try await store.write { sql -> Bool in
            guard try await sql.raw("""
                INSERT INTO leave_alerts (user_id, event_id, day, leave_at, sent_at)
                VALUES (\(bind: userId), \(bind: due.event.id), \(bind: due.day.description), \(bind: due.leg.depart.millis), \(bind: at.millis))
                ON CONFLICT (user_id, event_id, day) DO NOTHING RETURNING user_id
                """).first() != nil else { return false }
            try await Notifier.post([draft], at: at, within: sql)
            return true
        }
        if sent { logger.info("time to leave sent", metadata: ["event": .string(due.event.id), "day": .stringConvertible(due.day)]) }
        return sent
    }

    /// "Tram 33 from Piazza Leonardo da Vinci at 08:42, at Bovisa by 09:58." Clock times are the
    /// place's (the event's zone), 24-hour.
    static func body(_ due: Due) -> String {
        let clock = TransitWords.clock(in: due.event.zone)
        let place = due.event.place?.name ?? "the event"
        let arrive = "at \(place) by \(clock.string(from: due.leg.arrive))"
        if let ride = due.leg.journey?.journey.legs.lazy.compactMap({ if case .ride(let r) = $0 { r } else { nil } }).first,
           let day = due.leg.journey?.day {
            return "\(TransitWords.vehicle(ride.route)) from \(ride.from.name) at \(clock.string(from: day.instant(ride.departure))), \(arrive)."
        }
        let way = PlanExplanation.words(due.leg.mode)
        return "Leave at \(clock.string(from: due.leg.depart)): \(PlanExplanation.minutes(due.leg.minutes)) \(way), \(arrive)."
    }
}
