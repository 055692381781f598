extension SessionMiddleware {
    /// Planner calls that take the session token: everything but the place search.
    static let planner: Set<String> = [
        "listCalendars", "createCalendar", "updateCalendar", "deleteCalendar",
        "createEvent", "getEvent", "updateEvent", "deleteEvent", "moveOccurrence", "cancelOccurrence",
        "listOccurrences", "getDayPlan", "getTravelPreferences", "updateTravelPreferences",
        "reportPlannerPosition", "forgetPlannerPosition",
        "importCalendarFile", "exportCalendar", "getCalendarSubscription", "createCalendarSubscription", "deleteCalendarSubscription",
        "buyTicket", "listTickets",
    ]
}
