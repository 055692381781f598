import Foundation
import WaymarkAPI
import WaymarkCore

public typealias BookingSeries = Components.Schemas.BookingSeries
public typealias BookingSeriesQuote = Components.Schemas.BookingSeriesQuote

/// Weekly bookings (PRK-12): "every Tuesday 11:00–21:00 until June". Each date becomes a
/// `Booking` with `seriesId`, cancelled on its own with `cancelBooking(id:)` or all at once here.
/// `weekdays` are 1 = Sunday … 7 = Saturday; `until` is the last site-local day, YYYY-MM-DD.
extension WaymarkClient {
    /// Every date's price, or why it cannot be booked; needs no sign-in.
    public func quoteBookingSeries(lotId: String, start: Date, end: Date, weekdays: [Int], until: String) async throws -> BookingSeriesQuote {
        let output = try await call {
            try await client.quoteBookingSeries(body: .json(.init(lotId: lotId, start: start, end: end, weekdays: weekdays, until: until)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Books every date that can be booked; the others come back in `skipped` with the reason.
    public func bookSeries(lotId: String, start: Date, end: Date, weekdays: [Int], until: String,
                           idempotencyKey: String? = UUID().uuidString) async throws -> BookingSeries {
        let output = try await call {
            try await client.createBookingSeries(headers: .init(idempotencyKey: idempotencyKey),
                                                 body: .json(.init(lotId: lotId, start: start, end: end, weekdays: weekdays, until: until)))
        }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    public func bookingSeries(id: String) async throws -> BookingSeries {
        let output = try await call { try await client.getBookingSeries(path: .init(seriesId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Cancels, with full refunds, every date that has not started.
    public func cancelBookingSeries(id: String) async throws -> BookingSeries {
        let output = try await call { try await client.cancelBookingSeries(path: .init(seriesId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }
}
