import Foundation

/// What booking a lot costs and when it can be booked (PRK-12, UniPark's "plain fee, price per
/// minute, opening hours").
///
/// All amounts are minor units of `currency`. A day is a site-local calendar day, so a booking
/// from 22:00 to 02:00 touches two days however many hours it lasts.
///
/// A day's charge is `dailyFeeMinor` plus `rateMinor` for every started `rateUnitMinutes` beyond
/// the first `includedMinutesPerDay`, at most `dailyCapMinor`. That one shape covers:
/// - UniPark: a flat fee that covers some time, then a per-minute rate;
/// - the demo lots' `LotPrice`: a whole-hour rate capped per day (see `init(_:hours:)`);
/// - a flat day rate alone, or a free lot (everything zero).
public struct LotPricing: Hashable, Codable, Sendable {
    /// ISO 4217, upper case.
    public var currency: String
    /// Charged once for each site-local day the booking touches.
    public var dailyFeeMinor: Int
    /// Minutes of each day's stay that the daily fee already pays for.
    public var includedMinutesPerDay: Int
    /// Charged for each started rate unit beyond the included minutes.
    public var rateMinor: Int
    /// 1 for a per-minute rate, 60 for "per started hour".
    public var rateUnitMinutes: Int
    /// The most one site-local day can cost, daily fee included; nil for no cap.
    public var dailyCapMinor: Int?
    /// When the lot can be used, in site-local wall-clock time; empty means never closed,
    /// as in `LotPlan.hours`.
    public var hours: [OpeningHours]
    /// The longest booking accepted.
    public var maximumDuration: TimeInterval
    /// Dates the operator closed the lot on, beside its weekly hours; not part of the tariff
    /// (they are stored apart and loaded with it).
    public var closures: [LotClosure] = []

    /// A week: long enough for a trip, short enough that a lot's capacity is not tied up by
    /// bookings nobody remembers making.
    public static let defaultMaximumDuration: TimeInterval = 7 * 86_400

    /// Each amount stays below this so that a week of per-minute charges (10 080 units, more
    /// across a fall-back) cannot overflow a 64-bit integer.
    public static let maximumAmountMinor = 1_000_000_000_000

    public init(currency: String, dailyFeeMinor: Int = 0, includedMinutesPerDay: Int = 0,
                rateMinor: Int = 0, rateUnitMinutes: Int = 1, dailyCapMinor: Int? = nil,
                hours: [OpeningHours] = [], maximumDuration: TimeInterval = LotPricing.defaultMaximumDuration) {
        self.currency = currency
        self.dailyFeeMinor = dailyFeeMinor
        self.includedMinutesPerDay = includedMinutesPerDay
        self.rateMinor = rateMinor
        self.rateUnitMinutes = rateUnitMinutes
        self.dailyCapMinor = dailyCapMinor
        self.hours = hours
        self.maximumDuration = maximumDuration
    }

    /// The shape lots are stored in today (`LotPlan.price`, the `price` JSON column): a rate per
    /// started hour and a daily maximum. `LotPrice.cents(forMinutes:)` caps per 24 hours from
    /// arrival; here the cap is per site-local day, which is what a sign saying "$10 a day"
    /// means. Both agree for a booking within one day.
    public init(_ price: LotPrice, hours: [OpeningHours]) {
        self.init(currency: price.currency, rateMinor: price.hourlyCents, rateUnitMinutes: 60,
                  dailyCapMinor: price.dailyMaxCents, hours: hours)
    }

    /// Why this tariff cannot price anything, or nil.
    public var problem: String? {
        guard Money.isValidCurrency(currency) else { return "currency must be three upper-case letters, not \"\(currency)\"." }
        let amounts = [("dailyFeeMinor", dailyFeeMinor), ("rateMinor", rateMinor), ("dailyCapMinor", dailyCapMinor ?? 0)]
        for (name, value) in amounts where !(0...Self.maximumAmountMinor).contains(value) {
            return "\(name) must be 0 to \(Self.maximumAmountMinor), not \(value)."
        }
        guard (1...1440).contains(rateUnitMinutes) else { return "rateUnitMinutes must be 1 to 1440." }
        guard (0...1500).contains(includedMinutesPerDay) else { return "includedMinutesPerDay must be 0 to 1500." }
        if let cap = dailyCapMinor, cap < dailyFeeMinor { return "dailyCapMinor is below dailyFeeMinor." }
        guard maximumDuration > 0, maximumDuration.isFinite else { return "maximumDuration must be positive." }
        for span in hours {
            guard span.weekdays.allSatisfy({ (1...7).contains($0) }),
                  span.openMinute >= 0, span.closeMinute <= 1440, span.openMinute < span.closeMinute
            else { return "opening hours are weekdays 1–7 and 0 ≤ open < close ≤ 1440." }
        }
        return nil
    }

    /// The price of booking `range` at a lot in `timeZone`, after checking that it can be booked
    /// at `now`. Checks run in the order of `PricingError`'s cases, so a range that is wrong in
    /// several ways reports the most basic problem.
    public func quote(for range: BookingRange, in timeZone: TimeZone, now: Date) throws(PricingError) -> PriceQuote {
        if let problem { throw .invalidTariff(problem) }
        guard let start = Self.wholeMinuteSeconds(range.start), let end = Self.wholeMinuteSeconds(range.end)
        else { throw .notWholeMinutes }
        guard end > start else { throw .endNotAfterStart }
        guard range.start >= now else { throw .startsInPast }
        guard range.duration <= maximumDuration else { throw .tooLong(maximum: maximumDuration) }

        let pieces = Self.pieces(start: start, end: end, timeZone: timeZone)
        if !hours.isEmpty {
            for piece in pieces {
                if let closed = firstClosedSecond(in: piece) {
                    throw .closed(at: Date(timeIntervalSince1970: TimeInterval(piece.from + closed - piece.wallFrom)))
                }
            }
        }
        if let closure = LotClosure.first(closures, overlapping: range) { throw .closedForDates(closure) }

        var days: [DayCharge] = []
        for piece in pieces {
            if let last = days.last, last.dayStart == piece.dayStart {
                days[days.count - 1].seconds += piece.to - piece.from
            } else {
                days.append(DayCharge(dayStart: piece.dayStart, firstSecond: piece.from, seconds: piece.to - piece.from))
            }
        }
        let charges = days.map { charge(for: $0, bookingStart: start) }
        return PriceQuote(total: charges.reduce(Money.zero(currency)) { $0 + $1.total }, days: charges)
    }

    /// `quote(for:in:now:).total`.
    public func price(for range: BookingRange, in timeZone: TimeZone, now: Date) throws(PricingError) -> Money {
        try quote(for: range, in: timeZone, now: now).total
    }

    // MARK: - Charging one day

    struct DayCharge {
        var dayStart: Date
        /// Unix seconds where the booking's part of this day begins.
        var firstSecond: Int
        var seconds: Int
    }

    /// Rate units are counted from the booking's start and each is charged on the day it starts
    /// in. Counting them per day instead would charge a 23:30–00:30 booking two started hours.
    private func charge(for day: DayCharge, bookingStart: Int) -> PriceQuote.Day {
        let unit = rateUnitMinutes * 60
        // Units whose start lies at or after `second`, counted from the booking's start.
        func unitsBefore(_ second: Int) -> Int { Self.ceilDiv(second - bookingStart, unit) }
        let from = day.firstSecond, to = day.firstSecond + day.seconds
        let units = unitsBefore(to) - unitsBefore(from)
        let included = unitsBefore(min(to, from + includedMinutesPerDay * 60)) - unitsBefore(from)
        let timeCharge = (units - included) * rateMinor
        var total = dailyFeeMinor + timeCharge
        if let cap = dailyCapMinor { total = min(total, cap) }
        return PriceQuote.Day(
            dayStart: day.dayStart, minutes: day.seconds / 60, chargedUnits: units - included,
            fee: Money(dailyFeeMinor, currency), timeCharge: Money(timeCharge, currency), total: Money(total, currency))
    }

    // MARK: - Site-local days

    /// A stretch of the booking within one local day and one UTC offset, so that its wall-clock
    /// reading runs without jumps from `wallFrom` to `wallFrom + (to - from)`.
    struct Piece {
        var dayStart: Date
        var weekday: Weekday
        /// Unix seconds.
        var from: Int, to: Int
        /// Wall-clock seconds after local midnight at `from`.
        var wallFrom: Int
        var wallTo: Int { wallFrom + (to - from) }
    }

    /// Splits at local midnights and at offset changes. Splitting at offset changes is what
    /// makes the opening-hours check right on DST days: the wall clock skips 02:00–03:00 on a
    /// spring-forward day, so a lot closed then is not in the way, and shows 01:00–02:00 twice on
    /// a fall-back day, so both hours are checked.
    static func pieces(start: Int, end: Int, timeZone: TimeZone) -> [Piece] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var result: [Piece] = []
        var cursor = start
        while cursor < end {
            let instant = Date(timeIntervalSince1970: TimeInterval(cursor))
            guard let day = calendar.dateInterval(of: .day, for: instant) else { break }
            var to = min(end, Int(day.end.timeIntervalSince1970))
            if let change = timeZone.nextDaylightSavingTimeTransition(after: instant) {
                to = min(to, Int(change.timeIntervalSince1970.rounded(.up)))
            }
            // A zone whose day or transition does not advance would loop; move a minute on.
            if to <= cursor { to = min(end, cursor + 60) }
            let wall = cursor + timeZone.secondsFromGMT(for: instant)
            result.append(Piece(
                dayStart: day.start, weekday: calendar.component(.weekday, from: instant),
                from: cursor, to: to, wallFrom: mod(wall, 86_400)))
            cursor = to
        }
        return result
    }

    /// Seconds after local midnight of the first wall-clock second of `piece` at which no
    /// opening span for its weekday is open, or nil when it is open throughout.
    private func firstClosedSecond(in piece: Piece) -> Int? {
        let spans = hours.filter { $0.weekdays.contains(piece.weekday) }
            .map { ($0.openMinute * 60, $0.closeMinute * 60) }
            .sorted { $0.0 < $1.0 }
        var covered = piece.wallFrom
        // Spans may touch or overlap ("06:00–12:00" and "12:00–22:00"): sweep them in order.
        for (open, close) in spans where open <= covered && close > covered {
            covered = close
            if covered >= piece.wallTo { return nil }
        }
        return covered >= piece.wallTo ? nil : covered
    }

    static func wholeMinuteSeconds(_ date: Date) -> Int? {
        let t = date.timeIntervalSince1970
        guard t.isFinite, abs(t) < 1e15, t.truncatingRemainder(dividingBy: 60) == 0 else { return nil }
        return Int(t)
    }

    private static func ceilDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? (a + b - 1) / b : -((-a) / b)
    }

    private static func mod(_ a: Int, _ n: Int) -> Int { ((a % n) + n) % n }
}

/// A price and how it came about, so that a booking screen can show "2 days: …".
public struct PriceQuote: Hashable, Sendable {
    public var total: Money
    public var days: [Day]

    public struct Day: Hashable, Sendable {
        /// Local midnight (or the first instant of the day where midnight does not exist).
        public var dayStart: Date
        /// Real minutes booked on this day: a fall-back day can have up to 1 500.
        public var minutes: Int
        /// Rate units charged on this day, after the included minutes.
        public var chargedUnits: Int
        public var fee: Money
        public var timeCharge: Money
        /// `fee + timeCharge`, at most the daily cap.
        public var total: Money
    }
}

/// Why a range cannot be booked, most basic first.
public enum PricingError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidTariff(String)
    /// Bookings are made on whole minutes (UTC seconds divisible by 60).
    case notWholeMinutes
    case endNotAfterStart
    case startsInPast
    case tooLong(maximum: TimeInterval)
    /// The first instant of the range at which the lot is closed.
    case closed(at: Date)
    /// The operator closed the lot for dates the range overlaps.
    case closedForDates(LotClosure)

    public var description: String { words(zone: ParkingWords.utc, locale: ParkingWords.defaultLocale) }

    /// The refusal with its time on the site's clock, in the person's language.
    public func words(zone: TimeZone, locale: Locale) -> String {
        switch self {
        case .invalidTariff(let why): "The lot's prices are misconfigured: \(why)"
        case .notWholeMinutes: "A booking starts and ends on a whole minute."
        case .endNotAfterStart: "A booking must end after it starts."
        case .startsInPast: "A booking cannot start in the past."
        case .tooLong(let maximum):
            maximum.truncatingRemainder(dividingBy: 86_400) == 0
                ? "A booking can last at most \(Int(maximum / 86_400)) days."
                : "A booking can last at most \(Int(maximum / 60)) minutes."
        case .closed(let at): "The lot is closed at \(ParkingWords.moment(at, zone: zone, locale: locale)); choose a time within its opening hours."
        case .closedForDates(let c): "The lot is closed \(c.dates(zone: zone, locale: locale)) (\(c.reason)); choose other times or another lot."
        }
    }
}
