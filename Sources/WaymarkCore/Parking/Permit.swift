import Foundation

/// Campus parking permits (SpotMe F6). A user holds any subset; none by default.
public enum Permit: String, CaseIterable, Codable, Sendable, Hashable {
    case green, yellow, black, handicap
}

/// Days are numbered as in the parking schedule: 1 = Sunday … 7 = Saturday.
public typealias Weekday = Int

/// "From this weekday and minute, until that minute, one of these permits is required."
/// Outside every rule a lot is open to anyone.
public struct PermitRule: Hashable, Codable, Sendable {
    public var weekdays: Set<Weekday>
    /// Minutes after local midnight, start inclusive, end exclusive.
    public var startMinute: Int
    public var endMinute: Int
    /// Any one of these is enough.
    public var permits: Set<Permit>

    public init(weekdays: Set<Weekday>, startMinute: Int, endMinute: Int, permits: Set<Permit>) {
        self.weekdays = weekdays
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.permits = permits
    }

    public static let weekdaysMondayToFriday: Set<Weekday> = [2, 3, 4, 5, 6]

    public func applies(weekday: Weekday, minute: Int) -> Bool {
        weekdays.contains(weekday) && minute >= startMinute && minute < endMinute
    }
}

public enum PermitCheck {
    /// The permits of which one is required at a site-local weekday and minute, or nil when the
    /// lot is open to all then. Several matching rules must all be satisfied, so they intersect.
    public static func required(by rules: [PermitRule], weekday: Weekday, minute: Int) -> Set<Permit>? {
        var required: Set<Permit>?
        for rule in rules where rule.applies(weekday: weekday, minute: minute) {
            required = required.map { $0.intersection(rule.permits) } ?? rule.permits
        }
        return required
    }

    /// The site-local weekday (1 = Sunday) and minute after midnight that permit rules speak of.
    public static func localMoment(of instant: Date, timeZone: TimeZone) -> (weekday: Weekday, minute: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.weekday, .hour, .minute], from: instant)
        return (c.weekday ?? 1, (c.hour ?? 0) * 60 + (c.minute ?? 0))
    }

    public static func isAllowed(holding permits: Set<Permit>, rules: [PermitRule], weekday: Weekday, minute: Int) -> Bool {
        guard let required = required(by: rules, weekday: weekday, minute: minute) else { return true }
        return !required.isDisjoint(with: permits)
    }
}
