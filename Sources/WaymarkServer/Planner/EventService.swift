import Foundation
import SQLKit
import WaymarkCore

/// Events (PLN-2): checked, saved, and the plan of the days they touch placed again, with the
/// person warned at once about any event that can no longer be reached in time (PLN-6).
struct EventService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let estimator: any PreparableEstimator
    let notifier: Notifier

    static let maximumEvents = 2_000
    /// How far ahead a change is checked for events it makes unreachable: the coming week.
    static let warningDays = 7

    struct Input: Sendable {
        var title: String
        var description: String?
        var calendarId: String?
        var start: String
        var end: String
        var timeZone: String
        var durationMinutes: Int?
        var repeats: (weekdays: [Int], interval: Int?, until: String?, count: Int?)?
        var place: (name: String, latitude: Double, longitude: Double)?
        var modes: [TravelMode]?
    }

    func event(_ principal: Principal, id: String) async throws -> PlannerEventRow {
        guard let e = try await PlannerStore.event(id: id, userId: principal.userId, on: store.sql) else { throw Problem.notFound("event") }
        return e
    }

    func create(_ principal: Principal, _ input: Input) async throws -> (PlannerEventRow, [DayPlans.Warning]) {
        let checked = try Self.checked(input, id: UUID().uuidString.lowercased())
        let now = now()
        let requested = input.calendarId
        return try await replanning(principal, before: nil) {
            try await store.write { sql in
                var event = checked
                let calendars = try await CalendarService.ensure(userId: principal.userId, now: now, on: sql)
                event.calendarId = try Self.calendar(requested, in: calendars)
                let count = try await sql.raw("SELECT COUNT(*) AS n FROM planner_events WHERE user_id = \(bind: principal.userId)").first()?
                    .decode(column: "n", as: Int.self) ?? 0
                guard count < Self.maximumEvents else { throw Problem.conflict("too-many-events", "You have \(Self.maximumEvents) events, the most there can be.") }
                try await PlannerStore.insertEvent(event, userId: principal.userId, now: now, on: sql)
                try await PlannerStore.markUsed(calendarId: event.calendarId, now: now, on: sql)
                return event
            }
        }
    }

    func update(_ principal: Principal, id: String, _ input: Input) async throws -> (PlannerEventRow, [DayPlans.Warning]) {
        let checked = try Self.checked(input, id: id)
        let before = try await self.event(principal, id: id)
        let now = now()
        let requested = input.calendarId ?? before.calendarId
        return try await replanning(principal, before: before) {
            try await store.write { sql in
                var event = checked
                guard let current = try await PlannerStore.event(id: id, userId: principal.userId, on: sql) else { throw Problem.notFound("event") }
                let calendars = try await PlannerStore.calendars(userId: principal.userId, on: sql)
                event.calendarId = try Self.calendar(requested, in: calendars)
                // Exceptions stay for the days the new rule still has.
                let schedule = event.schedule
                event.cancelled = current.cancelled.filter(schedule.isDue)
                event.moved = current.moved.filter { schedule.isDue(on: $0.key) }
                // An imported event keeps its UID and unread lines, so exporting it updates the copy elsewhere.
                event.icalUid = current.icalUid
                event.icalExtra = current.icalExtra
                event.allDay = current.allDay && event.start.minute == 0 && event.start.minutes(to: event.end) == 1440
                if current.calendarId != event.calendarId { try await PlannerStore.touch(calendarId: current.calendarId, now: now, on: sql) }
                try await PlannerStore.updateEvent(event, userId: principal.userId, now: now, on: sql)
                try await PlannerStore.markUsed(calendarId: event.calendarId, now: now, on: sql)
                return event
            }
        }
    }

    /// Deletes an event. Its going can leave another out of reach (the trip to it now starts
    /// elsewhere): such warnings go to the inbox.
    func delete(_ principal: Principal, id: String) async throws {
        let before = try await event(principal, id: id)
        _ = try await replanning(principal, before: before) {
            let now = now()
            let rows = try await store.write { sql in
                try await PlannerStore.touch(eventId: id, now: now, on: sql)
                return try await sql.raw("DELETE FROM planner_events WHERE id = \(bind: id) AND user_id = \(bind: principal.userId) RETURNING id").all()
            }
            if rows.isEmpty { throw Problem.notFound("event") }
            return before
        }
    }

    /// Moves one occurrence (RECURRENCE-ID); its own times again undo the move.
    func move(_ principal: Principal, id: String, day: String, start: String, end: String) async throws -> (PlannerEventRow, [DayPlans.Warning]) {
        let before = try await event(principal, id: id)
        let due = try Self.dueDay(day, of: before)
        guard let s = WallTime(start), let e = WallTime(end) else { throw Problem.badRequest("Times are YYYY-MM-DDTHH:MM, like 2026-03-30T09:00.") }
        guard s < e else { throw Problem.badRequest("The end is after the start.") }
        guard s.minutes(to: e) <= 1440 else { throw Problem.badRequest("An event lasts at most 24 hours.") }
        if let d = before.durationMinutes, d > s.minutes(to: e) { throw Problem.badRequest("The window is shorter than the event (\(d) minutes).") }
        let now = now()
        let original = WallTime(day: due, minute: before.start.minute)
        let undo = s == original && e == original.adding(minutes: before.start.minutes(to: before.end))
        return try await replanning(principal, before: before) {
            try await store.write { sql in
                guard try await PlannerStore.event(id: id, userId: principal.userId, on: sql) != nil else { throw Problem.notFound("event") }
                try await PlannerStore.touch(eventId: id, now: now, on: sql)
                if undo { try await PlannerStore.clearException(eventId: id, day: due, on: sql) }
                else { try await PlannerStore.setException(eventId: id, day: due, cancelled: false, moved: s...e, on: sql) }
                var after = before
                after.cancelled.remove(due)
                after.moved[due] = undo ? nil : s...e
                return after
            }
        }
    }

    /// Cancels one occurrence (EXDATE); warnings it causes, as for a deletion, go to the inbox.
    func cancel(_ principal: Principal, id: String, day: String) async throws {
        let before = try await event(principal, id: id)
        let due = try Self.dueDay(day, of: before)
        let now = now()
        _ = try await replanning(principal, before: before) {
            try await store.write { sql in
                guard try await PlannerStore.event(id: id, userId: principal.userId, on: sql) != nil else { throw Problem.notFound("event") }
                try await PlannerStore.touch(eventId: id, now: now, on: sql)
                try await PlannerStore.setException(eventId: id, day: due, cancelled: true, moved: nil, on: sql)
            }
            var after = before
            after.cancelled.insert(due)
            return after
        }
    }

    /// Every occurrence that begins on the days `from`…`to`, each read in its event's zone.
    func occurrences(_ principal: Principal, from: String, to: String) async throws -> [(event: PlannerEventRow, occurrence: Occurrence)] {
        guard let first = LocalDay(from), let last = LocalDay(to) else { throw Problem.badRequest("Days are YYYY-MM-DD, like 2026-03-30.") }
        guard first <= last else { throw Problem.badRequest("`to` is on or after `from`.") }
        guard first.distance(to: last) < 62 else { throw Problem.badRequest("At most 62 days at a time.") }
        var out: [(PlannerEventRow, Occurrence)] = []
        for e in try await PlannerStore.events(userId: principal.userId, on: store.sql) {
            let a = DayPlans.midnight(first, e.zone), b = DayPlans.midnight(last.adding(days: 1), e.zone)
            for o in e.schedule.occurrences(from: a, to: b) where o.start >= a && o.start < b { out.append((e, o)) }
        }
        return out.sorted { ($0.1.start, $0.0.title, $0.0.id) < ($1.1.start, $1.0.title, $1.0.id) }
    }

    // MARK: Placing again and warning

    /// Runs a change, then plans again the days ahead that the event had or has occurrences on:
    /// the answer carries every warning of those days, and the inbox gets the new ones.
    private func replanning(_ principal: Principal, before: PlannerEventRow?,
                            _ change: () async throws -> PlannerEventRow) async throws -> (PlannerEventRow, [DayPlans.Warning]) {
        let userId = principal.userId
        let eventsBefore = try await PlannerStore.events(userId: userId, on: store.sql)
        let after = try await change()
        let eventsAfter = try await PlannerStore.events(userId: userId, on: store.sql)
        let prefs = try await PlannerStore.preferences(userId: userId, on: store.sql)
        let now = now()
        let zone = DayPlans.zone(of: eventsAfter)
        let today = LocalDay(containing: now, timeZone: zone)
        var warnings: [DayPlans.Warning] = []
        var fresh: [DayPlans.Warning] = []
        // One round of router requests for the whole week, before and after the change.
        await DayPlans.prepare(estimator, events: eventsBefore + eventsAfter, from: DayPlans.midnight(today, zone),
                               to: DayPlans.midnight(today.adding(days: Self.warningDays), zone), preferences: prefs)
        for offset in 0..<Self.warningDays {
            let day = today.adding(days: offset)
            let (a, b) = (DayPlans.midnight(day, zone), DayPlans.midnight(day.adding(days: 1), zone))
            let touched = [before, after].contains { $0.map { !$0.dayEvents(from: a, to: b).isEmpty } ?? false }
            guard touched else { continue }
            let old = Set(DayPlans.plan(events: eventsBefore, preferences: prefs, day: day, zone: zone, now: now, estimator: estimator,
                                           budget: DayPlans.checkBudget).warnings
                .map { "\($0.eventId)/\($0.message)" })
            let new = DayPlans.plan(events: eventsAfter, preferences: prefs, day: day, zone: zone, now: now, estimator: estimator,
                                           budget: DayPlans.checkBudget).warnings
            warnings += new
            fresh += new.filter { !old.contains("\($0.eventId)/\($0.message)") }
        }
        try await notifier.notify(fresh.map { w in
            NotificationDraft(userId: userId, kind: .planUnreachable, title: "Check your plan for \(Self.dayName(w.day))",
                              body: w.message, planDay: w.day.description)
        })
        return (after, warnings)
    }

    /// "Thursday 19 November": notices are in English, like the rest of the server's texts.
    static func dayName(_ day: LocalDay) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_GB")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "EEEE d MMMM"
        return f.string(from: DayPlans.midnight(day, TimeZone(identifier: "UTC")!))
    }

    // MARK: Rules

    static func dueDay(_ text: String, of e: PlannerEventRow) throws -> LocalDay {
        guard let day = LocalDay(text) else { throw Problem.badRequest("Days are YYYY-MM-DD, like 2026-03-30.") }
        guard e.schedule.isDue(on: day) else { throw Problem.badRequest("The event has no occurrence on \(text).") }
        return day
    }

    /// An IANA zone by its name ("Europe/Rome"), or UTC by either of its names: Foundation on
    /// Linux calls UTC "GMT", so an event kept in UTC comes back to the app under that name.
    /// Abbreviations such as "CET" are refused: they name no rules.
    static func zone(named name: String) -> TimeZone? {
        guard name.contains("/") || name == "UTC" || name == "GMT" else { return nil }
        return TimeZone(identifier: name)
    }

    static func calendar(_ requested: String?, in calendars: [CalendarRow]) throws -> String {
        guard let requested else { return CalendarRow.lastUsed(of: calendars).id }
        guard let c = calendars.first(where: { $0.id == requested.lowercased() }) else { throw Problem.unknownReference(field: "calendarId", "calendar") }
        return c.id
    }

    /// The event the input describes, or a problem that says what to change. The calendar is
    /// filled in by the caller.
    static func checked(_ input: Input, id: String) throws -> PlannerEventRow {
        let title = input.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, input.title.count <= 200 else { throw Problem.badRequest("The title is 1 to 200 characters.") }
        if let d = input.description, d.count > 2_000 { throw Problem.badRequest("The description is at most 2,000 characters.") }
        guard let zone = Self.zone(named: input.timeZone) else {
            throw Problem.badRequest("“\(input.timeZone)” is not a time zone; use a name like Europe/Rome.")
        }
        guard let start = WallTime(input.start), let end = WallTime(input.end) else {
            throw Problem.badRequest("Times are YYYY-MM-DDTHH:MM, like 2026-03-30T09:00.")
        }
        guard start < end else { throw Problem.badRequest("The end is after the start.") }
        guard start.minutes(to: end) <= 1440 else { throw Problem.badRequest("An event lasts at most 24 hours.") }
        if let d = input.durationMinutes {
            guard (5...1440).contains(d) else { throw Problem.badRequest("A flexible event lasts 5 minutes to 24 hours.") }
            guard d <= start.minutes(to: end) else { throw Problem.badRequest("The window is shorter than the event (\(d) minutes).") }
        }
        var repeats: WeeklyRepeat?
        if let r = input.repeats {
            var until: LocalDay?
            if let text = r.until {
                guard let day = LocalDay(text) else { throw Problem.badRequest("The repeat's last day is YYYY-MM-DD.") }
                until = day
            }
            guard Set(r.weekdays).count == r.weekdays.count else { throw Problem.badRequest("Each weekday is chosen once.") }
            let rule = WeeklyRepeat(weekdays: r.weekdays.sorted(), interval: r.interval ?? 1, until: until, count: r.count)
            if let problem = rule.problem(first: start.day) { throw Problem.badRequest(problem) }
            repeats = rule
        }
        var place: EventPlace?
        if let p = input.place {
            let name = p.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, p.name.count <= 200, p.latitude.isFinite, p.longitude.isFinite, abs(p.latitude) <= 90, abs(p.longitude) <= 180 else {
                throw Problem.badRequest("A place has a name and a position on the map.")
            }
            place = EventPlace(name: name, coordinate: Coordinate(latitude: p.latitude, longitude: p.longitude))
        }
        if let m = input.modes, m.isEmpty || m.count > TravelMode.allCases.count {
            throw Problem.badRequest("Choose one to five ways of getting there.")
        }
        let modes = Set(input.modes ?? TravelMode.allCases)
        let description = input.description?.trimmingCharacters(in: .whitespacesAndNewlines)
        return PlannerEventRow(id: id, calendarId: "", title: title, description: description?.isEmpty == false ? description : nil,
                               start: start, end: end, zone: zone, durationMinutes: input.durationMinutes, repeats: repeats,
                               place: place, modes: modes)
    }
}
