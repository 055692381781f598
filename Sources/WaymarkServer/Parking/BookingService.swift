import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Paid bookings (PRK-12). Prices, states and capacity are decided by WaymarkCore
/// (`LotPricing`, `BookingRules`, `BookingCapacity`, `Ledger`); this service runs each decision
/// inside one write transaction with the money it moves. A transaction that counts or changes a
/// lot's booked capacity holds that lot's lock, and one that takes from a wallet holds its
/// user's lock (PostgreSQL advisory locks; SQLite has one writer), so a lot is never overbooked
/// and a wallet never goes below zero, whatever runs at the same time.
struct BookingService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    /// Told about released spaces after commit; empty until notifications exist.
    var observers: [any BookingObserver] = []
    /// How many of one person's bookings may cover the same moment (`overlappingBookingsLimit`).
    var overlapLimit = 2
    /// Told the lots whose free count moved (`PromisedSpaces`) after commit.
    var live: LiveHub?

    struct Quote: Sendable {
        var lotId: String
        var range: BookingRange
        /// nil when the range cannot be booked; `problem` says why.
        var price: PriceQuote?
        var problem: Problem?
        var spacesLeft: Int
    }

    /// A range that cannot be booked is an answer here, not an error: a booking screen asks
    /// while the driver is still choosing the time.
    func quote(lotId: String, range: BookingRange) async throws -> Quote {
        let now = now()
        return try await quote(range, offer: try await bookableOffer(lotId: lotId, now: now, sql: store.sql), now: now, checkAdvance: true)
    }

    /// A range's quote at a lot whose offer is already read (a weekly booking quotes many).
    /// `competing`: the lot's bookings over a span covering `range`, when already read (a weekly
    /// series reads its whole span once); nil reads those of `range`.
    func quote(_ range: BookingRange, offer: LotOfferRow, now: Date, checkAdvance: Bool, competing: [Booking]? = nil) async throws -> Quote {
        let lotId = offer.lotId, sql = store.sql
        let price: PriceQuote
        do {
            price = try Self.price(range, at: offer, now: now, checkAdvance: checkAdvance)
        } catch let problem as Problem where problem.type == Self.invalidRange("").type {
            return Quote(lotId: lotId, range: range, price: nil, problem: problem, spacesLeft: 0)
        }
        let others: [Booking]
        if let competing { others = BookingStore.overlapping(competing, range) } else {
            others = try await BookingStore.competing(lotId: lotId, range: range, sql: sql)
        }
        let holding = others.filter { $0.holdsSpace(at: now) }
        let peak = BookingCapacity.peak(of: holding.map(\.range), within: range)
        return Quote(lotId: lotId, range: range, price: price, problem: nil, spacesLeft: max(0, offer.capacity - peak))
    }

    func create(_ principal: Principal, lotId: String, range: BookingRange, idempotencyKey: String?) async throws -> BookingRow {
        try WalletService.requireAccount(principal)
        let userId = principal.userId
        let fingerprint = "\(lotId) \(range.start.timeIntervalSince1970) \(range.end.timeIntervalSince1970)"
        if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .booking, key: idempotencyKey,
                                                                           fingerprint: fingerprint, sql: store.sql) {
            return try await require(done, sql: store.sql)
        }
        let now = now()
        // Refused before taking any lock: bad ranges and unknown lots need no writer.
        _ = try await priced(lotId: lotId, range: range, now: now, sql: store.sql)
        return try await writing { sql, moved in
            try await AdvisoryLocks.lockUser(userId, sql: sql)
            if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .booking, key: idempotencyKey,
                                                                               fingerprint: fingerprint, sql: sql) {
                return try await require(done, sql: sql)
            }
            try await checkOverlap(userId: userId, range: range, excluding: nil, sql: sql)
            try await AdvisoryLocks.lockLot(lotId, sql: sql)
            let (offer, price) = try await priced(lotId: lotId, range: range, now: now, sql: sql)
            let competing = try await BookingStore.competing(lotId: lotId, range: range, sql: sql)
            guard BookingCapacity.fits(range, capacity: offer.capacity, bookings: competing, now: now) else { throw Self.lotFull }
            let booking = Booking(id: UUID().uuidString.lowercased(), userId: userId, lotId: lotId, range: range, paid: price.total)
            // Inserted first: the payment names the booking.
            try await BookingStore.insert(booking, siteId: offer.siteId, at: now, sql: sql)
            if booking.awaitsArrival(at: now) { try await PromisedSpaces.refresh(lotIds: [lotId], now: now, sql: sql, into: moved) }
            if price.total.isPositive {
                try await LedgerStore.post(.bookingPayment(
                    id: UUID().uuidString.lowercased(), userId: userId, operatorId: Self.operatorId(lotId: lotId),
                    amount: price.total, bookingId: booking.id, at: now), sql: sql)
            }
            if let idempotencyKey {
                try await IdempotencyKeys.remember(userId: userId, scope: .booking, key: idempotencyKey, fingerprint: fingerprint,
                                                   resultId: booking.id, at: now, sql: sql)
            }
            return try await require(booking.id, sql: sql)
        }
    }

    /// Those still to come or running first, soonest first; then the 50 most recent others.
    func list(_ principal: Principal) async throws -> [BookingRow] {
        try WalletService.requireAccount(principal)
        let sql = store.sql
        let open = try await sql.raw("""
            \(unsafeRaw: BookingRow.select) WHERE b.user_id = \(bind: principal.userId) AND b.state IN ('booked', 'checkedIn')
            ORDER BY b.start_at, b.id
            """).all().map(BookingRow.init)
        let done = try await sql.raw("""
            \(unsafeRaw: BookingRow.select) WHERE b.user_id = \(bind: principal.userId) AND b.state NOT IN ('booked', 'checkedIn')
            ORDER BY b.start_at DESC, b.id LIMIT 50
            """).all().map(BookingRow.init)
        return open + done
    }

    func get(_ principal: Principal, id: String) async throws -> BookingRow {
        try WalletService.requireAccount(principal)
        return try await owned(principal, id, sql: store.sql)
    }

    /// A new range before the start; the price difference is settled with the wallet.
    func modify(_ principal: Principal, id: String, to range: BookingRange) async throws -> BookingRow {
        try WalletService.requireAccount(principal)
        let existing = try await owned(principal, id, sql: store.sql)
        let now = now()
        return try await writing { sql, moved in
            try await AdvisoryLocks.lockUser(principal.userId, sql: sql)
            try await checkOverlap(userId: principal.userId, range: range, excluding: id, sql: sql)
            try await AdvisoryLocks.lockLot(existing.booking.lotId, sql: sql)
            let current = try await owned(principal, id, sql: sql).booking
            let (offer, price) = try await priced(lotId: current.lotId, range: range, now: now, sql: sql)
            let outcome = try Self.decide(zone: offer.timeZone) { () throws(BookingError) in
                try BookingRules.modify(current, to: range, newPrice: price.total, at: now)
            }
            let competing = try await BookingStore.competing(lotId: current.lotId, range: range, sql: sql)
            guard BookingCapacity.fits(range, capacity: offer.capacity, bookings: competing, excluding: current.id, now: now) else {
                throw Self.lotFull
            }
            guard try await BookingStore.update(outcome.booking, from: current.state, at: now, sql: sql) else { throw Self.changedMeanwhile }
            if current.awaitsArrival(at: now) || outcome.booking.awaitsArrival(at: now) {
                try await PromisedSpaces.refresh(lotIds: [current.lotId], now: now, sql: sql, into: moved)
            }
            if !outcome.settlement.isZero {
                try await LedgerStore.post(.modificationSettlement(
                    id: UUID().uuidString.lowercased(), userId: principal.userId, operatorId: Self.operatorId(lotId: current.lotId),
                    userPays: outcome.settlement, bookingId: current.id, at: now), sql: sql)
            }
            return try await require(id, sql: sql)
        }
    }

    /// Before the start, with a full refund. A cancelled booking is answered as it is, so a
    /// retried cancel is harmless.
    func cancel(_ principal: Principal, id: String) async throws -> BookingRow {
        try WalletService.requireAccount(principal)
        let existing = try await owned(principal, id, sql: store.sql)
        if existing.booking.state == .cancelled { return existing }
        let now = now()
        let (row, released) = try await writing { sql, moved in
            try await AdvisoryLocks.lockUser(principal.userId, sql: sql)
            try await AdvisoryLocks.lockLot(existing.booking.lotId, sql: sql)
            let current = try await owned(principal, id, sql: sql)
            if current.booking.state == .cancelled { return (current, [Booking]()) }
            let cancelled = try await Self.cancel(current.booking, zone: current.timeZone, at: now, sql: sql)
            if current.booking.awaitsArrival(at: now) { try await PromisedSpaces.refresh(lotIds: [cancelled.lotId], now: now, sql: sql, into: moved) }
            return (try await require(id, sql: sql), [cancelled])
        }
        await tell(released)
        return row
    }

    /// The driver has arrived. Checking in again answers the checked-in booking.
    func checkIn(_ principal: Principal, id: String) async throws -> BookingRow {
        try WalletService.requireAccount(principal)
        let existing = try await owned(principal, id, sql: store.sql)
        if existing.booking.state == .checkedIn { return existing }
        let now = now()
        return try await writing { sql, moved in
            let row = try await owned(principal, id, sql: sql)
            let current = row.booking
            let checkedIn = try Self.decide(zone: row.timeZone) { () throws(BookingError) in try BookingRules.checkIn(current, at: now) }
            guard try await BookingStore.update(checkedIn, from: current.state, at: now, sql: sql) else { throw Self.changedMeanwhile }
            try await PromisedSpaces.refresh(lotIds: [current.lotId], now: now, sql: sql, into: moved)
            return try await require(id, sql: sql)
        }
    }

    /// A sensor saw the user's car arrive in `lotId` (on a spot they held, and they said "it was
    /// me"): their booking in that lot whose check-in is open is checked in, as if they had
    /// pressed Check in (PRK-12, "check-in by the spot's sensor"). Nil when there is none;
    /// a guest has no bookings. The earliest such booking wins when several are open.
    func checkInArrival(userId: String, lotId: String) async throws -> BookingRow? {
        let now = now()
        let starts = BookingRules.startsAwaitingArrival(at: now)
        let rows = try await store.sql.raw("""
            \(unsafeRaw: BookingRow.select)
            WHERE b.user_id = \(bind: userId) AND b.lot_id = \(bind: lotId) AND b.state = 'booked'
              AND b.start_at > \(bind: starts.after.millis) AND b.start_at <= \(bind: starts.upTo.millis)
            ORDER BY b.start_at, b.id
            """).all().map(BookingRow.init)
        for row in rows {
            guard let checkedIn = try? BookingRules.checkIn(row.booking, at: now) else { continue }
            let done = try await writing { sql, moved -> BookingRow? in
                guard try await BookingStore.update(checkedIn, from: .booked, at: now, sql: sql) else { return nil }
                try await PromisedSpaces.refresh(lotIds: [lotId], now: now, sql: sql, into: moved)
                return try await require(row.booking.id, sql: sql)
            }
            if let done { return done }
        }
        return nil
    }

    // MARK: The job

    struct Sweep: Sendable, Equatable {
        var forfeited = 0
        var completed = 0
        /// Another instance holds the job's lock (PostgreSQL only).
        var skipped = false
    }

    /// Forfeits bookings nobody checked into by their deadline (no refund; the space is free
    /// again) and completes checked-in ones whose time is over. Safe on several instances: one
    /// at a time gets the job's lock, and every change is conditional on the state it read.
    @discardableResult
    func sweep(batch: Int = 500) async throws -> Sweep {
        var total = Sweep()
        while true {
            let now = now()
            let (pass, released, full) = try await writing { sql, moved -> (Sweep, [Booking], Bool) in
                guard try await AdvisoryLocks.tryLockJob(AdvisoryLocks.bookingSweep, sql: sql) else { return (Sweep(skipped: true), [], false) }
                // A superset of what is due: every deadline lies after the start.
                let rows = try await sql.raw("""
                    \(unsafeRaw: BookingRow.select)
                    WHERE (b.state = 'booked' AND b.start_at <= \(bind: now.millis)) OR (b.state = 'checkedIn' AND b.end_at <= \(bind: now.millis))
                    ORDER BY b.start_at, b.id LIMIT \(unsafeRaw: String(batch))
                    """).all().map(BookingRow.init)
                var pass = Sweep(), released: [Booking] = [], changed = 0
                for row in rows {
                    let booking = row.booking
                    switch BookingRules.due(booking, at: now) {
                    case .forfeited:
                        let outcome = try BookingRules.forfeit(booking, at: now)
                        guard try await BookingStore.update(outcome.booking, from: booking.state, at: now, sql: sql) else { continue }
                        try await LedgerStore.post(.forfeit(id: UUID().uuidString.lowercased(), bookingId: booking.id, at: now), sql: sql)
                        pass.forfeited += 1
                        released.append(outcome.booking)
                    case .completed:
                        let outcome = try BookingRules.complete(booking, at: now)
                        guard try await BookingStore.update(outcome.booking, from: booking.state, at: now, sql: sql) else { continue }
                        pass.completed += 1
                    default:
                        continue
                    }
                    changed += 1
                }
                try await IdempotencyKeys.prune(now: now, sql: sql)
                // Check-in windows open and close with time alone.
                try await PromisedSpaces.refresh(now: now, sql: sql, into: moved)
                // Rows not yet due (booked, started, within the grace) can fill a batch; only a
                // batch that changed something can hide more work behind it.
                return (pass, released, rows.count == batch && changed > 0)
            }
            await tell(released)
            total.forfeited += pass.forfeited
            total.completed += pass.completed
            total.skipped = total.skipped || pass.skipped
            if !full { return total }
        }
    }

    func run(logger: Logger, every interval: Duration = .seconds(15)) async {
        while !Task.isCancelled {
            do {
                try await sweep()
            } catch {
                logger.error("booking sweep failed", metadata: ["error": .string(String(reflecting: error))])
            }
            try? await Task.sleep(for: interval)
        }
    }

    // MARK: Account erasure (ACC-5)

    /// Cancels the user's bookings that have not started, with their refunds, then replaces
    /// the user id on every booking and on the wallet's ledger rows by one random tombstone.
    /// Started bookings stay as they are: the space is in use or about to be forfeited.
    static func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        try await AdvisoryLocks.lockUser(userId, sql: sql)
        let future = try await sql.raw("""
            \(unsafeRaw: BookingRow.select) WHERE b.user_id = \(bind: userId) AND b.state = 'booked' AND b.start_at > \(bind: now.millis)
            """).all().map(BookingRow.init)
        for row in future {
            try await AdvisoryLocks.lockLot(row.booking.lotId, sql: sql)
            _ = try await cancel(row.booking, zone: row.timeZone, at: now, sql: sql)
        }
        try await PromisedSpaces.refresh(lotIds: future.filter { $0.booking.awaitsArrival(at: now) }.map(\.booking.lotId), now: now, sql: sql)
        let tombstone = "erased-" + UUID().uuidString.lowercased()
        try await sql.raw("UPDATE bookings SET user_id = \(bind: tombstone) WHERE user_id = \(bind: userId)").run()
        try await sql.raw("UPDATE booking_series SET user_id = \(bind: tombstone) WHERE user_id = \(bind: userId)").run()
        try await LedgerStore.anonymise(userId: userId, tombstone: tombstone, sql: sql)
    }

    // MARK: Helpers

    /// Refuses a range that would put more of the person's bookings on one moment than the
    /// limit. Run under the person's lock, so two requests at once are counted one after the other.
    func checkOverlap(userId: String, range: BookingRange, excluding id: String?, sql: any SQLDatabase) async throws {
        let mine = try await sql.raw("""
            \(unsafeRaw: BookingRow.select)
            WHERE b.user_id = \(bind: userId) AND b.state IN ('booked', 'checkedIn')
              AND b.start_at < \(bind: range.end.millis) AND b.end_at > \(bind: range.start.millis)
            """).all().map(BookingRow.init).filter { $0.booking.id != id }
        guard BookingCapacity.peak(of: mine.map(\.booking.range), within: range) + 1 > overlapLimit else { return }
        let lots = Array(Set(mine.map(\.lotName))).sorted().joined(separator: ", ")
        throw Problem.conflict("too-many-bookings", """
            You already have \(mine.count == 1 ? "a booking" : "\(mine.count) bookings") at that time (\(lots)); at most \(overlapLimit) may \
            overlap. Cancel one or choose another time.
            """)
    }

    static let lotFull = Problem.conflict("lot-full", "No booked space of this lot is free for the whole range; try another time or lot.")
    static let changedMeanwhile = Problem.conflict("booking-not-changeable", "The booking changed meanwhile; fetch it again.")

    /// Revenue is kept per lot, so that each lot's operator can be paid what their lot earned.
    static func operatorId(lotId: String) -> String { "lot-" + lotId }

    /// Cancels and refunds in full (the caller's transaction).
    static func cancel(_ booking: Booking, zone: TimeZone, at now: Date, sql: any SQLDatabase) async throws -> Booking {
        let outcome = try decide(zone: zone) { () throws(BookingError) in try BookingRules.cancel(booking, at: now) }
        guard try await BookingStore.update(outcome.booking, from: booking.state, at: now, sql: sql) else { throw changedMeanwhile }
        if outcome.settlement.isNegative {
            try await LedgerStore.post(.cancellationRefund(
                id: UUID().uuidString.lowercased(), userId: booking.userId, operatorId: operatorId(lotId: booking.lotId),
                amount: outcome.settlement.magnitude, bookingId: booking.id, at: now), sql: sql)
        }
        return outcome.booking
    }

    /// The lot's offer and the price of `range` there, or the problem that stops the booking.
    private func priced(lotId: String, range: BookingRange, now: Date, sql: any SQLDatabase) async throws -> (LotOfferRow, PriceQuote) {
        let offer = try await bookableOffer(lotId: lotId, now: now, sql: sql)
        return (offer, try Self.price(range, at: offer, now: now, checkAdvance: true))
    }

    /// The lot's offer with its closures ahead, ready to price ranges; or why it takes no bookings.
    func bookableOffer(lotId: String, now: Date, sql: any SQLDatabase) async throws -> LotOfferRow {
        guard var lot = try await BookingStore.offer(lotId: lotId, sql: sql) else { throw Problem.notFound("lot") }
        guard let offer = lot.offer, offer.problem == nil else {
            throw Problem.conflict("lot-not-bookable", "This lot takes no bookings.")
        }
        lot.offer?.pricing.closures = try await LotClosures.ahead(lotId: lotId, now: now, sql: sql)
        return lot
    }

    /// The price of `range` at a bookable offer (`bookableOffer`), or the problem that stops it.
    /// A weekly booking's later dates may lie beyond `BookingOffer.maximumAdvance` (`checkAdvance`).
    static func price(_ range: BookingRange, at lot: LotOfferRow, now: Date, checkAdvance: Bool) throws -> PriceQuote {
        guard let offer = lot.offer else { throw Problem.conflict("lot-not-bookable", "This lot takes no bookings.") }
        let price: PriceQuote
        do throws(PricingError) {
            price = try offer.pricing.quote(for: range, in: lot.timeZone, now: now)
        } catch {
            let words = error.words(zone: lot.timeZone, locale: RequestContext.locale)
            if case .invalidTariff = error { throw Problem.conflict("lot-not-bookable", words) }
            throw Self.invalidRange(words)
        }
        if checkAdvance, let problem = BookingOffer.advanceProblem(range, now: now) { throw Self.invalidRange(problem) }
        return price
    }

    static func invalidRange(_ detail: String) -> Problem {
        Problem(type: "booking-range-invalid", title: "The time range cannot be booked", status: 400, detail: detail)
    }

    /// Runs a core rule and turns its refusal into the problem the contract names.
    /// Times in the refusal are told on the site's clock (`zone`) in the person's language.
    static func decide<T>(zone: TimeZone, _ rule: () throws(BookingError) -> T) throws -> T {
        do throws(BookingError) {
            return try rule()
        } catch {
            let words = error.words(zone: zone, locale: RequestContext.locale)
            switch error {
            case .notAllowed: throw Problem.conflict("booking-not-changeable", words)
            case .alreadyStarted: throw Problem.conflict("booking-started", words)
            case .checkInNotOpenYet: throw Problem.conflict("check-in-not-open", words)
            case .checkInClosed: throw Problem.conflict("check-in-closed", words)
            case .sameRange: throw Problem.conflict("booking-same-range", words)
            case .currencyMismatch: throw Problem.conflict("lot-not-bookable", "The lot's tariff is now in another currency: " + words)
            case .notDueYet: throw Problem.conflict("booking-not-changeable", words)
            }
        }
    }

    /// A write transaction whose lots with moved free counts reach the live counters once it
    /// has committed (never from one that rolled back).
    func writing<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase, PromisedSpaces.Moved) async throws -> T) async throws -> T {
        let moved = PromisedSpaces.Moved()
        let result = try await store.write { sql in try await body(sql, moved) }
        let lots = moved.all
        if let live, !lots.isEmpty {
            live.merge(lots)
            live.poke()
        }
        return result
    }

    func tell(_ released: [Booking]) async {
        guard !released.isEmpty else { return }
        for observer in observers { await observer.spacesReleased(released) }
    }

    func require(_ id: String, sql: any SQLDatabase) async throws -> BookingRow {
        guard let row = try await BookingStore.booking(id: id, sql: sql) else { throw Problem.notFound("booking") }
        return row
    }

    /// Someone else's booking is as unknown as a missing one.
    func owned(_ principal: Principal, _ id: String, sql: any SQLDatabase) async throws -> BookingRow {
        guard let row = try await BookingStore.booking(id: id, sql: sql), row.booking.userId == principal.userId else {
            throw Problem.notFound("booking")
        }
        return row
    }
}
