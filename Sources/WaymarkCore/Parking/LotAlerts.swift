/// "Lot almost full / full" for watched lots (PRK-15). The level is what has been announced,
/// not the lot's colour: an announcement is re-armed only once the lot has clearly emptied
/// again, so a lot hovering around a threshold does not notify on every car.
public enum LotAlertLevel: String, CaseIterable, Codable, Sendable {
    /// Nothing announced; both alerts armed.
    case clear
    /// "Almost full" announced; "full" still armed.
    case almostFull = "almost-full"
    /// "Full" announced; nothing armed.
    case full
}

public enum LotAlerts {
    /// "Almost full" matches the red congestion level.
    public static let almostFullFrom = CongestionLevel.redFrom
    /// "Almost full" is announced again only after the lot went below this.
    public static let rearmBelow = 0.80

    public struct Step: Hashable, Sendable {
        public var level: LotAlertLevel
        /// What to tell watchers now, if anything.
        public var announce: LotAlertLevel?

        public init(level: LotAlertLevel, announce: LotAlertLevel? = nil) {
            self.level = level
            self.announce = announce
        }
    }

    /// Full means no spot that may be free: a spot whose sensor has not reported may be, and a
    /// lot without usable spots is never announced.
    public static func isFull(_ counts: LotCounts) -> Bool { counts.total > 0 && counts.free == 0 && counts.unknown == 0 }

    /// The next level after the lot's counts changed. "Full" re-arms when the lot is below
    /// "almost full" again (two or more spots freed in a small lot), "almost full" below 80 %.
    public static func next(after current: LotAlertLevel, counts: LotCounts) -> Step {
        guard counts.total > 0 else { return Step(level: current) }
        let fraction = counts.fraction
        if isFull(counts) {
            return current == .full ? Step(level: .full) : Step(level: .full, announce: .full)
        }
        if fraction < rearmBelow { return Step(level: .clear) }
        switch current {
        case .clear:
            return fraction >= almostFullFrom ? Step(level: .almostFull, announce: .almostFull) : Step(level: .clear)
        case .almostFull:
            return Step(level: .almostFull)
        case .full:
            return fraction < almostFullFrom ? Step(level: .almostFull) : Step(level: .full)
        }
    }
}
