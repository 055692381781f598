import Foundation
import WaymarkAPI
import WaymarkCore

/// The Planner (PLN-1…6): calendars, events with wall times and weekly repeats, occurrences for
/// a range, travel preferences and the day plan with its travel legs.
extension WaymarkClient {
    public typealias PlannerEventInput = Components.Schemas.EventInput

    public func calendars() async throws -> Components.Schemas.CalendarList {
        let output = try await call { try await client.listCalendars() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func createCalendar(name: String, colour: String) async throws -> Components.Schemas.Calendar {
        let output = try await call { try await client.createCalendar(body: .json(.init(name: name, colour: colour))) }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    public func updateCalendar(id: String, name: String, colour: String) async throws -> Components.Schemas.Calendar {
        let output = try await call { try await client.updateCalendar(path: .init(calendarId: id), body: .json(.init(name: name, colour: colour))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Deletes the calendar and its events; the last calendar cannot go.
    public func deleteCalendar(id: String) async throws {
        let output = try await call { try await client.deleteCalendar(path: .init(calendarId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Adds an event; the answer's warnings name events the change leaves unreachable or late.
    public func createEvent(_ event: PlannerEventInput) async throws -> Components.Schemas.EventSaved {
        let output = try await call { try await client.createEvent(body: .json(event)) }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    public func event(id: String) async throws -> Components.Schemas.PlannerEvent {
        let output = try await call { try await client.getEvent(path: .init(eventId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func updateEvent(id: String, _ event: PlannerEventInput) async throws -> Components.Schemas.EventSaved {
        let output = try await call { try await client.updateEvent(path: .init(eventId: id), body: .json(event)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func deleteEvent(id: String) async throws {
        let output = try await call { try await client.deleteEvent(path: .init(eventId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Moves the occurrence due on `day` to other wall times (`YYYY-MM-DDTHH:MM`).
    public func moveOccurrence(eventId: String, day: String, start: String, end: String) async throws -> Components.Schemas.EventSaved {
        let output = try await call {
            try await client.moveOccurrence(path: .init(eventId: eventId, day: day), body: .json(.init(start: start, end: end)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func cancelOccurrence(eventId: String, day: String) async throws {
        let output = try await call { try await client.cancelOccurrence(path: .init(eventId: eventId, day: day)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Every occurrence beginning on the days `from`…`to` (`YYYY-MM-DD`, at most 62 days).
    public func occurrences(from: String, to: String) async throws -> [Components.Schemas.PlannerOccurrence] {
        let output = try await call { try await client.listOccurrences(query: .init(from: from, to: to)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.occurrences
    }

    /// The day planned, with lunch and the trip to each event; in `timeZone` or the zone of most events.
    public func dayPlan(day: String, timeZone: String? = nil) async throws -> Components.Schemas.DayPlan {
        let output = try await call { try await client.getDayPlan(path: .init(day: day), query: .init(timeZone: timeZone)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func travelPreferences() async throws -> Components.Schemas.TravelPreferences {
        let output = try await call { try await client.getTravelPreferences() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func updateTravelPreferences(_ preferences: Components.Schemas.TravelPreferences) async throws -> Components.Schemas.TravelPreferences {
        let output = try await call { try await client.updateTravelPreferences(body: .json(preferences)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func plannerPlaces(matching text: String, limit: Int = 10) async throws -> [Components.Schemas.PlannerPlace] {
        let output = try await call { try await client.searchPlannerPlaces(query: .init(q: text, limit: limit)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.places
    }
}
