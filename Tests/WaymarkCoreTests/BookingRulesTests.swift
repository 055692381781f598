import Foundation
import Testing
import WaymarkCore

/// PRK-12: the life of a paid booking, and whether a lot has room for one more.
@Suite("Booking rules (PRK-12)")
struct BookingRulesTests {
    static let start = Date(timeIntervalSince1970: 1_741_100_400) // a whole minute
    static func minutes(_ m: Double) -> Date { start.addingTimeInterval(m * 60) }
    static let range = BookingRange(start: start, end: minutes(120))
    static let booking = Booking(id: "b1", userId: "ana", lotId: "sd", range: range, paid: Money(12_000, "COP"))

    func error(_ body: () throws -> Void) -> BookingError? {
        do { try body(); return nil } catch let e as BookingError { return e } catch { return nil }
    }

    // MARK: Check-in and forfeit

    @Test("PRK-12: check-in opens 15 minutes before the start and closes 15 minutes after it")
    func prk12CheckInWindow() throws {
        #expect(BookingRules.checkInWindow(of: Self.range) == BookingRange(start: Self.minutes(-15), end: Self.minutes(15)))
        #expect(error { _ = try BookingRules.checkIn(Self.booking, at: Self.minutes(-15.01)) } == .checkInNotOpenYet(opensAt: Self.minutes(-15)))
        for m in [-15, 0, 14.99] as [Double] {
            let checkedIn = try BookingRules.checkIn(Self.booking, at: Self.minutes(m))
            #expect(checkedIn.state == .checkedIn)
            #expect(checkedIn.checkedInAt == Self.minutes(m))
        }
        #expect(error { _ = try BookingRules.checkIn(Self.booking, at: Self.minutes(15)) } == .checkInClosed)
        // Only once, and not after the booking has ended some other way.
        let checkedIn = try BookingRules.checkIn(Self.booking, at: Self.start)
        #expect(error { _ = try BookingRules.checkIn(checkedIn, at: Self.minutes(1)) } == .notAllowed(in: .checkedIn))
        var cancelled = Self.booking
        cancelled.state = .cancelled
        #expect(error { _ = try BookingRules.checkIn(cancelled, at: Self.start) } == .notAllowed(in: .cancelled))
    }

    @Test("PRK-12: a booked driver is expected while check-in is open; the bound for reading them holds exactly those starts")
    func prk12AwaitsArrival() throws {
        #expect(!Self.booking.awaitsArrival(at: Self.minutes(-15.01)))
        for m in [-15, 0, 14.99] as [Double] { #expect(Self.booking.awaitsArrival(at: Self.minutes(m)), "\(m)") }
        #expect(!Self.booking.awaitsArrival(at: Self.minutes(15)))
        var arrived = Self.booking
        arrived.state = .checkedIn
        #expect(!arrived.awaitsArrival(at: Self.start), "arrived: the sensors count the car")
        // A 10-minute booking stops being awaited at its end.
        let short = Booking(id: "b2", userId: "ana", lotId: "sd", range: BookingRange(start: Self.start, end: Self.minutes(10)), paid: Money(0, "COP"))
        #expect(short.awaitsArrival(at: Self.minutes(9.99)) && !short.awaitsArrival(at: Self.minutes(10)))
        // Every awaited start lies inside the bound, minute by minute around the window.
        for m in stride(from: -40.0, through: 40, by: 0.5) {
            let now = Self.minutes(m), bound = BookingRules.startsAwaitingArrival(at: now)
            let inside = Self.start > bound.after && Self.start <= bound.upTo
            #expect(inside == Self.booking.awaitsArrival(at: now), "\(m)")
        }
    }

    @Test("PRK-12: free spaces promised to expected drivers count as booked, never below zero free")
    func prk12Promising() {
        let counts = LotCounts(free: 3, occupied: 5, held: 1, booked: 0, closed: 2, unknown: 1)
        #expect(counts.promising(0) == counts)
        #expect(counts.promising(2) == LotCounts(free: 1, occupied: 5, held: 1, booked: 2, closed: 2, unknown: 1))
        #expect(counts.promising(7) == LotCounts(free: 0, occupied: 5, held: 1, booked: 3, closed: 2, unknown: 1), "only as far as there are free spaces")
        #expect(counts.promising(-1) == counts)
        #expect(counts.promising(2).total == counts.total, "the capacity stays")
        #expect(counts.promising(3).level == .red && counts.level == .green)
    }

    @Test("PRK-12: 15 minutes after the start without check-in the booking is forfeited with no refund")
    func prk12Forfeit() throws {
        #expect(BookingRules.forfeitDeadline(of: Self.range) == Self.minutes(15))
        #expect(error { _ = try BookingRules.forfeit(Self.booking, at: Self.minutes(14.99)) } == .notDueYet(at: Self.minutes(15)))
        let outcome = try BookingRules.forfeit(Self.booking, at: Self.minutes(15))
        #expect(outcome.booking.state == .forfeited)
        #expect(outcome.settlement == .zero("COP"))
        #expect(outcome.booking.paid == Self.booking.paid)
        // A driver who checked in keeps the space.
        let checkedIn = try BookingRules.checkIn(Self.booking, at: Self.minutes(5))
        #expect(error { _ = try BookingRules.forfeit(checkedIn, at: Self.minutes(30)) } == .notAllowed(in: .checkedIn))
        // A forfeited booking cannot be cancelled for a refund afterwards.
        #expect(error { _ = try BookingRules.cancel(outcome.booking, at: Self.minutes(-60)) } == .notAllowed(in: .forfeited))
    }

    @Test("PRK-12: a booking shorter than 15 minutes is forfeited at its end")
    func prk12ShortBooking() throws {
        let short = BookingRange(start: Self.start, end: Self.minutes(10))
        #expect(BookingRules.forfeitDeadline(of: short) == Self.minutes(10))
        #expect(BookingRules.checkInWindow(of: short).end == Self.minutes(10))
        var booking = Self.booking
        booking.range = short
        #expect(error { _ = try BookingRules.checkIn(booking, at: Self.minutes(10)) } == .checkInClosed)
        #expect(try BookingRules.forfeit(booking, at: Self.minutes(10)).booking.state == .forfeited)
    }

    @Test("PRK-12: a checked-in booking completes when the driver leaves or its time is over, without refund")
    func prk12Complete() throws {
        let checkedIn = try BookingRules.checkIn(Self.booking, at: Self.minutes(3))
        let early = try BookingRules.complete(checkedIn, at: Self.minutes(30))
        #expect(early.booking.state == .completed)
        #expect(early.settlement == .zero("COP"))
        #expect(error { _ = try BookingRules.complete(Self.booking, at: Self.minutes(130)) } == .notAllowed(in: .booked))
        #expect(error { _ = try BookingRules.complete(early.booking, at: Self.minutes(130)) } == .notAllowed(in: .completed))
    }

    @Test("PRK-12: the sweep knows which bookings are due to be forfeited or completed")
    func prk12Due() throws {
        #expect(BookingRules.due(Self.booking, at: Self.minutes(14)) == nil)
        #expect(BookingRules.due(Self.booking, at: Self.minutes(15)) == .forfeited)
        let checkedIn = try BookingRules.checkIn(Self.booking, at: Self.minutes(3))
        #expect(BookingRules.due(checkedIn, at: Self.minutes(119)) == nil)
        #expect(BookingRules.due(checkedIn, at: Self.minutes(120)) == .completed)
        for state in BookingState.allCases where state.isFinal {
            var b = Self.booking
            b.state = state
            #expect(BookingRules.due(b, at: Self.minutes(1_000)) == nil)
        }
        #expect(BookingState.allCases.filter(\.isFinal) == [.forfeited, .cancelled, .completed])
    }

    // MARK: Modify and cancel

    @Test("PRK-12: modifying before the start settles the price difference: positive pays more, negative refunds")
    func prk12Modify() throws {
        let later = BookingRange(start: Self.minutes(60), end: Self.minutes(240))
        let dearer = try BookingRules.modify(Self.booking, to: later, newPrice: Money(15_000, "COP"), at: Self.minutes(-30))
        #expect(dearer.settlement == Money(3_000, "COP"))
        #expect(dearer.booking.range == later)
        #expect(dearer.booking.paid == Money(15_000, "COP"))
        #expect(dearer.booking.modifications == 1)
        #expect(dearer.booking.state == .booked)

        let shorter = BookingRange(start: Self.minutes(60), end: Self.minutes(90))
        let cheaper = try BookingRules.modify(dearer.booking, to: shorter, newPrice: Money(4_000, "COP"), at: Self.minutes(-1))
        #expect(cheaper.settlement == Money(-11_000, "COP"))
        #expect(cheaper.booking.modifications == 2)

        // Same price, other time: counted, nothing moves.
        let moved = try BookingRules.modify(cheaper.booking, to: BookingRange(start: Self.minutes(70), end: Self.minutes(100)), newPrice: Money(4_000, "COP"), at: Self.minutes(-1))
        #expect(moved.settlement.isZero)
        #expect(moved.booking.modifications == 3)
        // The payments add up to the current price.
        #expect(12_000 + dearer.settlement.minorUnits + cheaper.settlement.minorUnits + moved.settlement.minorUnits == moved.booking.paid.minorUnits)
    }

    @Test("PRK-12: no modification from the start on, to the same range, in another currency, or after it ended")
    func prk12ModifyRefused() throws {
        let other = BookingRange(start: Self.minutes(60), end: Self.minutes(90))
        let price = Money(5_000, "COP")
        #expect(error { _ = try BookingRules.modify(Self.booking, to: other, newPrice: price, at: Self.start) } == .alreadyStarted)
        #expect(error { _ = try BookingRules.modify(Self.booking, to: other, newPrice: price, at: Self.minutes(1)) } == .alreadyStarted)
        #expect(error { _ = try BookingRules.modify(Self.booking, to: Self.range, newPrice: price, at: Self.minutes(-5)) } == .sameRange)
        #expect(error { _ = try BookingRules.modify(Self.booking, to: other, newPrice: Money(5, "USD"), at: Self.minutes(-5)) }
                == .currencyMismatch(expected: "COP", got: "USD"))
        let cancelled = try BookingRules.cancel(Self.booking, at: Self.minutes(-5)).booking
        #expect(error { _ = try BookingRules.modify(cancelled, to: other, newPrice: price, at: Self.minutes(-5)) } == .notAllowed(in: .cancelled))
        // After moving the start later, changes are possible until the new start.
        let moved = try BookingRules.modify(Self.booking, to: other, newPrice: price, at: Self.minutes(-5)).booking
        #expect(try BookingRules.modify(moved, to: Self.range, newPrice: price, at: Self.minutes(30)).booking.range == Self.range)
    }

    @Test("PRK-12: cancelling before the start refunds everything paid, modifications included")
    func prk12Cancel() throws {
        let outcome = try BookingRules.cancel(Self.booking, at: Self.minutes(-0.01))
        #expect(outcome.booking.state == .cancelled)
        #expect(outcome.settlement == Money(-12_000, "COP"))
        let modified = try BookingRules.modify(Self.booking, to: BookingRange(start: Self.start, end: Self.minutes(180)), newPrice: Money(18_000, "COP"), at: Self.minutes(-60)).booking
        #expect(try BookingRules.cancel(modified, at: Self.minutes(-1)).settlement == Money(-18_000, "COP"))
        #expect(error { _ = try BookingRules.cancel(Self.booking, at: Self.start) } == .alreadyStarted)
        #expect(error { _ = try BookingRules.cancel(outcome.booking, at: Self.minutes(-1)) } == .notAllowed(in: .cancelled))
        let checkedIn = try BookingRules.checkIn(Self.booking, at: Self.minutes(-10))
        #expect(error { _ = try BookingRules.cancel(checkedIn, at: Self.minutes(-5)) } == .notAllowed(in: .checkedIn))
    }

    @Test("PRK-12: a booking's outcomes post as valid ledger transactions")
    func prk12OutcomesPost() throws {
        var book = LedgerBook()
        try book.post(.topUp(id: "t0", userId: "ana", provider: "demo", amount: Money(20_000, "COP"), at: Self.minutes(-100)))
        try book.post(.bookingPayment(id: "t1", userId: "ana", operatorId: "op", amount: Self.booking.paid, bookingId: "b1", at: Self.minutes(-100)))
        let modified = try BookingRules.modify(Self.booking, to: BookingRange(start: Self.start, end: Self.minutes(150)), newPrice: Money(15_000, "COP"), at: Self.minutes(-50))
        try book.post(.modificationSettlement(id: "t2", userId: "ana", operatorId: "op", userPays: modified.settlement, bookingId: "b1", at: Self.minutes(-50)))
        let cancelled = try BookingRules.cancel(modified.booking, at: Self.minutes(-10))
        try book.post(.cancellationRefund(id: "t3", userId: "ana", operatorId: "op", amount: cancelled.settlement.magnitude, bookingId: "b1", at: Self.minutes(-10)))
        #expect(book.balance(of: .wallet("ana"), currency: "COP") == Money(20_000, "COP"))
        #expect(book.balance(of: .operator("op"), currency: "COP") == .zero("COP"))
    }

    @Test("PRK-12: modifications are counted per booking for the operator's questions")
    func prk12ModificationCounts() throws {
        var b2 = Self.booking
        b2.id = "b2"
        b2 = try BookingRules.modify(b2, to: BookingRange(start: Self.start, end: Self.minutes(60)), newPrice: Money(6_000, "COP"), at: Self.minutes(-60)).booking
        b2 = try BookingRules.modify(b2, to: BookingRange(start: Self.start, end: Self.minutes(90)), newPrice: Money(9_000, "COP"), at: Self.minutes(-50)).booking
        var b3 = Self.booking
        b3.id = "b3"
        b3 = try BookingRules.modify(b3, to: BookingRange(start: Self.start, end: Self.minutes(30)), newPrice: Money(3_000, "COP"), at: Self.minutes(-60)).booking
        let counts = BookingRules.modificationCounts([Self.booking, b2, b3])
        #expect(counts.bookings == 3)
        #expect(counts.modified == 2)
        #expect(counts.modifications == 3)
    }

    // MARK: Capacity

    static func r(_ from: Double, _ to: Double) -> BookingRange { BookingRange(start: minutes(from), end: minutes(to)) }

    @Test("PRK-12: a new booking fits when fewer than the bookable capacity overlap it at every instant")
    func prk12CapacitySweep() {
        // Two bookings 0–60 and 30–90 overlap during 30–60.
        let existing = [Self.r(0, 60), Self.r(30, 90)]
        #expect(BookingCapacity.peak(of: existing, within: Self.r(0, 90)) == 2)
        #expect(!BookingCapacity.fits(Self.r(40, 50), capacity: 2, existing: existing))
        #expect(BookingCapacity.fits(Self.r(40, 50), capacity: 3, existing: existing))
        // Outside the overlap, one space is in use.
        #expect(BookingCapacity.fits(Self.r(60, 120), capacity: 2, existing: existing))
        #expect(BookingCapacity.fits(Self.r(-60, 30), capacity: 2, existing: existing))
        // Touching the overlap by one minute is enough to be refused.
        #expect(!BookingCapacity.fits(Self.r(-60, 31), capacity: 2, existing: existing))
        #expect(!BookingCapacity.fits(Self.r(59, 120), capacity: 2, existing: existing))
        // Back to back is not overlapping: half-open ranges.
        #expect(BookingCapacity.fits(Self.r(60, 90), capacity: 1, existing: [Self.r(0, 60), Self.r(90, 120)]))
        // Overlaps that never coincide need only one space: 0–60, 50–70, 65–100 peak at 2, not 3.
        #expect(BookingCapacity.peak(of: [Self.r(0, 60), Self.r(50, 70), Self.r(65, 100)], within: Self.r(0, 100)) == 2)
        // No capacity, no booking; an empty lot takes one.
        #expect(!BookingCapacity.fits(Self.r(0, 10), capacity: 0, existing: []))
        #expect(BookingCapacity.fits(Self.r(0, 10), capacity: 1, existing: []))
    }

    @Test("PRK-12: the sweep agrees with counting minute by minute on random bookings")
    func prk12CapacityMatchesBruteForce() {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<300 {
            let ranges = (0..<Int.random(in: 0...25, using: &rng)).map { _ -> BookingRange in
                let a = Int.random(in: 0..<200, using: &rng)
                return Self.r(Double(a), Double(a + Int.random(in: 1...60, using: &rng)))
            }
            let a = Int.random(in: 0..<220, using: &rng)
            let window = Self.r(Double(a), Double(a + Int.random(in: 1...60, using: &rng)))
            var brute = 0
            for minute in stride(from: window.start, to: window.end, by: 60) {
                brute = max(brute, ranges.filter { $0.contains(minute) }.count)
            }
            #expect(BookingCapacity.peak(of: ranges, within: window) == brute)
            let capacity = Int.random(in: 0...6, using: &rng)
            #expect(BookingCapacity.fits(window, capacity: capacity, existing: ranges) == (brute < capacity))
        }
    }

    @Test("PRK-12: only bookings that still hold a space count; no-shows past the deadline, cancelled and the booking being modified do not")
    func prk12CapacityOfBookings() throws {
        let now = Self.minutes(-60)
        func booking(_ id: String, _ range: BookingRange, _ state: BookingState = .booked) -> Booking {
            Booking(id: id, userId: "u", lotId: "sd", range: range, paid: Money(1, "COP"), state: state)
        }
        let candidate = Self.r(0, 60)
        let bookings = [
            booking("a", Self.r(0, 60)),
            booking("b", Self.r(30, 90), .checkedIn),
            booking("c", Self.r(0, 60), .cancelled),
            booking("d", Self.r(0, 60), .forfeited),
            booking("e", Self.r(0, 60), .completed),
        ]
        #expect(!BookingCapacity.fits(candidate, capacity: 2, bookings: bookings, now: now))
        #expect(BookingCapacity.fits(candidate, capacity: 3, bookings: bookings, now: now))
        // Modifying "a" must not compete with itself.
        #expect(BookingCapacity.fits(candidate, capacity: 2, bookings: bookings, excluding: "a", now: now))
        // At 15 minutes after its start "a" is a no-show: its space is free again for the rest.
        #expect(bookings[0].holdsSpace(at: Self.minutes(14)))
        #expect(!bookings[0].holdsSpace(at: Self.minutes(15)))
        #expect(BookingCapacity.fits(Self.r(15, 60), capacity: 2, bookings: bookings, now: Self.minutes(15)))
        #expect(!BookingCapacity.fits(Self.r(15, 60), capacity: 2, bookings: bookings, now: Self.minutes(14)))
    }

    @Test("PRK-12: booking errors read as sentences")
    func prk12ErrorText() {
        let errors: [BookingError] = [.notAllowed(in: .cancelled), .alreadyStarted, .checkInNotOpenYet(opensAt: Self.start),
                                      .checkInClosed, .notDueYet(at: Self.start), .sameRange, .currencyMismatch(expected: "COP", got: "USD")]
        for e in errors { #expect(e.description.hasSuffix(".")) }
        #expect(BookingError.notAllowed(in: .cancelled).description.contains("cancelled"))
    }
}
