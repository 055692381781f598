import Foundation
import WaymarkCore

/// The Planner area: calendars, events, travel preferences, day plans, places for events and
/// public transport.
struct PlannerServices: Sendable {
    let calendars: CalendarService
    let events: EventService
    let preferences: PreferencesService
    let plans: DayPlans
    let places: PlannerPlaces
    let transit: TransitServices

    init(_ env: WaymarkEnvironment, parking: ParkingServices, wayfinding: WayfindingServices, notifications: NotificationsServices) {
        // The built-in estimator until real routing comes (PLN-5).
        let estimator = GroundDistanceEstimator()
        calendars = CalendarService(store: env.store, now: env.now)
        events = EventService(store: env.store, now: env.now, estimator: estimator, notifier: notifications.notifier)
        preferences = PreferencesService(store: env.store, now: env.now)
        transit = TransitServices(env)
        plans = DayPlans(store: env.store, now: env.now, estimator: estimator, transit: transit)
        places = PlannerPlaces(gazetteer: env.configuration.loadDemo ? MilanPlaces.all : [], parking: parking.queries, wayfinding: wayfinding)
    }
}

extension PlannerServices {
    /// The area's operations that need a signed-in person (a device identity is enough).
    static let signedInOperations: Set<String> = [
        "listCalendars", "createCalendar", "updateCalendar", "deleteCalendar",
        "createEvent", "getEvent", "updateEvent", "deleteEvent", "moveOccurrence", "cancelOccurrence",
        "listOccurrences", "getDayPlan", "getTravelPreferences", "updateTravelPreferences",
    ]
}
