import Foundation
import SQLKit
import WaymarkCore

/// iCalendar files in and out (PLN-10): an import adds or updates events by UID in one
/// transaction; an export writes a calendar's events, and the trips of the coming days when asked.
struct CalendarFiles: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let plans: DayPlans

    /// Two megabytes is years of a busy person's calendar; the reader refuses more anyway.
    static let fileLimit = 2 << 20
    /// The trips an export with travel holds: the coming two weeks.
    static let travelDays = 14

    struct Report: Sendable {
        var calendar: CalendarRow
        var added: Int
        var updated: Int
        var skipped: [CalendarImport.Skip]
        var notes: [String]
    }

    func importFile(_ principal: Principal, _ data: Data, calendarId: String?, file: String?, timeZone: String?) async throws -> Report {
        let now = now()
        let existing = try await PlannerStore.events(userId: principal.userId, on: store.sql)
        var zone = DayPlans.zone(of: existing)
        if let timeZone {
            guard let z = EventService.zone(named: timeZone) else {
                throw Problem.badRequest("“\(timeZone)” is not a time zone; use a name like Europe/Rome.")
            }
            zone = z
        }
        let name = file.map { ($0 as NSString).lastPathComponent }.flatMap { $0.isEmpty ? nil : $0 } ?? "the file"
        let read: CalendarImport
        do { read = try CalendarImport.read(data, defaultZone: zone, now: now) } catch {
            throw Problem(type: "calendar-file-invalid", title: "This is not a calendar file Waymark can read", status: 422,
                          detail: "\(name): \(error)")
        }
        let skipped = read.skipped + read.events.compactMap { e in
            Self.problem(e).map { CalendarImport.Skip(line: e.line, uid: e.uid, title: e.title, reason: $0) }
        }
        let accepted = read.events.filter { Self.problem($0) == nil }
        let calendarName = Self.calendarName(read.calendarName, file: file)
        let (calendar, added, updated) = try await store.write { sql in
            let calendars = try await CalendarService.ensure(userId: principal.userId, now: now, on: sql)
            let target: CalendarRow
            if let calendarId {
                guard let c = calendars.first(where: { $0.id == calendarId.lowercased() }) else { throw Problem.notFound("calendar") }
                target = c
            } else if let same = calendars.first(where: { $0.name.lowercased() == calendarName.lowercased() }) {
                // The same file again (or a newer export of it) goes where it went before.
                target = same
            } else {
                guard calendars.count < CalendarService.maximumCalendars else {
                    throw Problem.conflict("too-many-calendars", "You have \(CalendarService.maximumCalendars) calendars, the most there can be; choose one to import into.")
                }
                let colour = CalendarColour.palette[calendars.count % CalendarColour.palette.count]
                target = CalendarRow(id: UUID().uuidString.lowercased(), name: calendarName, colour: colour, usedAt: 0)
                try await PlannerStore.insertCalendar(target, userId: principal.userId, now: now, on: sql)
            }
            var byUid: [String: String] = [:]
            for row in try await sql.raw("""
                SELECT id, ical_uid FROM planner_events WHERE calendar_id = \(bind: target.id) AND ical_uid IS NOT NULL
                """).all() {
                byUid[try row.decode(column: "ical_uid", as: String.self)] = try row.decode(column: "id", as: String.self)
            }
            let count = try await sql.raw("SELECT COUNT(*) AS n FROM planner_events WHERE user_id = \(bind: principal.userId)").first()?
                .decode(column: "n", as: Int.self) ?? 0
            let adding = accepted.filter { byUid[$0.uid] == nil }.count
            guard count + adding <= EventService.maximumEvents else {
                throw Problem.conflict("too-many-events", "The file adds \(adding) events to your \(count); \(EventService.maximumEvents) is the most there can be.")
            }
            var added = 0, updated = 0
            for e in accepted {
                if let id = byUid[e.uid] {
                    try await PlannerStore.updateEvent(Self.row(e, id: id, calendarId: target.id), userId: principal.userId, now: now, on: sql)
                    updated += 1
                } else {
                    try await PlannerStore.insertEvent(Self.row(e, id: UUID().uuidString.lowercased(), calendarId: target.id),
                                                       userId: principal.userId, now: now, on: sql)
                    added += 1
                }
            }
            try await PlannerStore.touch(calendarId: target.id, now: now, on: sql)
            return (target, added, updated)
        }
        return Report(calendar: calendar, added: added, updated: updated, skipped: skipped.sorted { $0.line < $1.line }, notes: read.notes)
    }

    /// The calendar as an iCalendar file, with the coming days' trips when `travel`.
    func export(userId: String, calendarId: String, travel: Bool, refreshMinutes: Int? = nil) async throws -> (name: String, text: String) {
        guard let calendar = try await PlannerStore.calendars(userId: userId, on: store.sql).first(where: { $0.id == calendarId }) else {
            throw Problem.notFound("calendar")
        }
        let all = try await PlannerStore.events(userId: userId, on: store.sql)
        var events = all.filter { $0.calendarId == calendarId }.map(Self.calendarEvent)
        if travel { events += try await trips(userId: userId, calendarId: calendarId, events: all) }
        return (calendar.name, CalendarExport.write(name: calendar.name, events: events, now: now(), refreshMinutes: refreshMinutes))
    }

    /// Each planned trip to an event of the calendar in the coming days, as an event of its own
    /// ("Travel to …", by what and from when), so a calendar app blocks the time.
    func trips(userId: String, calendarId: String, events: [PlannerEventRow]) async throws -> [CalendarEvent] {
        guard events.contains(where: { $0.calendarId == calendarId && $0.place != nil }) else { return [] }
        let zone = DayPlans.zone(of: events)
        let today = LocalDay(containing: now(), timeZone: zone)
        let prefs = try await PlannerStore.preferences(userId: userId, on: store.sql)
        var out: [CalendarEvent] = []
        for offset in 0..<Self.travelDays {
            let day = today.adding(days: offset)
            let view = try await plans.plan(events: events, preferences: prefs, day: day, zone: zone)
            for step in view.steps {
                guard let event = step.event, event.calendarId == calendarId, let leg = step.leg, let due = step.occurrenceDay,
                      leg.arrive > leg.depart else { continue }
                let start = WallTime(leg.depart, in: event.zone), end = WallTime(leg.arrive, in: event.zone)
                guard start < end else { continue }
                out.append(CalendarEvent(
                    uid: "travel-\(event.id)-\(due)@waymark", title: "Travel to \(event.title)",
                    description: TransitWords.trip(leg, zone: event.zone), locationName: nil, coordinate: nil,
                    start: start, end: end, zone: event.zone))
            }
        }
        return out
    }

    // MARK: Mapping

    static func calendarName(_ own: String?, file: String?) -> String {
        let stem = file.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
        for candidate in [own, stem, "Imported"] {
            let t = candidate?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if !t.isEmpty { return String(t.prefix(60)) }
        }
        return "Imported"
    }

    /// Why an event read from a file cannot be kept, by the rules events made in the app keep.
    static func problem(_ e: CalendarEvent) -> String? {
        guard e.start < e.end else { return "It ends before it starts." }
        guard e.start.minutes(to: e.end) <= 1440 else { return "It lasts more than 24 hours; Waymark's events last at most a day." }
        if let r = e.repeats, let p = r.problem(first: e.start.day) { return p }
        if let d = e.flexibleMinutes, !(5...e.start.minutes(to: e.end)).contains(d) { return "Its flexible length does not fit its window." }
        if let c = e.coordinate, !c.isValid { return "Its position (GEO) is not on the globe." }
        return nil
    }

    static func row(_ e: CalendarEvent, id: String, calendarId: String) -> PlannerEventRow {
        let place = e.coordinate.map { EventPlace(name: e.locationName ?? "Event location", coordinate: $0) }
        var extra = e.extra
        // A place named without a position is kept as written, so exporting gives it back.
        if place == nil, let name = e.locationName { extra.insert("LOCATION:" + ICalendarText.escaped(name), at: 0) }
        return PlannerEventRow(
            id: id, calendarId: calendarId, title: e.title, description: e.description, start: e.start, end: e.end, zone: e.zone,
            durationMinutes: e.flexibleMinutes, repeats: e.repeats, place: place, modes: Set(TravelMode.allCases),
            cancelled: e.cancelled, moved: e.moved, icalUid: e.uid, icalExtra: extra, allDay: e.allDay)
    }

    static func calendarEvent(_ e: PlannerEventRow) -> CalendarEvent {
        var out = CalendarEvent(uid: e.icalUid ?? "\(e.id)@waymark", title: e.title, description: e.description,
                                locationName: e.place?.name, coordinate: e.place?.coordinate, start: e.start, end: e.end, zone: e.zone)
        out.allDay = e.allDay
        out.flexibleMinutes = e.durationMinutes
        out.repeats = e.repeats
        out.cancelled = e.cancelled
        out.moved = e.moved
        out.extra = e.icalExtra
        return out
    }
}
