import Foundation
import SQLKit
import WaymarkCore

/// Tickets for the transit trips of the plan (PLN-9): one per person, occurrence and trip, bought
/// through the configured provider and kept with the event, so the phone can show it offline.
struct TicketService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let plans: DayPlans
    let provider: (any TicketProvider)?

    /// Tickets stay listed a week after their trip, for receipts and disputes.
    static let keptAfterTrip: TimeInterval = 7 * 86_400

    struct Ticket: Sendable, Hashable {
        var id: String
        var eventId: String
        var day: LocalDay
        var eventTitle: String?
        var provider: String
        var issued: IssuedTicket
        var lines: [String]
        var issuedAt: Date
    }

    /// The ticket for the trip to an occurrence, bought now or before (`fresh` says which).
    func buy(_ principal: Principal, eventId: String, day: String) async throws -> (ticket: Ticket, fresh: Bool) {
        guard let event = try await PlannerStore.event(id: eventId, userId: principal.userId, on: store.sql) else { throw Problem.notFound("event") }
        let due = try EventService.dueDay(day, of: event)
        if let bought = try await ticket(userId: principal.userId, eventId: eventId, day: due) { return (bought, false) }
        guard let provider else {
            throw Problem.unavailable("No ticket provider is set up on this server; buy the ticket from the transport company.")
        }
        let view = try await plans.plan(userId: principal.userId, day: Self.planDay(event, due), zone: event.zone)
        guard let step = view.steps.first(where: { $0.event?.id == eventId && $0.occurrenceDay == due }),
              let leg = step.leg, leg.mode == .transit, let timed = leg.journey else {
            throw Problem.conflict("no-transit-leg", "The plan does not go to this event by public transport, so there is no ticket to buy.")
        }
        guard leg.arrive > now() else {
            throw Problem.conflict("trip-over", "The trip to this event has already been made; a ticket can be bought for a trip still to come.")
        }
        let lines = timed.journey.legs.compactMap { if case .ride(let r) = $0 { r.route.name } else { nil } }
        let agencies = try await plans.transit?.store.current()?.name ?? ""
        let issued = try await provider.issue(TicketRequest(userId: principal.userId, eventId: eventId, day: due, departure: leg.depart,
                                                            arrival: leg.arrive, lines: lines, agencies: agencies))
        let id = UUID().uuidString.lowercased(), now = now()
        let inserted = try await store.write { sql in
            try await sql.raw("""
                INSERT INTO planner_tickets (id, user_id, event_id, day, provider, title, code, qr_text, lines, price_minor, currency,
                    valid_from, valid_until, issued_at, demo)
                VALUES (\(bind: id), \(bind: principal.userId), \(bind: eventId), \(bind: due.description), \(bind: provider.name),
                    \(bind: issued.title), \(bind: issued.code), \(bind: issued.qrText), \(bind: lines.joined(separator: ",")),
                    \(bind: issued.priceMinorUnits), \(bind: issued.currency), \(bind: issued.validFrom.millis), \(bind: issued.validUntil.millis),
                    \(bind: now.millis), \(bind: issued.demo))
                ON CONFLICT (user_id, event_id, day) DO NOTHING RETURNING id
                """).first() != nil
        }
        // Two taps at once: the database keeps the first, and both see it.
        guard let saved = try await ticket(userId: principal.userId, eventId: eventId, day: due) else { throw Problem.notFound("ticket") }
        return (saved, inserted)
    }

    /// The person's tickets for trips that ended less than a week ago, latest trip first.
    func tickets(_ principal: Principal) async throws -> [Ticket] {
        let since = now().addingTimeInterval(-Self.keptAfterTrip).millis
        return try await store.sql.raw("""
            SELECT t.*, e.title AS event_title FROM planner_tickets t LEFT JOIN planner_events e ON e.id = t.event_id
            WHERE t.user_id = \(bind: principal.userId) AND t.valid_until >= \(bind: since) ORDER BY t.valid_from DESC, t.id
            """).all().map(Self.ticket)
    }

    private func ticket(userId: String, eventId: String, day: LocalDay) async throws -> Ticket? {
        try await store.sql.raw("""
            SELECT t.*, e.title AS event_title FROM planner_tickets t LEFT JOIN planner_events e ON e.id = t.event_id
            WHERE t.user_id = \(bind: userId) AND t.event_id = \(bind: eventId) AND t.day = \(bind: day.description)
            """).first().map(Self.ticket)
    }

    /// The day whose plan holds the occurrence: the one it begins on in the event's zone, moved or not.
    static func planDay(_ event: PlannerEventRow, _ due: LocalDay) -> LocalDay {
        event.moved[due]?.lowerBound.day ?? due
    }

    private static func ticket(_ row: any SQLRow) throws -> Ticket {
        let lines = try row.decode(column: "lines", as: String.self)
        return Ticket(
            id: try row.decode(column: "id", as: String.self), eventId: try row.decode(column: "event_id", as: String.self),
            day: LocalDay(try row.decode(column: "day", as: String.self)) ?? LocalDay(number: 0),
            eventTitle: try row.decode(column: "event_title", as: String?.self), provider: try row.decode(column: "provider", as: String.self),
            issued: IssuedTicket(
                title: try row.decode(column: "title", as: String.self), code: try row.decode(column: "code", as: String.self),
                qrText: try row.decode(column: "qr_text", as: String.self), priceMinorUnits: try row.decode(column: "price_minor", as: Int64.self),
                currency: try row.decode(column: "currency", as: String.self),
                validFrom: Date(millis: try row.decode(column: "valid_from", as: Int64.self)),
                validUntil: Date(millis: try row.decode(column: "valid_until", as: Int64.self)), demo: try row.decode(column: "demo", as: Bool.self)),
            lines: lines.isEmpty ? [] : lines.components(separatedBy: ","),
            issuedAt: Date(millis: try row.decode(column: "issued_at", as: Int64.self)))
    }
}
