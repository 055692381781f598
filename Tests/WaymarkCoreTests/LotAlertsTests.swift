import Testing
@testable import WaymarkCore

@Suite("Lot alerts for watched lots (PRK-15)")
struct LotAlertsTests {
    /// A 20-spot lot with `taken` occupied and the rest free.
    func lot(_ taken: Int, of total: Int = 20, unknown: Int = 0) -> LotCounts {
        LotCounts(free: total - taken - unknown, occupied: taken, unknown: unknown)
    }

    /// Walks the lot through `takens` and returns what was announced on the way.
    func announcements(_ takens: [Int], from start: LotAlertLevel = .clear) -> [LotAlertLevel] {
        var level = start
        var said: [LotAlertLevel] = []
        for taken in takens {
            let step = LotAlerts.next(after: level, counts: lot(taken))
            level = step.level
            if let a = step.announce { said.append(a) }
        }
        return said
    }

    @Test("PRK-15 almost full is announced once when the lot reaches 85 %, full once when no spot is free")
    func thresholds() {
        #expect(LotAlerts.next(after: .clear, counts: lot(16)) == .init(level: .clear), "80 % is not almost full")
        #expect(LotAlerts.next(after: .clear, counts: lot(17)) == .init(level: .almostFull, announce: .almostFull))
        #expect(LotAlerts.next(after: .almostFull, counts: lot(19)) == .init(level: .almostFull))
        #expect(LotAlerts.next(after: .almostFull, counts: lot(20)) == .init(level: .full, announce: .full))
        #expect(LotAlerts.next(after: .clear, counts: lot(20)) == .init(level: .full, announce: .full), "a jump to full says full only")
        #expect(LotAlerts.next(after: .full, counts: lot(20)) == .init(level: .full))
        #expect(announcements(Array(0...20)) == [.almostFull, .full])
    }

    @Test("PRK-15 hysteresis: a lot hovering at a threshold does not flap; alerts re-arm only after it empties")
    func hysteresis() {
        // Around 85 %: announced once, not again until it went below 80 %.
        #expect(announcements([17, 16, 17, 16, 17]) == [.almostFull])
        #expect(announcements([17, 15, 17]) == [.almostFull, .almostFull])
        // Around full: one spot freed and taken again is not a new "full".
        #expect(announcements([20, 19, 20, 19, 20]) == [.full])
        // Below 85 % re-arms "full" (but not "almost full").
        #expect(announcements([20, 16, 17, 20]) == [.full, .full])
        #expect(LotAlerts.next(after: .full, counts: lot(16)) == .init(level: .almostFull))
        #expect(LotAlerts.next(after: .full, counts: lot(10)) == .init(level: .clear))
    }

    @Test("PRK-15 full means no free spot; spots without a sensor report and empty lots are never full")
    func edges() {
        #expect(!LotAlerts.isFull(lot(18, unknown: 2)), "unknown spots may be free")
        #expect(LotAlerts.next(after: .clear, counts: lot(18, unknown: 2)) == .init(level: .almostFull, announce: .almostFull))
        #expect(LotAlerts.next(after: .clear, counts: LotCounts(closed: 5)) == .init(level: .clear))
        #expect(LotAlerts.next(after: .full, counts: LotCounts()) == .init(level: .full), "an emptied-out lot keeps its level")
        let heldAndBooked = LotCounts(free: 0, occupied: 5, held: 3, booked: 2)
        #expect(LotAlerts.next(after: .clear, counts: heldAndBooked).announce == .full, "held and booked spots are not free")
    }
}
