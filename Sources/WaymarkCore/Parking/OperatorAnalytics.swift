import Foundation

/// The operator's questions of PRK-17 (UniPark's business questions): who reserves, where the
/// morning rush books, how often bookings are changed. Pure: the server loads the facts, this
/// answers, so every rule here is tested without a database.
public enum OperatorAnalytics {
    /// UniPark's peak: starts from 06:30 up to, not including, 09:30 site-local. Half-open like
    /// every range in Waymark, so a booking from 09:30 belongs to the next half hour, not the rush.
    public static let peakStartMinute = 6 * 60 + 30
    public static let peakEndMinute = 9 * 60 + 30

    /// Longest range one question may cover: a quarter, so a request stays cheap.
    public static let maximumDays = 92
    public static let defaultDays = 14

    /// One booking as the analytics see it: who, where, when, and how often it was moved.
    public struct BookingFact: Sendable, Equatable {
        public var userId: String
        public var lotId: String
        public var start: Date
        public var createdAt: Date
        public var modifications: Int
        public var cancelled: Bool

        public init(userId: String, lotId: String, start: Date, createdAt: Date, modifications: Int, cancelled: Bool) {
            self.userId = userId
            self.lotId = lotId
            self.start = start
            self.createdAt = createdAt
            self.modifications = modifications
            self.cancelled = cancelled
        }
    }

    public struct DayShare: Sendable, Equatable {
        public var day: LocalDay
        public var activeUsers: Int
        public var bookingUsers: Int
        /// 0...1; 0 on a day nobody was active.
        public var share: Double

        public init(day: LocalDay, activeUsers: Int, bookingUsers: Int, share: Double) {
            self.day = day
            self.activeUsers = activeUsers
            self.bookingUsers = bookingUsers
            self.share = share
        }
    }

    public struct LotRank: Sendable, Equatable {
        public var lotId: String
        public var bookings: Int

        public init(lotId: String, bookings: Int) {
            self.lotId = lotId
            self.bookings = bookings
        }
    }

    public struct Modifications: Sendable, Equatable {
        public var bookings: Int
        public var total: Int
        public var mean: Double
        /// Bookings changed 0, 1, 2 and 3 or more times.
        public var never: Int, once: Int, twice: Int, threeOrMore: Int

        public init(bookings: Int, total: Int, mean: Double, never: Int, once: Int, twice: Int, threeOrMore: Int) {
            self.bookings = bookings
            self.total = total
            self.mean = mean
            self.never = never
            self.once = once
            self.twice = twice
            self.threeOrMore = threeOrMore
        }
    }

    /// The days of `from...to`, or why they cannot be asked for.
    public static func days(from: LocalDay, to: LocalDay) -> Result<[LocalDay], RangeError> {
        guard from <= to else { return .failure(.reversed) }
        guard to.number - from.number < maximumDays else { return .failure(.tooLong(maximumDays)) }
        return .success((from.number...to.number).map(LocalDay.init(number:)))
    }

    public enum RangeError: Error, Equatable {
        case reversed, tooLong(Int)
    }

    /// Per day, of the people active that day, how many made a booking. A booker counts as
    /// active even when no activity was recorded for them (an account erased since keeps its
    /// bookings under a tombstone but loses its activity), so a share never exceeds 1.
    public static func reservingShare(
        days: [LocalDay], activeUsers: [LocalDay: Int], bookings: [BookingFact], timeZone: TimeZone
    ) -> [DayShare] {
        var bookers: [LocalDay: Set<String>] = [:]
        for b in bookings {
            bookers[LocalDay(containing: b.createdAt, timeZone: timeZone), default: []].insert(b.userId)
        }
        return days.map { day in
            let booking = bookers[day]?.count ?? 0
            let active = max(activeUsers[day] ?? 0, booking)
            return DayShare(day: day, activeUsers: active, bookingUsers: booking,
                            share: active == 0 ? 0 : Double(booking) / Double(active))
        }
    }

    /// Is `instant` within the morning peak on the site's wall clock?
    public static func isPeak(_ instant: Date, timeZone: TimeZone) -> Bool {
        (peakStartMinute..<peakEndMinute).contains(LocalDay.minuteOfDay(instant, timeZone: timeZone))
    }

    /// Lots by how many bookings start in the morning peak of the given days, most first (ties
    /// by lot id, so the order is stable). Cancelled bookings never took a space and are left out.
    public static func peakLots(days: ClosedRange<LocalDay>, bookings: [BookingFact], timeZone: TimeZone) -> [LotRank] {
        var counts: [String: Int] = [:]
        for b in bookings where !b.cancelled && days.contains(LocalDay(containing: b.start, timeZone: timeZone))
            && isPeak(b.start, timeZone: timeZone) {
            counts[b.lotId, default: 0] += 1
        }
        return counts.map { LotRank(lotId: $0.key, bookings: $0.value) }
            .sorted { $0.bookings != $1.bookings ? $0.bookings > $1.bookings : $0.lotId < $1.lotId }
    }

    /// How often the bookings made on the given days were moved to another time.
    public static func modifications(days: ClosedRange<LocalDay>, bookings: [BookingFact], timeZone: TimeZone) -> Modifications {
        var m = Modifications(bookings: 0, total: 0, mean: 0, never: 0, once: 0, twice: 0, threeOrMore: 0)
        for b in bookings where days.contains(LocalDay(containing: b.createdAt, timeZone: timeZone)) {
            m.bookings += 1
            m.total += b.modifications
            switch b.modifications {
            case ...0: m.never += 1
            case 1: m.once += 1
            case 2: m.twice += 1
            default: m.threeOrMore += 1
            }
        }
        m.mean = m.bookings == 0 ? 0 : Double(m.total) / Double(m.bookings)
        return m
    }
}
