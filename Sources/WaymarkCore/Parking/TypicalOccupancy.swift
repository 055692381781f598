import Foundation

/// One PRK-6 congestion snapshot of a lot, taken at a site-local :00 or :30.
public struct OccupancySnapshot: Sendable, Hashable, Codable {
    public var at: Date
    /// Occupied including held and booked over capacity, 0...1 (`LotCounts.fraction`).
    public var fraction: Double

    public init(at: Date, fraction: Double) {
        self.at = at
        self.fraction = fraction
    }
}

/// The "typical congestion" dataset of PRK-6 (SpotMe 3.4): per local weekday and half hour, the
/// mean of the snapshots of the past four occurrences of that weekday and half hour.
public enum TypicalOccupancy {
    /// 48 values, one per local half hour (index = hour * 2 + minute / 30) of `weekday`
    /// (1 = Sunday … 7 = Saturday); nil where no snapshot exists.
    ///
    /// Window: a local slot counts when it started within the last `weeks` × 7 local days, i.e.
    /// its slot lies after `now`'s slot of the same weekday `weeks` weeks ago and at or before
    /// `now`'s slot. So each half hour averages its `weeks` most recent occurrences: today's
    /// only once that slot has begun, otherwise the one `weeks` weeks back takes its place.
    /// Snapshots after `now` are ignored. The window matches `HalfHourSlots.retentionCutoff`.
    ///
    /// - Every snapshot belongs to the local slot containing it, so a late job at 06:34 still
    ///   counts for 06:30.
    /// - Several snapshots in one local date and slot are first averaged into one value, so a
    ///   date never weighs more than another: duplicates from two server instances, and the two
    ///   01:00 and 01:30 readings of a fall-back day, whose wall clock passes those slots twice.
    /// - The mean is over the dates that have a value. A missing week (server down, lot new) is
    ///   left out rather than read as 0 %, which would make the lot look emptier than it is. A
    ///   spring-forward day has no 02:00 or 02:30 and is missing in the same way.
    public static func weekdayProfile(
        snapshots: [OccupancySnapshot],
        weekday: Weekday,
        timeZone: TimeZone,
        now: Date,
        weeks: Int = 4
    ) -> [Double?] {
        let perDay = HalfHourSlots.perDay
        guard weeks > 0, (1...7).contains(weekday) else { return Array(repeating: nil, count: perDay) }

        let newest = HalfHourSlots.slotOrdinal(of: now, timeZone: timeZone)
        let oldestExcluded = newest - weeks * 7 * perDay
        // Cheap prefilter before asking the zone for offsets: local time is within ±1 day of UTC.
        let earliest = now.addingTimeInterval(-Double(weeks * 7 + 2) * 86_400)

        var perDate: [Int: (sum: Double, count: Int)] = [:]
        for snapshot in snapshots where snapshot.at <= now && snapshot.at >= earliest {
            let ordinal = HalfHourSlots.slotOrdinal(of: snapshot.at, timeZone: timeZone)
            guard ordinal > oldestExcluded, ordinal <= newest,
                  HalfHourSlots.weekday(ofSlotOrdinal: ordinal) == weekday
            else { continue }
            perDate[ordinal, default: (0, 0)].sum += snapshot.fraction
            perDate[ordinal, default: (0, 0)].count += 1
        }

        var sums = [Double](repeating: 0, count: perDay)
        var counts = [Int](repeating: 0, count: perDay)
        for (ordinal, group) in perDate {
            let index = ((ordinal % perDay) + perDay) % perDay
            sums[index] += group.sum / Double(group.count)
            counts[index] += 1
        }
        return (0..<perDay).map { counts[$0] == 0 ? nil : sums[$0] / Double(counts[$0]) }
    }

    /// 24 values for the lot card's histogram by hour: the mean of the hour's two half hours,
    /// or the one present if the other is nil.
    public static func hourlyProfile(_ halfHours: [Double?]) -> [Double?] {
        (0..<24).map { hour in
            let values = [2 * hour, 2 * hour + 1]
                .compactMap { halfHours.indices.contains($0) ? halfHours[$0] : nil }
            return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
    }
}
