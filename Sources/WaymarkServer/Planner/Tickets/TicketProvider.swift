import Foundation
import WaymarkCore

/// Who sells tickets for the trips Waymark plans (PLN-9; G3.2): a transport company's or a
/// reseller's API behind one interface, and a demo office for trying it out.
protocol TicketProvider: Sendable {
    /// How the provider is named on a ticket.
    var name: String { get }
    func issue(_ request: TicketRequest) async throws -> IssuedTicket
}

/// A trip to buy a ticket for: the journey on the timetable and when it runs.
struct TicketRequest: Sendable {
    var userId: String
    var eventId: String
    var day: LocalDay
    var departure: Date
    var arrival: Date
    /// The lines ridden, in order, e.g. ["M2", "S1"].
    var lines: [String]
    var agencies: String
}

struct IssuedTicket: Sendable, Hashable {
    var title: String
    /// The booking code (PNR) a person shows or reads out.
    var code: String
    /// What the QR code holds, as the inspectors' readers expect it.
    var qrText: String
    var priceMinorUnits: Int64
    var currency: String
    var validFrom: Date
    var validUntil: Date
    var demo: Bool
}

/// The demo ticket office: a flat urban fare valid for 90 minutes from the first ride, as most
/// Italian cities sell it (Milan's urban ticket is €2.20). Clearly marked as not valid for travel.
struct DemoTicketProvider: TicketProvider {
    var name = "Waymark demo ticket office"
    var fareMinorUnits: Int64 = 220
    var currency = "EUR"
    var validity: TimeInterval = 90 * 60

    /// Letters and digits that cannot be mistaken for each other when read out (no 0/O, 1/I).
    static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    static func code() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in codeAlphabet[Int.random(in: 0..<codeAlphabet.count, using: &rng)] })
    }

    func issue(_ r: TicketRequest) async throws -> IssuedTicket {
        let code = Self.code()
        let from = r.departure, until = max(r.arrival, r.departure.addingTimeInterval(validity))
        let iso = ISO8601DateFormatter()
        let qr = "WAYMARK-DEMO-TICKET;\(code);\(iso.string(from: from));\(iso.string(from: until));\(r.lines.joined(separator: ","))"
        return IssuedTicket(title: "Urban ticket, \(Int(validity / 60)) minutes", code: code, qrText: qr,
                            priceMinorUnits: fareMinorUnits, currency: currency, validFrom: from, validUntil: until, demo: true)
    }
}
