/// The weekly parking schedule of PRK-16: blocks on a Sunday–Saturday × 30-minute grid in
/// site-local wall-clock time, each with an optional lot.
public struct ScheduleBlock: Hashable, Sendable, Codable {
    public var id: String
    public var weekday: Weekday
    /// Half hour of the day, 0 = 00:00–00:30.
    public var startSlot: Int
    /// Exclusive; 48 ends at midnight.
    public var endSlot: Int
    public var lotId: String?

    public init(id: String, weekday: Weekday, startSlot: Int, endSlot: Int, lotId: String? = nil) {
        self.id = id
        self.weekday = weekday
        self.startSlot = startSlot
        self.endSlot = endSlot
        self.lotId = lotId
    }

    public func overlaps(_ other: ScheduleBlock) -> Bool {
        weekday == other.weekday && startSlot < other.endSlot && other.startSlot < endSlot
    }
}

public enum WeeklySchedule {
    public static let slotsPerDay = 48
    /// Enough for every half hour of a week; more can only be a client bug or abuse.
    public static let maximumBlocks = 7 * slotsPerDay

    /// Why the block's place on the grid is impossible, or nil.
    public static func gridProblem(weekday: Int, startSlot: Int, endSlot: Int) -> String? {
        guard (1...7).contains(weekday) else { return "weekday is 1 (Sunday) to 7 (Saturday)." }
        guard (0..<slotsPerDay).contains(startSlot) else { return "startSlot is 0 to 47." }
        guard endSlot > startSlot, endSlot <= slotsPerDay else { return "endSlot is after startSlot and at most 48." }
        return nil
    }

    /// The first block of `existing` (other than the candidate itself) that the candidate overlaps.
    public static func conflict(for candidate: ScheduleBlock, in existing: [ScheduleBlock]) -> ScheduleBlock? {
        existing.first { $0.id != candidate.id && $0.overlaps(candidate) }
    }

    /// The blocks of `incoming` that fit beside `kept` without overlapping it or each other, for
    /// merging a device's schedule into an account (ACC-8): the account's own blocks win.
    public static func mergeable(_ incoming: [ScheduleBlock], into kept: [ScheduleBlock]) -> [ScheduleBlock] {
        var result = kept
        var added: [ScheduleBlock] = []
        for block in incoming.sorted(by: { ($0.weekday, $0.startSlot) < ($1.weekday, $1.startSlot) })
        where conflict(for: block, in: result) == nil {
            result.append(block)
            added.append(block)
        }
        return added
    }

    public static func weekdayName(_ weekday: Weekday) -> String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][(weekday - 1) % 7]
    }

    /// "07:30" for slot 15.
    public static func clock(minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}

/// What PRK-16 tells a user about one block.
public struct ScheduleAdvice: Hashable, Sendable {
    public enum Level: String, Sendable, CaseIterable {
        /// Typically below 85 % at the block's start.
        case green
        /// Typically 85 % or more at the block's start.
        case yellow
        /// The lot requires a permit the user lacks at some time of the block.
        case red
        /// No occupancy history for that time yet.
        case unknown
        /// No lot chosen.
        case none
    }

    public var level: Level
    public var reason: String
    public var typicalOccupancy: Double?
    /// When red: one of these is required.
    public var requiredPermits: Set<Permit>

    public init(level: Level, reason: String, typicalOccupancy: Double? = nil, requiredPermits: Set<Permit> = []) {
        self.level = level
        self.reason = reason
        self.typicalOccupancy = typicalOccupancy
        self.requiredPermits = requiredPermits
    }

    /// Order for a lot picker: usable first, then busy, then unknown, then not allowed.
    public var rank: Int {
        switch level {
        case .green: 0
        case .yellow: 1
        case .unknown: 2
        case .red: 3
        case .none: 4
        }
    }
}

public enum ScheduleAdvisor {
    /// SpotMe F6: a lot that is typically this full at the start of a block gets a warning.
    public static let busyThreshold = 0.85

    /// - Parameters:
    ///   - typical: the lot's 48 typical-occupancy values for the block's weekday (PRK-6).
    ///   - rules: the lot's permit rules; checked over the whole block, not just its start,
    ///     because a permit that becomes required at 08:00 matters to a 07:30–09:00 block.
    public static func advise(
        weekday: Weekday, startSlot: Int, endSlot: Int,
        rules: [PermitRule], typical: [Double?], permits: Set<Permit>, names: PermitNames
    ) -> ScheduleAdvice {
        let startMinute = startSlot * 30, endMinute = endSlot * 30
        // Requirements change only at slot starts or rule starts, so those are the minutes to check.
        var minutes = Set(stride(from: startMinute, to: endMinute, by: 30))
        for rule in rules where rule.startMinute > startMinute && rule.startMinute < endMinute {
            minutes.insert(rule.startMinute)
        }
        for minute in minutes.sorted() {
            if let required = PermitCheck.required(by: rules, weekday: weekday, minute: minute),
               required.isDisjoint(with: permits) {
                let need = required.isEmpty ? "The lot is closed to everyone" : "Needs a \(names.either(required)) permit"
                return ScheduleAdvice(
                    level: .red,
                    reason: "\(need) at \(WeeklySchedule.clock(minute: minute)) on \(WeeklySchedule.weekdayName(weekday)).",
                    requiredPermits: required)
            }
        }
        let at = WeeklySchedule.clock(minute: startMinute)
        guard typical.indices.contains(startSlot), let fraction = typical[startSlot] else {
            return ScheduleAdvice(level: .unknown, reason: "No occupancy history for \(at) yet.")
        }
        let percent = Int((fraction * 100).rounded())
        if fraction >= busyThreshold {
            return ScheduleAdvice(level: .yellow, reason: "Usually \(percent) % full at \(at): allow time to find a spot.", typicalOccupancy: fraction)
        }
        return ScheduleAdvice(level: .green, reason: "Usually \(percent) % full at \(at).", typicalOccupancy: fraction)
    }
}
