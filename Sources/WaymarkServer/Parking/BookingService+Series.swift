import Foundation
import SQLKit
import WaymarkCore

/// Weekly bookings (PRK-12; UniPark's "every Tuesday 11:00–21:00 until June"): each date is an
/// ordinary booking, priced, paid, checked into and cancelled on its own. A series is booked in
/// one transaction under the person's and the lot's locks, each date checked against the lot's
/// capacity with the dates before it already counted, so no date is ever oversold.
extension BookingService {
    struct SeriesQuote: Sendable {
        var lotId: String
        var plan: BookingSeriesPlan
        var timeZone: TimeZone
        var dates: [Quote]
    }

    func quoteSeries(lotId: String, plan: BookingSeriesPlan) async throws -> SeriesQuote {
        let now = now()
        let lot = try await bookableOffer(lotId: lotId, now: now, sql: store.sql)
        let ranges = try Self.expand(plan, zone: lot.timeZone, now: now)
        // One read of the lot's bookings over the series' span, not one per date.
        let competing = try await Self.competing(lotId: lotId, over: ranges, sql: store.sql)
        var dates: [Quote] = []
        for (i, range) in ranges.enumerated() {
            dates.append(try await quote(range, offer: lot, now: now, checkAdvance: i == 0, competing: competing))
        }
        return SeriesQuote(lotId: lotId, plan: plan, timeZone: lot.timeZone, dates: dates)
    }

    func createSeries(_ principal: Principal, lotId: String, plan: BookingSeriesPlan, idempotencyKey: String?) async throws -> BookingSeriesRow {
        try WalletService.requireAccount(principal)
        let userId = principal.userId
        let fingerprint = "\(lotId) \(plan.first.start.timeIntervalSince1970) \(plan.first.end.timeIntervalSince1970) "
            + "\(plan.weekdays.map(String.init).joined(separator: ",")) \(plan.until)"
        if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .bookingSeries, key: idempotencyKey,
                                                                           fingerprint: fingerprint, sql: store.sql) {
            return try await requireSeries(done, userId: userId, sql: store.sql)
        }
        let now = now()
        guard let lot = try await BookingStore.offer(lotId: lotId, sql: store.sql) else { throw Problem.notFound("lot") }
        guard lot.offer != nil else { throw Problem.conflict("lot-not-bookable", "This lot takes no bookings.") }
        let ranges = try Self.expand(plan, zone: lot.timeZone, now: now)
        return try await writing { sql, moved in
            try await AdvisoryLocks.lockUser(userId, sql: sql)
            if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .bookingSeries, key: idempotencyKey,
                                                                               fingerprint: fingerprint, sql: sql) {
                return try await requireSeries(done, userId: userId, sql: sql)
            }
            try await AdvisoryLocks.lockLot(lotId, sql: sql)
            // Read once under the lot's lock: every date is priced against the same offer.
            let offer = try await bookableOffer(lotId: lotId, now: now, sql: sql)
            let seriesId = UUID().uuidString.lowercased()
            try await BookingSeriesStore.insert(id: seriesId, userId: userId, lotId: lotId, plan: plan, at: now, sql: sql)
            var made: [(booking: Booking, price: Money)] = [], skipped: [BookingSeriesRow.Skip] = []
            // Read once under the lot's lock; each date booked joins them for the dates after it.
            var competing = try await Self.competing(lotId: lotId, over: ranges, sql: sql)
            for (i, range) in ranges.enumerated() {
                do {
                    let price = try Self.price(range, at: offer, now: now, checkAdvance: i == 0)
                    try await checkOverlap(userId: userId, range: range, excluding: nil, sql: sql)
                    let those = BookingStore.overlapping(competing, range)
                    guard BookingCapacity.fits(range, capacity: offer.capacity, bookings: those, now: now) else { throw Self.lotFull }
                    let booking = Booking(id: UUID().uuidString.lowercased(), userId: userId, lotId: lotId, range: range, paid: price.total)
                    try await BookingStore.insert(booking, siteId: offer.siteId, seriesId: seriesId, at: now, sql: sql)
                    competing.append(booking)
                    made.append((booking, price.total))
                } catch let problem as Problem where Self.skippable.contains(problem.type) {
                    skipped.append(.init(range: range, reason: problem.detail ?? problem.title))
                }
            }
            guard let firstMade = made.first else {
                let why = skipped.first.map { " The first: \($0.reason)" } ?? ""
                throw Problem.conflict("booking-series-unbookable", "None of the \(ranges.count) dates can be booked.\(why)")
            }
            try await Self.requireFunds(for: made.map(\.price), currency: firstMade.price.currency, userId: userId, sql: sql)
            if !skipped.isEmpty { try await BookingSeriesStore.saveSkipped(skipped, seriesId: seriesId, sql: sql) }
            for (booking, price) in made where price.isPositive {
                try await LedgerStore.post(.bookingPayment(
                    id: UUID().uuidString.lowercased(), userId: userId, operatorId: Self.operatorId(lotId: lotId),
                    amount: price, bookingId: booking.id, at: now), sql: sql)
            }
            if made.contains(where: { $0.booking.awaitsArrival(at: now) }) {
                try await PromisedSpaces.refresh(lotIds: [lotId], now: now, sql: sql, into: moved)
            }
            if let idempotencyKey {
                try await IdempotencyKeys.remember(userId: userId, scope: .bookingSeries, key: idempotencyKey, fingerprint: fingerprint,
                                                   resultId: seriesId, at: now, sql: sql)
            }
            return try await requireSeries(seriesId, userId: userId, sql: sql)
        }
    }

    /// The lot's bookings from the first date's start to the last date's end.
    static func competing(lotId: String, over ranges: [BookingRange], sql: any SQLDatabase) async throws -> [Booking] {
        guard let start = ranges.map(\.start).min(), let end = ranges.map(\.end).max() else { return [] }
        return try await BookingStore.competing(lotId: lotId, range: BookingRange(start: start, end: end), sql: sql)
    }

    func getSeries(_ principal: Principal, id: String) async throws -> BookingSeriesRow {
        try WalletService.requireAccount(principal)
        return try await requireSeries(id, userId: principal.userId, sql: store.sql)
    }

    /// Cancels and refunds every date that has not started; the others stay as they are.
    func cancelSeries(_ principal: Principal, id: String) async throws -> BookingSeriesRow {
        try WalletService.requireAccount(principal)
        let existing = try await requireSeries(id, userId: principal.userId, sql: store.sql)
        let now = now()
        let (row, released) = try await writing { sql, moved in
            try await AdvisoryLocks.lockUser(principal.userId, sql: sql)
            try await AdvisoryLocks.lockLot(existing.lotId, sql: sql)
            let current = try await requireSeries(id, userId: principal.userId, sql: sql)
            let cancelling = current.bookings.filter { $0.booking.state == .booked && $0.booking.range.start > now }
            var released: [Booking] = []
            for row in cancelling {
                released.append(try await Self.cancel(row.booking, zone: row.timeZone, at: now, sql: sql))
            }
            if cancelling.contains(where: { $0.booking.awaitsArrival(at: now) }) {
                try await PromisedSpaces.refresh(lotIds: [current.lotId], now: now, sql: sql, into: moved)
            }
            return (try await requireSeries(id, userId: principal.userId, sql: sql), released)
        }
        await tell(released)
        return row
    }

    // MARK: Helpers

    /// Why a single date is left out rather than the whole series refused.
    private static let skippable: Set<String> = [invalidRange("").type, lotFull.type, Problem.conflict("too-many-bookings", "").type]

    static func expand(_ plan: BookingSeriesPlan, zone: TimeZone, now: Date) throws -> [BookingRange] {
        do throws(BookingSeriesPlan.Problem) {
            return try plan.occurrences(zone: zone, now: now)
        } catch {
            throw Problem(type: "booking-series-invalid", title: "The weekly booking cannot be made", status: 400,
                          detail: error.words(locale: RequestContext.locale))
        }
    }

    /// Says what the dates cost together, before any is paid: the ledger would only say that
    /// one of them did not fit.
    private static func requireFunds(for prices: [Money], currency: String, userId: String, sql: any SQLDatabase) async throws {
        let total = Money(prices.reduce(0) { $0 + $1.minorUnits }, currency)
        let balance = try await LedgerStore.balance(of: .wallet(userId), currency: currency, sql: sql)
        guard balance.minorUnits < total.minorUnits else { return }
        throw Problem(type: LedgerStore.insufficientFunds, title: "Not enough money in the wallet", status: 402, detail: """
            These \(prices.count) bookings cost \(total.displayText) together and your wallet holds \(balance.displayText). \
            Top up your wallet, or choose fewer dates.
            """)
    }

    private func requireSeries(_ id: String, userId: String, sql: any SQLDatabase) async throws -> BookingSeriesRow {
        guard let row = try await BookingSeriesStore.series(id: id, userId: userId, sql: sql) else { throw Problem.notFound("booking series") }
        return row
    }
}
