import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func quoteBooking(_ input: Operations.QuoteBooking.Input) async throws -> Operations.QuoteBooking.Output {
        let lotId = try BookingMapping.id(input.path.lotId, "lot")
        let quote = try await services.parking.bookings.quote(lotId: lotId, range: BookingRange(start: input.query.start, end: input.query.end))
        return .ok(.init(body: .json(BookingMapping.quote(quote))))
    }

    func createBooking(_ input: Operations.CreateBooking.Input) async throws -> Operations.CreateBooking.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let key = try IdempotencyKeys.validated(input.headers.idempotencyKey)
        let lotId = try BookingMapping.id(body.lotId, "lot")
        let row = try await services.parking.bookings.create(me, lotId: lotId, range: BookingRange(start: body.start, end: body.end), idempotencyKey: key)
        return .created(.init(body: .json(BookingMapping.booking(row))))
    }

    func listBookings(_ input: Operations.ListBookings.Input) async throws -> Operations.ListBookings.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(.init(bookings: try await services.parking.bookings.list(me).map(BookingMapping.booking)))))
    }

    func getBooking(_ input: Operations.GetBooking.Input) async throws -> Operations.GetBooking.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try BookingMapping.id(input.path.bookingId, "booking")
        return .ok(.init(body: .json(BookingMapping.booking(try await services.parking.bookings.get(me, id: id)))))
    }

    func modifyBooking(_ input: Operations.ModifyBooking.Input) async throws -> Operations.ModifyBooking.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let id = try BookingMapping.id(input.path.bookingId, "booking")
        let row = try await services.parking.bookings.modify(me, id: id, to: BookingRange(start: body.start, end: body.end))
        return .ok(.init(body: .json(BookingMapping.booking(row))))
    }

    func cancelBooking(_ input: Operations.CancelBooking.Input) async throws -> Operations.CancelBooking.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try BookingMapping.id(input.path.bookingId, "booking")
        return .ok(.init(body: .json(BookingMapping.booking(try await services.parking.bookings.cancel(me, id: id)))))
    }

    func checkInBooking(_ input: Operations.CheckInBooking.Input) async throws -> Operations.CheckInBooking.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try BookingMapping.id(input.path.bookingId, "booking")
        return .ok(.init(body: .json(BookingMapping.booking(try await services.parking.bookings.checkIn(me, id: id)))))
    }
}

enum BookingMapping {
    /// Ids are UUIDs: anything else names nothing (404), and never reaches SQL unchecked.
    static func id(_ text: String, _ what: String) throws -> String {
        guard UUID(uuidString: text) != nil else { throw Problem.notFound(what) }
        return text.lowercased()
    }

    static func money(_ m: Money) -> Components.Schemas.Money {
        .init(minorUnits: Int64(m.minorUnits), currency: m.currency)
    }

    static func booking(_ r: BookingRow) -> Components.Schemas.Booking {
        let b = r.booking
        let state: Components.Schemas.Booking.StatePayload = switch b.state {
        case .booked: .booked
        case .checkedIn: .checkedIn
        case .forfeited: .forfeited
        case .cancelled: .cancelled
        case .completed: .completed
        }
        let window = BookingRules.checkInWindow(of: b.range)
        return .init(
            id: b.id, lotId: b.lotId, siteId: r.siteId, timeZone: r.timeZone.identifier, lotCode: r.lotCode, lotName: r.lotName,
            lotEntrance: .init(latitude: r.lotEntrance.latitude, longitude: r.lotEntrance.longitude), start: b.range.start, end: b.range.end, state: state, paid: money(b.paid), modifications: b.modifications,
            createdAt: r.createdAt, checkInOpensAt: window.start, forfeitAt: window.end, checkedInAt: b.checkedInAt,
            seriesId: r.seriesId)
    }

    static func quote(_ q: BookingService.Quote) -> Components.Schemas.BookingQuote {
        .init(
            lotId: q.lotId, start: q.range.start, end: q.range.end, bookable: q.price != nil,
            problem: q.problem.map { .init(_type: $0.type, title: $0.title, status: $0.status, detail: $0.detail) },
            total: q.price.map { money($0.total) },
            days: q.price?.days.map {
                .init(dayStart: $0.dayStart, minutes: $0.minutes, chargedUnits: $0.chargedUnits,
                      fee: money($0.fee), timeCharge: money($0.timeCharge), total: money($0.total))
            },
            available: q.price != nil && q.spacesLeft > 0, spacesLeft: q.spacesLeft)
    }

    static func offer(capacity: Int, tariff: String?) throws -> Components.Schemas.LotBookingOffer? {
        guard let tariff, capacity > 0 else { return nil }
        let t = try JSONColumn.decode(StoredTariff.self, tariff)
        return .init(
            bookableCapacity: capacity,
            tariff: .init(
                currency: t.currency, dailyFeeMinor: Int64(t.dailyFeeMinor), includedMinutesPerDay: t.includedMinutesPerDay,
                rateMinor: Int64(t.rateMinor), rateUnitMinutes: t.rateUnitMinutes, dailyCapMinor: t.dailyCapMinor.map(Int64.init),
                hours: t.hours.map { .init(weekdays: $0.weekdays, openMinute: $0.openMinute, closeMinute: $0.closeMinute) },
                maximumDurationMinutes: t.maximumDurationMinutes))
    }
}
