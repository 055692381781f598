import Foundation
import OpenAPIRuntime
import WaymarkAPI

/// Calendars in and out of other apps (PLN-10), tickets for transit trips (PLN-9) and the
/// position time to leave is worked out from (PLN-7).
extension WaymarkClient {
    public typealias CalendarImportReport = Components.Schemas.CalendarImportReport
    public typealias CalendarSubscription = Components.Schemas.CalendarSubscription
    public typealias Ticket = Components.Schemas.Ticket

    /// Adds an .ics file's events to `calendarId`, or to a new calendar named after the file.
    public func importCalendar(ics: Data, fileName: String? = nil, calendarId: String? = nil, timeZone: String? = nil) async throws -> CalendarImportReport {
        let output = try await call {
            try await client.importCalendarFile(query: .init(calendarId: calendarId, file: fileName, timeZone: timeZone), body: .textCalendar(HTTPBody(ics)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// The calendar as iCalendar text; with `travel`, the coming two weeks' trips as events too.
    public func exportCalendar(id: String, travel: Bool = false) async throws -> Data {
        let output = try await call { try await client.exportCalendar(path: .init(calendarId: id), query: .init(travel: travel)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try await Data(collecting: try ok.body.textCalendar, upTo: 16 << 20)
    }

    public func calendarSubscription(calendarId: String) async throws -> CalendarSubscription {
        let output = try await call { try await client.getCalendarSubscription(path: .init(calendarId: calendarId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// A new private address for calendar apps, as a full URL on this server; the old one stops
    /// working. It is given only this once.
    public func subscribeCalendar(id: String, includeTravel: Bool = false) async throws -> (subscription: CalendarSubscription, url: URL) {
        let output = try await call { try await client.createCalendarSubscription(path: .init(calendarId: id), body: .json(.init(includeTravel: includeTravel))) }
        guard case .created(let created) = output else { throw Self.unexpected }
        let subscription = try created.body.json
        guard let path = subscription.path, let url = URL(string: path, relativeTo: serverURL)?.absoluteURL else { throw Self.unexpected }
        return (subscription, url)
    }

    public func unsubscribeCalendar(id: String) async throws {
        let output = try await call { try await client.deleteCalendarSubscription(path: .init(calendarId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// The ticket for the transit trip to the occurrence due on `day`; buying again gives the same one.
    public func buyTicket(eventId: String, day: String) async throws -> Ticket {
        let output = try await call { try await client.buyTicket(path: .init(eventId: eventId, day: day)) }
        switch output {
        case .created(let created): return try created.body.json
        case .ok(let ok): return try ok.body.json
        default: throw Self.unexpected
        }
    }

    public func tickets() async throws -> [Ticket] {
        let output = try await call { try await client.listTickets() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.tickets
    }

    /// Where the person is, for time to leave (PLN-7): send it while the app is open, at most
    /// every two hours or after a significant move; only the latest is kept.
    public func reportPlannerPosition(latitude: Double, longitude: Double, timeZone: String? = nil) async throws {
        let output = try await call {
            try await client.reportPlannerPosition(body: .json(.init(latitude: latitude, longitude: longitude, timeZone: timeZone)))
        }
        guard case .noContent = output else { throw Self.unexpected }
    }

    public func forgetPlannerPosition() async throws {
        let output = try await call { try await client.forgetPlannerPosition() }
        guard case .noContent = output else { throw Self.unexpected }
    }
}
