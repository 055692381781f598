import Foundation

/// A GTFS service day in the feed's time zone: which day an instant falls on and how its times
/// read. GTFS counts a day's times from noon minus 12 hours, which is midnight except on the two
/// days a year the clocks change, when it is an hour off midnight, as the reference intends.
public struct ServiceDay: Hashable, Sendable {
    public let date: TransitFeed.ServiceDate
    public let timeZone: TimeZone
    /// Noon minus 12 hours: the instant the day's times count from.
    public let start: Date

    public init(date: TransitFeed.ServiceDate, timeZone: TimeZone) {
        self.date = date
        self.timeZone = timeZone
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        let noon = c.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
        start = noon.addingTimeInterval(-12 * 3600)
    }

    /// The day whose calendar date the instant has in the time zone.
    public init(containing instant: Date, timeZone: TimeZone) {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        let d = c.dateComponents([.year, .month, .day], from: instant)
        self.init(date: .init(year: d.year!, month: d.month!, day: d.day!), timeZone: timeZone)
    }

    /// The instant's time on this day, in whole seconds (rounded up: a journey never leaves
    /// before it is asked for).
    public func seconds(at instant: Date) -> Int { Int(instant.timeIntervalSince(start).rounded(.up)) }

    /// The instant of a time of this day.
    public func instant(_ seconds: Int) -> Date { start.addingTimeInterval(TimeInterval(seconds)) }
}
