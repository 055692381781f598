import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func buyTicket(_ input: Operations.BuyTicket.Input) async throws -> Operations.BuyTicket.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try PlannerMapping.id(input.path.eventId, "event")
        let (ticket, fresh) = try await services.planner.tickets.buy(me, eventId: id, day: input.path.day)
        let body = try TicketMapping.ticket(ticket)
        return fresh ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func listTickets(_ input: Operations.ListTickets.Input) async throws -> Operations.ListTickets.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(.init(tickets: try await services.planner.tickets.tickets(me).map(TicketMapping.ticket)))))
    }
}

enum TicketMapping {
    /// The QR code is drawn here, from the stored text, so a ticket reads the same wherever it is
    /// shown and nothing but the text is kept.
    static func ticket(_ t: TicketService.Ticket) throws -> Components.Schemas.Ticket {
        let qr = try QRCode(text: t.issued.qrText, correction: .medium)
        return .init(
            id: t.id, eventId: t.eventId, day: t.day.description, eventTitle: t.eventTitle, provider: t.provider, title: t.issued.title,
            code: t.issued.code, qrText: t.issued.qrText, qrSvg: qr.svg(moduleSize: 4, quietZone: 4, label: "Ticket \(t.issued.code)"),
            price: .init(minorUnits: t.issued.priceMinorUnits, currency: t.issued.currency), validFrom: t.issued.validFrom,
            validUntil: t.issued.validUntil, issuedAt: t.issuedAt, lines: t.lines, demo: t.issued.demo)
    }
}
