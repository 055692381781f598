import Foundation
import SQLKit
import WaymarkCore

/// Calendars (PLN-1): a person always has one ("Personal", made on first use); the default for a
/// new event is the one used last.
struct CalendarService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    static let maximumCalendars = 50
    static let firstName = "Personal"

    /// Every calendar, making "Personal" when there is none; and the calendar used last.
    func calendars(_ principal: Principal) async throws -> (calendars: [CalendarRow], defaultId: String) {
        var list = try await PlannerStore.calendars(userId: principal.userId, on: store.sql)
        if list.isEmpty {
            let now = now()
            list = try await store.write { sql in try await Self.ensure(userId: principal.userId, now: now, on: sql) }
        }
        return (list, CalendarRow.lastUsed(of: list).id)
    }

    /// The person's calendars, with "Personal" made inside the caller's transaction when they
    /// have none; PostgreSQL locks the person's row so two first visits make one.
    static func ensure(userId: String, now: Date, on sql: any SQLDatabase) async throws -> [CalendarRow] {
        if sql.dialect.name == "postgresql" {
            _ = try await sql.raw("SELECT id FROM users WHERE id = \(bind: userId) FOR UPDATE").first()
        }
        let existing = try await PlannerStore.calendars(userId: userId, on: sql)
        if !existing.isEmpty { return existing }
        let first = CalendarRow(id: UUID().uuidString.lowercased(), name: firstName, colour: CalendarColour.palette[0], usedAt: now.millis)
        try await PlannerStore.insertCalendar(first, userId: userId, now: now, on: sql)
        return [first]
    }

    func create(_ principal: Principal, name: String, colour: String, leaveAlerts: Bool = true) async throws -> CalendarRow {
        let (name, colour) = try Self.checked(name: name, colour: colour)
        let now = now()
        return try await store.write { sql in
            let existing = try await Self.ensure(userId: principal.userId, now: now, on: sql)
            guard existing.count < Self.maximumCalendars else { throw Problem.conflict("too-many-calendars", "You have \(Self.maximumCalendars) calendars, the most there can be.") }
            // A new calendar does not become the default until an event uses it.
            let row = CalendarRow(id: UUID().uuidString.lowercased(), name: name, colour: colour, usedAt: 0, leaveAlerts: leaveAlerts)
            try await PlannerStore.insertCalendar(row, userId: principal.userId, now: now, on: sql)
            return row
        }
    }

    /// Renames and recolours; `leaveAlerts` nil leaves the switch as it is.
    func update(_ principal: Principal, id: String, name: String, colour: String, leaveAlerts: Bool? = nil) async throws -> CalendarRow {
        let (name, colour) = try Self.checked(name: name, colour: colour)
        let now = now()
        return try await store.write { sql in
            let rows = try await sql.raw("""
                UPDATE planner_calendars SET name = \(bind: name), colour = \(bind: colour.hex), leave_alerts = COALESCE(\(bind: leaveAlerts), leave_alerts),
                    changed_at = \(bind: now.millis)
                WHERE id = \(bind: id) AND user_id = \(bind: principal.userId) RETURNING used_at, leave_alerts
                """).all()
            guard let row = rows.first else { throw Problem.notFound("calendar") }
            return CalendarRow(id: id, name: name, colour: colour, usedAt: try row.decode(column: "used_at", as: Int64.self),
                               leaveAlerts: try row.decode(column: "leave_alerts", as: Bool.self))
        }
    }

    /// Deletes the calendar and its events; never the last one.
    func delete(_ principal: Principal, id: String) async throws {
        let isPostgres = store.isPostgres
        try await store.write { sql in
            if isPostgres { _ = try await sql.raw("SELECT id FROM users WHERE id = \(bind: principal.userId) FOR UPDATE").first() }
            let list = try await PlannerStore.calendars(userId: principal.userId, on: sql)
            guard list.contains(where: { $0.id == id }) else { throw Problem.notFound("calendar") }
            guard list.count > 1 else { throw Problem.conflict("last-calendar", "This is your only calendar; make another before deleting it.") }
            try await sql.raw("DELETE FROM planner_events WHERE calendar_id = \(bind: id)").run()
            try await sql.raw("DELETE FROM planner_calendars WHERE id = \(bind: id)").run()
        }
    }

    static func checked(name: String, colour: String) throws -> (String, CalendarColour) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, name.count <= 60 else { throw Problem.badRequest("A calendar's name is 1 to 60 characters.") }
        guard let c = CalendarColour(colour) else { throw Problem.badRequest("The colour is #RRGGBB, like #1a73e8.") }
        return (trimmed, c)
    }
}
