import AsyncHTTPClient
import Foundation
import Logging
import WaymarkCore

/// The Planner area: calendars, events, travel preferences, day plans, places for events,
/// public transport, iCalendar files and subscriptions, and tickets.
struct PlannerServices: Sendable {
    let calendars: CalendarService
    let events: EventService
    let preferences: PreferencesService
    let plans: DayPlans
    let places: PlannerPlaces
    let transit: TransitServices
    let positions: PlannerPositions
    let leaveAlerts: LeaveAlerts
    let files: CalendarFiles
    let subscriptions: CalendarSubscriptions
    let tickets: TicketService
    let notifier: Notifier

    /// `streets` is the client for the street routers the configuration names, nil when none.
    init(_ env: WaymarkEnvironment, parking: ParkingServices, wayfinding: WayfindingServices, notifications: NotificationsServices,
         streets: HTTPClient? = nil) {
        // Trips on real streets when a router is configured (PLN-5), the distance on the ground otherwise.
        let estimator: any PreparableEstimator = streets.flatMap { RoutedEstimator(env.configuration, client: $0, now: env.now, logger: env.logger) }
            ?? GroundDistanceEstimator()
        calendars = CalendarService(store: env.store, now: env.now)
        events = EventService(store: env.store, now: env.now, estimator: estimator, notifier: notifications.notifier)
        preferences = PreferencesService(store: env.store, now: env.now)
        transit = TransitServices(env)
        plans = DayPlans(store: env.store, now: env.now, estimator: estimator, transit: transit)
        positions = PlannerPositions(store: env.store, now: env.now)
        leaveAlerts = LeaveAlerts(store: env.store, plans: plans, positions: positions, estimator: estimator, transit: transit,
                                  now: env.now, logger: env.logger)
        files = CalendarFiles(store: env.store, now: env.now, plans: plans)
        subscriptions = CalendarSubscriptions(store: env.store, now: env.now, files: files, transit: transit)
        tickets = TicketService(store: env.store, now: env.now, plans: plans,
                                provider: env.configuration.demoTickets ? DemoTicketProvider() : nil)
        notifier = notifications.notifier
        places = PlannerPlaces(gazetteer: env.configuration.loadDemo ? MilanPlaces.all : [], parking: parking.queries, wayfinding: wayfinding)
    }
}

extension PlannerServices {
    /// Time to leave, worked out every `every` seconds (PLN-7), and today's timetable laid out ahead.
    func start(_ background: BackgroundTasks, jobs: Bool, every seconds: Int = 60, now: @escaping @Sendable () -> Date, logger: Logger) {
        transit.start(background, jobs: jobs, now: now, logger: logger)
        guard jobs else { return }
        let alerts = leaveAlerts, notifier = notifier
        background.start {
            while !Task.isCancelled {
                do { if try await alerts.run() > 0 { notifier.delivered() } } catch {
                    logger.warning("time-to-leave alerts failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(seconds))
            }
        }
    }

    /// The area's operations that need a signed-in person (a device identity is enough).
    static let signedInOperations: Set<String> = [
        "listCalendars", "createCalendar", "updateCalendar", "deleteCalendar",
        "createEvent", "getEvent", "updateEvent", "deleteEvent", "moveOccurrence", "cancelOccurrence",
        "listOccurrences", "getDayPlan", "getTravelPreferences", "updateTravelPreferences",
        "reportPlannerPosition", "forgetPlannerPosition",
        "importCalendarFile", "exportCalendar", "getCalendarSubscription", "createCalendarSubscription", "deleteCalendarSubscription",
        "buyTicket", "listTickets",
    ]
}
