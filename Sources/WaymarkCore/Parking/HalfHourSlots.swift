import Foundation

/// Site-local half-hour slots of PRK-6 (SpotMe 3.4): congestion snapshots are taken at every
/// local X:00 and X:30, and the typical-congestion dataset is keyed by local weekday and slot.
///
/// All arithmetic runs on "wall-clock seconds": the instant plus the zone's UTC offset at that
/// instant, i.e. what a clock on the site's wall shows, counted from 1970-01-01 00:00 local.
/// Flooring those to 1 800 s gives a local :00/:30 for any offset, including the 30- and
/// 45-minute ones (Asia/Kolkata +5:30, Australia/Eucla +8:45) where a UTC-based floor would be
/// off by 15 minutes. Calendar is avoided because it resolves ambiguous wall times to the
/// second occurrence, which would drop data on fall-back days.
public enum HalfHourSlots {
    public static let length: TimeInterval = 1_800
    public static let perDay = 48

    /// PRK-6 keeps at most four weeks of history.
    public static let retention: TimeInterval = 28 * 86_400

    /// The latest instant at or before `instant` at which the site's wall clock shows :00 or :30.
    public static func slotStart(containing instant: Date, timeZone: TimeZone) -> Date {
        var probe = instant
        // Real zones change offset only on a slot boundary, so the first pass answers. The loop
        // covers historical changes inside a slot (Asia/Kathmandu 1986, +5:30 → +5:45 at
        // 00:00): the boundary then lies before the change, under the older offset.
        for _ in 0..<3 {
            let offset = utcOffset(at: probe, timeZone)
            let start = Date(timeIntervalSince1970: floorToSlot(probe.timeIntervalSince1970 + offset) - offset)
            guard utcOffset(at: start, timeZone) != offset,
                  let change = timeZone.nextDaylightSavingTimeTransition(after: start),
                  change <= probe
            else { return start }
            // The wall clock never shows the old offset's reading at `change` itself.
            probe = change.addingTimeInterval(-0.001)
        }
        return Date(timeIntervalSince1970: floorToSlot(wallClock(of: probe, timeZone)) - utcOffset(at: probe, timeZone))
    }

    /// The earliest instant strictly after `instant` at which the site's wall clock shows :00 or :30.
    /// Across a spring-forward gap that is the first boundary after the jump (03:00, not 02:00);
    /// across a fall-back the repeated 01:00 and 01:30 are boundaries again.
    public static func nextSlot(after instant: Date, timeZone: TimeZone) -> Date {
        var from = instant
        var offset = utcOffset(at: instant, timeZone)
        var next = floorToSlot(instant.timeIntervalSince1970 + offset) + length - offset
        for _ in 0..<3 {
            let candidate = Date(timeIntervalSince1970: next)
            guard utcOffset(at: candidate, timeZone) != offset,
                  let change = timeZone.nextDaylightSavingTimeTransition(after: from),
                  change <= candidate
            else { return candidate }
            // The offset changed before the boundary was reached: the answer is the first
            // boundary at or after the change, read with the new offset.
            from = change
            offset = utcOffset(at: change, timeZone)
            next = ceilToSlot(change.timeIntervalSince1970 + offset) - offset
        }
        return Date(timeIntervalSince1970: next)
    }

    /// The site-local weekday (1 = Sunday … 7 = Saturday) and slot index 0...47 (hour * 2 +
    /// minute / 30) of the wall clock at `instant`. Both 01:00 readings of a fall-back day
    /// share one slot, which is what lets the profile count that day once.
    public static func localSlot(of instant: Date, timeZone: TimeZone) -> (weekday: Weekday, index: Int) {
        let ordinal = slotOrdinal(of: instant, timeZone: timeZone)
        return (weekday(ofSlotOrdinal: ordinal), mod(ordinal, perDay))
    }

    /// Snapshots taken before this instant may be deleted. Retention is counted in local
    /// calendar days, not 28 × 24 h, so that it matches the profile window exactly: across a
    /// fall-back four local weeks last 28 days and one hour, and a cut-off at `now − retention`
    /// would already have deleted the oldest slot a profile still averages. The cut-off is the
    /// start of the slot after `now`'s, four local weeks earlier (its first occurrence if the
    /// wall time repeats, the end of the jump if it does not exist).
    public static func retentionCutoff(now: Date, timeZone: TimeZone) -> Date {
        let days = Int((retention / 86_400).rounded())
        let oldestKept = slotOrdinal(of: now, timeZone: timeZone) + 1 - days * perDay
        return firstInstant(atOrAfterWallClock: Double(oldestKept) * length, timeZone: timeZone)
    }

    // MARK: - Wall-clock arithmetic shared with TypicalOccupancy

    /// Local slots counted from 1970-01-01 00:00 local: day * 48 + index. Consecutive local days
    /// differ by exactly 48 whatever their length in UTC, which makes "the last four weeks" a
    /// plain subtraction.
    static func slotOrdinal(of instant: Date, timeZone: TimeZone) -> Int {
        Int((wallClock(of: instant, timeZone) / length).rounded(.down))
    }

    static func weekday(ofSlotOrdinal ordinal: Int) -> Weekday {
        let day = Int((Double(ordinal) / Double(perDay)).rounded(.down))
        // 1970-01-01 was a Thursday (5).
        return mod(day + 4, 7) + 1
    }

    private static func utcOffset(at instant: Date, _ timeZone: TimeZone) -> TimeInterval {
        TimeInterval(timeZone.secondsFromGMT(for: instant))
    }

    private static func wallClock(of instant: Date, _ timeZone: TimeZone) -> TimeInterval {
        instant.timeIntervalSince1970 + utcOffset(at: instant, timeZone)
    }

    private static func floorToSlot(_ seconds: TimeInterval) -> TimeInterval {
        (seconds / length).rounded(.down) * length
    }

    private static func ceilToSlot(_ seconds: TimeInterval) -> TimeInterval {
        (seconds / length).rounded(.up) * length
    }

    private static func mod(_ a: Int, _ n: Int) -> Int {
        ((a % n) + n) % n
    }

    /// The earliest instant whose wall clock shows `wall` or later. Assumes at most one offset
    /// change within a day of it, which holds for every zone in use.
    private static func firstInstant(atOrAfterWallClock wall: TimeInterval, timeZone: TimeZone) -> Date {
        let before = utcOffset(at: Date(timeIntervalSince1970: wall - 86_400), timeZone)
        let after = utcOffset(at: Date(timeIntervalSince1970: wall + 86_400), timeZone)
        let readings = [before, after]
            .map { Date(timeIntervalSince1970: wall - $0) }
            .filter { wallClock(of: $0, timeZone) == wall }
        // Both read `wall` on a fall-back: keep from the first reading on.
        if let first = readings.min() { return first }
        // `wall` falls in a spring-forward gap: the clock passes it at the change.
        let lastBeforeGap = Date(timeIntervalSince1970: wall - after)
        return timeZone.nextDaylightSavingTimeTransition(after: lastBeforeGap)
            ?? Date(timeIntervalSince1970: wall - before)
    }
}
