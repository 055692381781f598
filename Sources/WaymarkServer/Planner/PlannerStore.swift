import Foundation
import SQLKit
import WaymarkCore

/// The SQL of calendars, events, their exceptions and travel preferences (PLN-1, PLN-2, PLN-4).
enum PlannerStore {
    // MARK: Calendars

    static func calendars(userId: String, on sql: any SQLDatabase) async throws -> [CalendarRow] {
        try await sql.raw("""
            SELECT id, name, colour, used_at, leave_alerts FROM planner_calendars WHERE user_id = \(bind: userId) ORDER BY name, created_at, id
            """).all().map { row in
            CalendarRow(id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
                        colour: CalendarColour(try row.decode(column: "colour", as: String.self)) ?? .black,
                        usedAt: try row.decode(column: "used_at", as: Int64.self), leaveAlerts: try row.decode(column: "leave_alerts", as: Bool.self))
        }
    }

    static func insertCalendar(_ c: CalendarRow, userId: String, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO planner_calendars (id, user_id, name, colour, created_at, used_at, leave_alerts)
            VALUES (\(bind: c.id), \(bind: userId), \(bind: c.name), \(bind: c.colour.hex), \(bind: now.millis), \(bind: c.usedAt), \(bind: c.leaveAlerts))
            """).run()
    }

    /// The calendar a new event goes to from now on.
    static func markUsed(calendarId: String, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw("UPDATE planner_calendars SET used_at = \(bind: now.millis) WHERE id = \(bind: calendarId)").run()
    }

    // MARK: Events

    private static let eventColumns = """
        id, calendar_id, title, description, start_wall, end_wall, time_zone, duration_minutes, repeat_weekdays,
        repeat_interval, repeat_until, repeat_count, place_name, place_lat, place_lon, modes, ical_uid, ical_extra, all_day
        """

    static func events(userId: String, on sql: any SQLDatabase) async throws -> [PlannerEventRow] {
        let rows = try await sql.raw("SELECT \(unsafeRaw: eventColumns) FROM planner_events WHERE user_id = \(bind: userId) ORDER BY id").all()
        var events = try rows.map(event)
        let exceptions = try await sql.raw("""
            SELECT x.event_id, x.day, x.cancelled, x.start_wall, x.end_wall FROM planner_exceptions x
            JOIN planner_events e ON e.id = x.event_id WHERE e.user_id = \(bind: userId)
            """).all()
        var index: [String: Int] = [:]
        for (i, e) in events.enumerated() { index[e.id] = i }
        for row in exceptions {
            guard let i = index[try row.decode(column: "event_id", as: String.self)] else { continue }
            try apply(row, to: &events[i])
        }
        return events
    }

    static func event(id: String, userId: String, on sql: any SQLDatabase) async throws -> PlannerEventRow? {
        guard let row = try await sql.raw("""
            SELECT \(unsafeRaw: eventColumns) FROM planner_events WHERE id = \(bind: id) AND user_id = \(bind: userId)
            """).first() else { return nil }
        var e = try event(row)
        for x in try await sql.raw("SELECT day, cancelled, start_wall, end_wall FROM planner_exceptions WHERE event_id = \(bind: id)").all() {
            try apply(x, to: &e)
        }
        return e
    }

    static func insertEvent(_ e: PlannerEventRow, userId: String, now: Date, on sql: any SQLDatabase) async throws {
        let r = e.repeats
        try await sql.raw("""
            INSERT INTO planner_events (id, user_id, calendar_id, title, description, start_wall, end_wall, time_zone, duration_minutes,
                repeat_weekdays, repeat_interval, repeat_until, repeat_count, place_name, place_lat, place_lon, modes, ical_uid, ical_extra,
                all_day, created_at, updated_at)
            VALUES (\(bind: e.id), \(bind: userId), \(bind: e.calendarId), \(bind: e.title), \(bind: e.description), \(bind: e.start.description),
                \(bind: e.end.description), \(bind: e.zone.identifier), \(bind: e.durationMinutes), \(bind: r.map { weekdays($0.weekdays) }),
                \(bind: r?.interval), \(bind: r?.until?.description), \(bind: r?.count), \(bind: e.place?.name),
                \(bind: e.place?.coordinate.latitude), \(bind: e.place?.coordinate.longitude), \(bind: modes(e.modes)),
                \(bind: e.icalUid), \(bind: extra(e.icalExtra)), \(bind: e.allDay), \(bind: now.millis), \(bind: now.millis))
            """).run()
        for day in e.cancelled.sorted() {
            try await setException(eventId: e.id, day: day, cancelled: true, moved: nil, on: sql)
        }
        for (day, times) in e.moved.sorted(by: { $0.key < $1.key }) where !e.cancelled.contains(day) {
            try await setException(eventId: e.id, day: day, cancelled: false, moved: times, on: sql)
        }
        try await touch(calendarId: e.calendarId, now: now, on: sql)
    }

    static func updateEvent(_ e: PlannerEventRow, userId: String, now: Date, on sql: any SQLDatabase) async throws {
        let r = e.repeats
        try await sql.raw("""
            UPDATE planner_events SET calendar_id = \(bind: e.calendarId), title = \(bind: e.title), description = \(bind: e.description),
                start_wall = \(bind: e.start.description), end_wall = \(bind: e.end.description), time_zone = \(bind: e.zone.identifier),
                duration_minutes = \(bind: e.durationMinutes), repeat_weekdays = \(bind: r.map { weekdays($0.weekdays) }),
                repeat_interval = \(bind: r?.interval), repeat_until = \(bind: r?.until?.description), repeat_count = \(bind: r?.count),
                place_name = \(bind: e.place?.name), place_lat = \(bind: e.place?.coordinate.latitude),
                place_lon = \(bind: e.place?.coordinate.longitude), modes = \(bind: modes(e.modes)), ical_uid = \(bind: e.icalUid),
                ical_extra = \(bind: extra(e.icalExtra)), all_day = \(bind: e.allDay), updated_at = \(bind: now.millis)
            WHERE id = \(bind: e.id) AND user_id = \(bind: userId)
            """).run()
        try await sql.raw("DELETE FROM planner_exceptions WHERE event_id = \(bind: e.id)").run()
        for day in e.cancelled.sorted() {
            try await setException(eventId: e.id, day: day, cancelled: true, moved: nil, on: sql)
        }
        for (day, times) in e.moved.sorted(by: { $0.key < $1.key }) where !e.cancelled.contains(day) {
            try await setException(eventId: e.id, day: day, cancelled: false, moved: times, on: sql)
        }
        try await touch(calendarId: e.calendarId, now: now, on: sql)
    }

    /// Records that a calendar's content changed: what its subscription feed's validators read.
    static func touch(calendarId: String, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw("UPDATE planner_calendars SET changed_at = \(bind: now.millis) WHERE id = \(bind: calendarId)").run()
    }

    /// The same for the calendar an event is in.
    static func touch(eventId: String, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE planner_calendars SET changed_at = \(bind: now.millis) WHERE id IN (SELECT calendar_id FROM planner_events WHERE id = \(bind: eventId))
            """).run()
    }

    static func setException(eventId: String, day: LocalDay, cancelled: Bool, moved: ClosedRange<WallTime>?, on sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM planner_exceptions WHERE event_id = \(bind: eventId) AND day = \(bind: day.description)").run()
        try await sql.raw("""
            INSERT INTO planner_exceptions (event_id, day, cancelled, start_wall, end_wall)
            VALUES (\(bind: eventId), \(bind: day.description), \(bind: cancelled), \(bind: moved?.lowerBound.description),
                    \(bind: moved?.upperBound.description))
            """).run()
    }

    static func clearException(eventId: String, day: LocalDay, on sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM planner_exceptions WHERE event_id = \(bind: eventId) AND day = \(bind: day.description)").run()
    }

    // MARK: Preferences

    static func preferences(userId: String, on sql: any SQLDatabase) async throws -> TravelPreferences {
        guard let row = try await sql.raw("SELECT settings FROM planner_preferences WHERE user_id = \(bind: userId)").first() else {
            return TravelPreferences()
        }
        return try JSONColumn.decode(TravelPreferences.self, try row.decode(column: "settings", as: String.self))
    }

    static func savePreferences(_ p: TravelPreferences, userId: String, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM planner_preferences WHERE user_id = \(bind: userId)").run()
        try await sql.raw("""
            INSERT INTO planner_preferences (user_id, settings, updated_at) VALUES (\(bind: userId), \(bind: try JSONColumn.encode(p)), \(bind: now.millis))
            """).run()
    }

    // MARK: Columns

    private static func weekdays(_ days: [Weekday]) -> String { days.map(String.init).joined(separator: ",") }
    private static func modes(_ m: Set<TravelMode>) -> String { m.sorted().map(\.rawValue).joined(separator: ",") }
    /// Unfolded content lines hold no line breaks, so one per line reads back exactly.
    private static func extra(_ lines: [String]) -> String? { lines.isEmpty ? nil : lines.joined(separator: "\n") }

    private static func event(_ row: any SQLRow) throws -> PlannerEventRow {
        let id = try row.decode(column: "id", as: String.self)
        func wall(_ column: String) throws -> WallTime {
            guard let w = WallTime(try row.decode(column: column, as: String.self)) else { throw StoredDataError(what: "event \(id) \(column)") }
            return w
        }
        guard let zone = TimeZone(identifier: try row.decode(column: "time_zone", as: String.self)) else { throw StoredDataError(what: "event \(id) zone") }
        var repeats: WeeklyRepeat?
        if let days = try row.decode(column: "repeat_weekdays", as: String?.self) {
            repeats = WeeklyRepeat(weekdays: days.split(separator: ",").compactMap { Int($0) },
                                   interval: try row.decode(column: "repeat_interval", as: Int?.self) ?? 1,
                                   until: try row.decode(column: "repeat_until", as: String?.self).flatMap(LocalDay.init),
                                   count: try row.decode(column: "repeat_count", as: Int?.self))
        }
        var place: EventPlace?
        if let name = try row.decode(column: "place_name", as: String?.self), let lat = try row.decode(column: "place_lat", as: Double?.self),
           let lon = try row.decode(column: "place_lon", as: Double?.self) {
            place = EventPlace(name: name, coordinate: Coordinate(latitude: lat, longitude: lon))
        }
        return PlannerEventRow(
            id: id, calendarId: try row.decode(column: "calendar_id", as: String.self), title: try row.decode(column: "title", as: String.self),
            description: try row.decode(column: "description", as: String?.self), start: try wall("start_wall"), end: try wall("end_wall"),
            zone: zone, durationMinutes: try row.decode(column: "duration_minutes", as: Int?.self), repeats: repeats, place: place,
            modes: Set(try row.decode(column: "modes", as: String.self).split(separator: ",").compactMap { TravelMode(rawValue: String($0)) }),
            icalUid: try row.decode(column: "ical_uid", as: String?.self),
            icalExtra: try row.decode(column: "ical_extra", as: String?.self).map { $0.components(separatedBy: "\n") } ?? [],
            allDay: try row.decode(column: "all_day", as: Bool.self))
    }

    private static func apply(_ row: any SQLRow, to e: inout PlannerEventRow) throws {
        guard let day = LocalDay(try row.decode(column: "day", as: String.self)) else { return }
        if try row.decode(column: "cancelled", as: Bool.self) {
            e.cancelled.insert(day)
        } else if let s = try row.decode(column: "start_wall", as: String?.self).flatMap(WallTime.init),
                  let t = try row.decode(column: "end_wall", as: String?.self).flatMap(WallTime.init), s <= t {
            e.moved[day] = s...t
        }
    }
}

/// A stored value no longer reads as it was written.
struct StoredDataError: Error, CustomStringConvertible {
    var what: String
    var description: String { "stored data does not read: \(what)" }
}
