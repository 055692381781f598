import Foundation

extension APIHandler {
    /// The optional properties of each operation's JSON body, as in the contract, for
    /// `OptionalNullMiddleware`; a test checks this against the contract.
    static let optionalBodyFields: [String: [String]] = [
        "register": ["email", "firstName", "lastName", "units"],
        "updateProfile": ["email", "firstName", "lastName", "about", "pictureURL", "units"],
        "deleteAccount": ["password"],
        "createCalendar": ["leaveAlerts"],
        "updateCalendar": ["leaveAlerts"],
        "reportPlannerPosition": ["timeZone"],
        "createCalendarSubscription": ["includeTravel"],
        "createScheduleBlock": ["lotId"],
        "updateScheduleBlock": ["lotId"],
        "createEvent": ["description", "calendarId", "durationMinutes", "repeat", "place", "modes"],
        "updateEvent": ["description", "calendarId", "durationMinutes", "repeat", "place", "modes"],
        "updateTravelPreferences": ["rideSharingService", "lunchFrom", "lunchTo"],
        "updateTrail": ["name", "area", "description", "difficulty", "shape", "accessible", "huntingAlert", "pictureId", "info",
                        "contacts", "guidelines", "points", "amenities"],
        "putHikerBody": ["heightCentimetres", "weightKilograms", "birthYear"],
        "createThread": ["title"],
    ]
}
