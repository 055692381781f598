import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    // MARK: Calendars

    func listCalendars(_ input: Operations.ListCalendars.Input) async throws -> Operations.ListCalendars.Output {
        let me = try RequestContext.requirePrincipal()
        let (calendars, defaultId) = try await services.planner.calendars.calendars(me)
        return .ok(.init(body: .json(.init(calendars: calendars.map(PlannerMapping.calendar), defaultCalendarId: defaultId))))
    }

    func createCalendar(_ input: Operations.CreateCalendar.Input) async throws -> Operations.CreateCalendar.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        return .created(.init(body: .json(PlannerMapping.calendar(try await services.planner.calendars.create(me, name: b.name, colour: b.colour, leaveAlerts: b.leaveAlerts ?? true)))))
    }

    func updateCalendar(_ input: Operations.UpdateCalendar.Input) async throws -> Operations.UpdateCalendar.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.calendarId, "calendar")
        return .ok(.init(body: .json(PlannerMapping.calendar(try await services.planner.calendars.update(me, id: id, name: b.name, colour: b.colour, leaveAlerts: b.leaveAlerts)))))
    }

    func deleteCalendar(_ input: Operations.DeleteCalendar.Input) async throws -> Operations.DeleteCalendar.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.planner.calendars.delete(me, id: try PlannerMapping.id(input.path.calendarId, "calendar"))
        return .noContent(.init())
    }

    // MARK: Events

    func createEvent(_ input: Operations.CreateEvent.Input) async throws -> Operations.CreateEvent.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let (event, warnings) = try await services.planner.events.create(me, try PlannerMapping.input(b))
        return .created(.init(body: .json(PlannerMapping.saved(event, warnings))))
    }

    func getEvent(_ input: Operations.GetEvent.Input) async throws -> Operations.GetEvent.Output {
        let me = try RequestContext.requirePrincipal()
        let event = try await services.planner.events.event(me, id: try PlannerMapping.id(input.path.eventId, "event"))
        return .ok(.init(body: .json(PlannerMapping.event(event))))
    }

    func updateEvent(_ input: Operations.UpdateEvent.Input) async throws -> Operations.UpdateEvent.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.eventId, "event")
        let (event, warnings) = try await services.planner.events.update(me, id: id, try PlannerMapping.input(b))
        return .ok(.init(body: .json(PlannerMapping.saved(event, warnings))))
    }

    func deleteEvent(_ input: Operations.DeleteEvent.Input) async throws -> Operations.DeleteEvent.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.planner.events.delete(me, id: try PlannerMapping.id(input.path.eventId, "event"))
        return .noContent(.init())
    }

    func moveOccurrence(_ input: Operations.MoveOccurrence.Input) async throws -> Operations.MoveOccurrence.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.eventId, "event")
        let (event, warnings) = try await services.planner.events.move(me, id: id, day: input.path.day, start: b.start, end: b.end)
        return .ok(.init(body: .json(PlannerMapping.saved(event, warnings))))
    }

    func cancelOccurrence(_ input: Operations.CancelOccurrence.Input) async throws -> Operations.CancelOccurrence.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.planner.events.cancel(me, id: try PlannerMapping.id(input.path.eventId, "event"), day: input.path.day)
        return .noContent(.init())
    }

    func listOccurrences(_ input: Operations.ListOccurrences.Input) async throws -> Operations.ListOccurrences.Output {
        let me = try RequestContext.requirePrincipal()
        let list = try await services.planner.events.occurrences(me, from: input.query.from, to: input.query.to)
        return .ok(.init(body: .json(.init(occurrences: list.map(PlannerMapping.occurrence)))))
    }

    // MARK: The day plan and preferences

    func getDayPlan(_ input: Operations.GetDayPlan.Input) async throws -> Operations.GetDayPlan.Output {
        let me = try RequestContext.requirePrincipal()
        guard let day = LocalDay(input.path.day) else { throw Problem.badRequest("Days are YYYY-MM-DD, like 2026-03-30.") }
        var zone: TimeZone?
        if let name = input.query.timeZone {
            guard let z = TimeZone(identifier: name) else { throw Problem.badRequest("“\(name)” is not a time zone; use a name like Europe/Rome.") }
            zone = z
        }
        return .ok(.init(body: .json(PlannerMapping.plan(try await services.planner.plans.plan(userId: me.userId, day: day, zone: zone)))))
    }

    func getTravelPreferences(_ input: Operations.GetTravelPreferences.Input) async throws -> Operations.GetTravelPreferences.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(PlannerMapping.preferences(try await services.planner.preferences.preferences(me)))))
    }

    func updateTravelPreferences(_ input: Operations.UpdateTravelPreferences.Input) async throws -> Operations.UpdateTravelPreferences.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let saved = try await services.planner.preferences.save(me, try PlannerMapping.preferences(b))
        return .ok(.init(body: .json(PlannerMapping.preferences(saved))))
    }

    func reportPlannerPosition(_ input: Operations.ReportPlannerPosition.Input) async throws -> Operations.ReportPlannerPosition.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        guard (-90...90).contains(b.latitude), (-180...180).contains(b.longitude) else {
            throw Problem.badRequest("latitude must be between -90 and 90 and longitude between -180 and 180.")
        }
        let zone: TimeZone
        if let name = b.timeZone {
            guard let z = TimeZone(identifier: name) else { throw Problem.badRequest("timeZone '\(name)' is not an IANA time zone, like Europe/Rome.") }
            zone = z
        } else {
            zone = DayPlans.zone(of: try await PlannerStore.events(userId: me.userId, on: services.store.sql))
        }
        try await services.planner.positions.report(userId: me.userId, Coordinate(latitude: b.latitude, longitude: b.longitude), zone: zone)
        return .noContent(.init())
    }

    func forgetPlannerPosition(_ input: Operations.ForgetPlannerPosition.Input) async throws -> Operations.ForgetPlannerPosition.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.planner.positions.forget(userId: me.userId)
        return .noContent(.init())
    }

    func searchPlannerPlaces(_ input: Operations.SearchPlannerPlaces.Input) async throws -> Operations.SearchPlannerPlaces.Output {
        let places = try await services.planner.places.search(input.query.q, limit: input.query.limit ?? 10)
        return .ok(.init(body: .json(.init(places: places.map(PlannerMapping.place)))))
    }
}
