import Foundation
import WaymarkAPI
import WaymarkCore

public typealias Booking = Components.Schemas.Booking
public typealias BookingQuote = Components.Schemas.BookingQuote

/// Paid bookings (PRK-12). Booking needs an account (a guest gets `problemKind ==
/// "account-required"`) and money in the wallet (`"insufficient-funds"`, status 402). A full lot
/// is `"lot-full"`.
///
/// Pass the same `idempotencyKey` when retrying a booking, e.g. from a queue of writes made
/// offline (PRK-19): the server answers with the booking the first attempt made and charges
/// once. A new booking needs a new key.
extension WaymarkClient {
    /// The price of a range and whether a booked space is free then; needs no sign-in. A range
    /// that cannot be booked comes back with `bookable == false` and the reason in `problem`.
    public func quoteBooking(lotId: String, start: Date, end: Date) async throws -> BookingQuote {
        let output = try await call { try await client.quoteBooking(path: .init(lotId: lotId), query: .init(start: start, end: end)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func book(lotId: String, start: Date, end: Date, idempotencyKey: String? = UUID().uuidString) async throws -> Booking {
        let output = try await call {
            try await client.createBooking(headers: .init(idempotencyKey: idempotencyKey),
                                           body: .json(.init(lotId: lotId, start: start, end: end)))
        }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    /// Running and upcoming bookings first, then recent others.
    public func bookings() async throws -> [Booking] {
        let output = try await call { try await client.listBookings() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.bookings
    }

    public func booking(id: String) async throws -> Booking {
        let output = try await call { try await client.getBooking(path: .init(bookingId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Moves the booking before it starts; the wallet pays or gets back the difference.
    public func modifyBooking(id: String, start: Date, end: Date) async throws -> Booking {
        let output = try await call { try await client.modifyBooking(path: .init(bookingId: id), body: .json(.init(start: start, end: end))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Before the start, with a full refund to the wallet.
    @discardableResult
    public func cancelBooking(id: String) async throws -> Booking {
        let output = try await call { try await client.cancelBooking(path: .init(bookingId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// From 15 minutes before the start until 15 minutes after it.
    @discardableResult
    public func checkIn(bookingId: String) async throws -> Booking {
        let output = try await call { try await client.checkInBooking(path: .init(bookingId: bookingId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }
}
