import Foundation

/// Paid time-range bookings of PRK-12 (UniPark): paid up front, changeable or cancellable with
/// the money settled until the start, and released without refund when the driver has not
/// arrived 15 minutes after the start. These functions decide; the caller stores the result
/// and posts the money through the ledger.

public enum BookingState: String, CaseIterable, Codable, Sendable {
    case booked, checkedIn, forfeited, cancelled, completed

    /// Nothing happens to a booking in these states any more.
    public var isFinal: Bool { self == .forfeited || self == .cancelled || self == .completed }
}

public struct Booking: Hashable, Codable, Sendable, Identifiable {
    public var id: String
    public var userId: String
    public var lotId: String
    public var range: BookingRange
    public var state: BookingState
    /// What the user has paid net: the payment plus every modification settlement. A
    /// cancellation refunds exactly this.
    public var paid: Money
    /// How often the range was changed (PRK-17: "how often are bookings modified").
    public var modifications: Int
    public var checkedInAt: Date?

    public init(id: String, userId: String, lotId: String, range: BookingRange, paid: Money,
                state: BookingState = .booked, modifications: Int = 0, checkedInAt: Date? = nil) {
        self.id = id
        self.userId = userId
        self.lotId = lotId
        self.range = range
        self.paid = paid
        self.state = state
        self.modifications = modifications
        self.checkedInAt = checkedInAt
    }

    /// Whether the booking keeps a space of its lot at `now`. A driver who missed the
    /// check-in deadline has lost the space even before a sweep marks the booking forfeited:
    /// the seed promises that space to whoever comes next.
    public func holdsSpace(at now: Date) -> Bool {
        switch state {
        case .checkedIn: true
        case .booked: now < BookingRules.forfeitDeadline(of: range)
        case .forfeited, .cancelled, .completed: false
        }
    }

    /// Whether the lot keeps a space free for this driver now: check-in is open and they have
    /// not arrived. Free counts leave such spaces out, so nobody is sent to a lot whose free
    /// spaces are all promised.
    public func awaitsArrival(at now: Date) -> Bool {
        state == .booked && BookingRules.expectsDriver(of: range, at: now)
    }
}

/// The result of a change: the booking as it is now, and the money that moves because of it.
public struct BookingOutcome: Hashable, Sendable {
    public var booking: Booking
    /// From the user's side: positive means the user pays (wallet → operator), negative is a
    /// refund (operator → wallet), zero moves nothing and needs no ledger transaction.
    public var settlement: Money

    public init(booking: Booking, settlement: Money) {
        self.booking = booking
        self.settlement = settlement
    }
}

public enum BookingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The change needs another state (e.g. cancelling a completed booking).
    case notAllowed(in: BookingState)
    /// Modifying and cancelling end at the start of the booking.
    case alreadyStarted
    case checkInNotOpenYet(opensAt: Date)
    /// The driver came after the forfeit deadline; the space has been released.
    case checkInClosed
    case notDueYet(at: Date)
    case sameRange
    case currencyMismatch(expected: String, got: String)

    public var description: String { words(zone: ParkingWords.utc, locale: ParkingWords.defaultLocale) }

    /// The refusal with its times on the site's clock, in the person's language.
    public func words(zone: TimeZone, locale: Locale) -> String {
        switch self {
        case .notAllowed(let state): "Not possible for a booking that is \(ParkingWords.state(state))."
        case .alreadyStarted: "The booking has started; it can no longer be changed or cancelled."
        case .checkInNotOpenYet(let opensAt): "Check-in opens at \(ParkingWords.moment(opensAt, zone: zone, locale: locale))."
        case .checkInClosed: "Check-in has closed: the space was released 15 minutes after the start."
        case .notDueYet(let at): "Not before \(ParkingWords.moment(at, zone: zone, locale: locale))."
        case .sameRange: "The booking already has that time."
        case .currencyMismatch(let expected, let got): "The booking was paid in \(expected), not \(got)."
        }
    }
}

public enum BookingRules {
    /// PRK-12 / UniPark: "if the driver has not arrived 15 minutes after start, the space is
    /// released with no refund".
    public static let noShowGrace: TimeInterval = 15 * 60
    /// Arriving a little early is normal; a space is not promised before that. Our choice: the
    /// seed only fixes the end of the window.
    public static let checkInOpensBefore: TimeInterval = 15 * 60

    /// When an unused booking is forfeited: 15 minutes after the start, or at the end of a
    /// booking shorter than that, which is then over without the driver.
    public static func forfeitDeadline(of range: BookingRange) -> Date {
        min(range.start.addingTimeInterval(noShowGrace), range.end)
    }

    /// Check-in is possible from `start - checkInOpensBefore` up to, not including, the
    /// forfeit deadline.
    public static func checkInWindow(of range: BookingRange) -> BookingRange {
        BookingRange(start: range.start.addingTimeInterval(-checkInOpensBefore), end: forfeitDeadline(of: range))
    }

    /// Whether the driver of a booked `range` is expected at `now`: its check-in is open.
    public static func expectsDriver(of range: BookingRange, at now: Date) -> Bool {
        checkInWindow(of: range).contains(now)
    }

    /// The starts of the bookings whose driver can be expected at `now` (`expectsDriver`
    /// decides for each): a bound for reading them.
    public static func startsAwaitingArrival(at now: Date) -> (after: Date, upTo: Date) {
        (now.addingTimeInterval(-noShowGrace), now.addingTimeInterval(checkInOpensBefore))
    }

    public static func checkIn(_ booking: Booking, at now: Date) throws(BookingError) -> Booking {
        guard booking.state == .booked else { throw .notAllowed(in: booking.state) }
        let window = checkInWindow(of: booking.range)
        guard now >= window.start else { throw .checkInNotOpenYet(opensAt: window.start) }
        guard now < window.end else { throw .checkInClosed }
        var result = booking
        result.state = .checkedIn
        result.checkedInAt = now
        return result
    }

    /// A new range and its price (from `LotPricing.quote` at `now`, which also checks that the
    /// new range is bookable). Only before the original start: after it the space is in use or
    /// on its way to being forfeited. The settlement is the difference to what was paid.
    public static func modify(_ booking: Booking, to range: BookingRange, newPrice: Money,
                              at now: Date) throws(BookingError) -> BookingOutcome {
        guard booking.state == .booked else { throw .notAllowed(in: booking.state) }
        guard now < booking.range.start else { throw .alreadyStarted }
        guard range != booking.range else { throw .sameRange }
        guard newPrice.currency == booking.paid.currency else {
            throw .currencyMismatch(expected: booking.paid.currency, got: newPrice.currency)
        }
        var result = booking
        result.range = range
        result.paid = newPrice
        result.modifications += 1
        return BookingOutcome(booking: result, settlement: newPrice - booking.paid)
    }

    /// Before the start, a full refund of everything paid, modifications included.
    public static func cancel(_ booking: Booking, at now: Date) throws(BookingError) -> BookingOutcome {
        guard booking.state == .booked else { throw .notAllowed(in: booking.state) }
        guard now < booking.range.start else { throw .alreadyStarted }
        var result = booking
        result.state = .cancelled
        return BookingOutcome(booking: result, settlement: -booking.paid)
    }

    /// The no-show rule: from the deadline on, the booking is forfeited and nothing is refunded.
    public static func forfeit(_ booking: Booking, at now: Date) throws(BookingError) -> BookingOutcome {
        guard booking.state == .booked else { throw .notAllowed(in: booking.state) }
        let deadline = forfeitDeadline(of: booking.range)
        guard now >= deadline else { throw .notDueYet(at: deadline) }
        var result = booking
        result.state = .forfeited
        return BookingOutcome(booking: result, settlement: .zero(booking.paid.currency))
    }

    /// The driver leaves (any time after checking in) or the booking's time is over. Leaving
    /// early refunds nothing: the space was kept for the whole range.
    public static func complete(_ booking: Booking, at now: Date) throws(BookingError) -> BookingOutcome {
        guard booking.state == .checkedIn else { throw .notAllowed(in: booking.state) }
        var result = booking
        result.state = .completed
        return BookingOutcome(booking: result, settlement: .zero(booking.paid.currency))
    }

    /// The state a periodic sweep should move the booking to at `now`, or nil: forfeited once
    /// the deadline passes unused, completed once a checked-in booking's time is over.
    public static func due(_ booking: Booking, at now: Date) -> BookingState? {
        switch booking.state {
        case .booked where now >= forfeitDeadline(of: booking.range): .forfeited
        case .checkedIn where now >= booking.range.end: .completed
        default: nil
        }
    }

    /// PRK-17: of these bookings, how many were modified at least once and how many
    /// modifications there were in all.
    public static func modificationCounts(_ bookings: some Sequence<Booking>) -> (bookings: Int, modified: Int, modifications: Int) {
        var total = 0, modified = 0, modifications = 0
        for booking in bookings {
            total += 1
            if booking.modifications > 0 { modified += 1 }
            modifications += booking.modifications
        }
        return (total, modified, modifications)
    }
}

/// Whether a lot can take one more booking. A lot's bookable capacity is the number of its
/// spaces set aside for bookings; a new range fits when, at every instant of it, fewer
/// bookings than that overlap.
public enum BookingCapacity {
    /// The most of `ranges` that overlap at one instant inside `window`. A sweep over start and
    /// end events, O(n log n); ends sort before starts at the same instant because ranges are
    /// half-open.
    public static func peak(of ranges: some Sequence<BookingRange>, within window: BookingRange) -> Int {
        var events: [(at: Date, delta: Int)] = []
        for range in ranges where range.overlaps(window) {
            events.append((max(range.start, window.start), 1))
            events.append((min(range.end, window.end), -1))
        }
        events.sort { $0.at != $1.at ? $0.at < $1.at : $0.delta < $1.delta }
        var current = 0, peak = 0
        for event in events {
            current += event.delta
            peak = max(peak, current)
        }
        return peak
    }

    public static func fits(_ candidate: BookingRange, capacity: Int, existing: some Sequence<BookingRange>) -> Bool {
        peak(of: existing, within: candidate) < capacity
    }

    /// The same over stored bookings of one lot: only those that hold a space at `now` count,
    /// and `excluding` leaves out the booking being modified, which must not compete with itself.
    public static func fits(_ candidate: BookingRange, capacity: Int, bookings: some Sequence<Booking>,
                            excluding excludedId: String? = nil, now: Date) -> Bool {
        let ranges = bookings.lazy
            .filter { $0.id != excludedId && $0.holdsSpace(at: now) }
            .map(\.range)
        return fits(candidate, capacity: capacity, existing: ranges)
    }
}
