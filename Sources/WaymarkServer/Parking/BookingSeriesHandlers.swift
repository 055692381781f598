import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func quoteBookingSeries(_ input: Operations.QuoteBookingSeries.Input) async throws -> Operations.QuoteBookingSeries.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let lotId = try BookingMapping.id(body.lotId, "lot")
        let quote = try await services.parking.bookings.quoteSeries(lotId: lotId, plan: try BookingSeriesMapping.plan(body))
        return .ok(.init(body: .json(BookingSeriesMapping.quote(quote))))
    }

    func createBookingSeries(_ input: Operations.CreateBookingSeries.Input) async throws -> Operations.CreateBookingSeries.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let key = try IdempotencyKeys.validated(input.headers.idempotencyKey)
        let lotId = try BookingMapping.id(body.lotId, "lot")
        let row = try await services.parking.bookings.createSeries(me, lotId: lotId, plan: try BookingSeriesMapping.plan(body), idempotencyKey: key)
        return .created(.init(body: .json(BookingSeriesMapping.series(row))))
    }

    func getBookingSeries(_ input: Operations.GetBookingSeries.Input) async throws -> Operations.GetBookingSeries.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try BookingMapping.id(input.path.seriesId, "booking series")
        return .ok(.init(body: .json(BookingSeriesMapping.series(try await services.parking.bookings.getSeries(me, id: id)))))
    }

    func cancelBookingSeries(_ input: Operations.CancelBookingSeries.Input) async throws -> Operations.CancelBookingSeries.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try BookingMapping.id(input.path.seriesId, "booking series")
        return .ok(.init(body: .json(BookingSeriesMapping.series(try await services.parking.bookings.cancelSeries(me, id: id)))))
    }
}

enum BookingSeriesMapping {
    static func plan(_ body: Components.Schemas.BookingSeriesRequest) throws -> BookingSeriesPlan {
        guard let until = LocalDay(body.until) else {
            throw Problem(type: "booking-series-invalid", title: "The weekly booking cannot be made", status: 400,
                          detail: "\"until\" is not a date (YYYY-MM-DD).")
        }
        return BookingSeriesPlan(first: BookingRange(start: body.start, end: body.end), weekdays: body.weekdays, until: until)
    }

    static func quote(_ q: BookingService.SeriesQuote) -> Components.Schemas.BookingSeriesQuote {
        let prices = q.dates.filter { $0.spacesLeft > 0 }.compactMap { $0.price?.total }
        let total = prices.first.map { Money(prices.reduce(0) { $0 + $1.minorUnits }, $0.currency) }
        return .init(
            lotId: q.lotId, summary: q.plan.words(zone: q.timeZone, locale: RequestContext.locale),
            occurrences: q.dates.map { d in
                .init(start: d.range.start, end: d.range.end, bookable: d.price != nil, available: d.price != nil && d.spacesLeft > 0,
                      total: d.price.map { BookingMapping.money($0.total) },
                      problem: d.problem.map { $0.detail ?? $0.title } ?? (d.price != nil && d.spacesLeft == 0 ? "No booked space is free then." : nil))
            },
            availableCount: prices.count, total: total.map(BookingMapping.money))
    }

    static func series(_ r: BookingSeriesRow) -> Components.Schemas.BookingSeries {
        .init(
            id: r.id, lotId: r.lotId, lotName: r.lotName, timeZone: r.timeZone.identifier, weekdays: r.plan.weekdays, until: r.plan.until.description,
            summary: r.plan.words(zone: r.timeZone, locale: RequestContext.locale),
            bookings: r.bookings.map(BookingMapping.booking),
            skipped: r.skipped.map { .init(start: $0.range.start, end: $0.range.end, reason: $0.reason) })
    }
}
