import Foundation
import Testing
@testable import WaymarkCore

// PRK-6 (SpotMe 3.4): typical congestion from four weeks of half-hourly, site-local snapshots.

private let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
private let kolkata = TimeZone(identifier: "Asia/Kolkata")!
private let eucla = TimeZone(identifier: "Australia/Eucla")!
private let kathmandu = TimeZone(identifier: "Asia/Kathmandu")!

private func utc(_ iso: String) -> Date {
    let formatter = ISO8601DateFormatter()
    guard let date = formatter.date(from: iso) else { fatalError("bad test date \(iso)") }
    return date
}

/// What the snapshot job produces: one instant per local slot from `start` (a slot boundary)
/// up to, not including, `end`.
private func slotInstants(from start: Date, to end: Date, in timeZone: TimeZone) -> [Date] {
    var instants: [Date] = []
    var t = start
    while t < end {
        instants.append(t)
        t = HalfHourSlots.nextSlot(after: t, timeZone: timeZone)
    }
    return instants
}

private func onlyIndex(_ profile: [Double?]) -> [Int] {
    profile.indices.filter { profile[$0] != nil }
}

// 2026-06-01, 08, 15, 22, 29 are Mondays; Los Angeles is on PDT (UTC−7), so 06:30 local is 13:30Z.
private let mondays0630 = ["2026-06-01", "2026-06-08", "2026-06-15", "2026-06-22", "2026-06-29"]
    .map { utc("\($0)T13:30:00Z") }
private let tuesdayAfter = utc("2026-06-23T19:00:00Z")

// MARK: - Slots

@Test func prk6SlotStartRoundsDownToLocalHalfHour() {
    #expect(HalfHourSlots.slotStart(containing: utc("2026-06-08T13:44:59Z"), timeZone: losAngeles) == utc("2026-06-08T13:30:00Z"))
    #expect(HalfHourSlots.slotStart(containing: utc("2026-06-08T13:30:00Z"), timeZone: losAngeles) == utc("2026-06-08T13:30:00Z"))
    #expect(HalfHourSlots.slotStart(containing: utc("2026-06-08T13:30:00Z").addingTimeInterval(-0.001), timeZone: losAngeles) == utc("2026-06-08T13:00:00Z"))
}

@Test func prk6SlotStartInHalfAndQuarterHourZones() {
    // 00:50Z is 06:20 IST (+5:30): slot 06:00 IST = 00:30Z.
    #expect(HalfHourSlots.slotStart(containing: utc("2026-06-08T00:50:00Z"), timeZone: kolkata) == utc("2026-06-08T00:30:00Z"))
    #expect(HalfHourSlots.localSlot(of: utc("2026-06-08T00:50:00Z"), timeZone: kolkata) == (weekday: 2, index: 12))
    // 00:00Z is 08:45 in Eucla (+8:45): slot 08:30 local = 23:45Z the day before, not 00:00Z.
    #expect(HalfHourSlots.slotStart(containing: utc("2026-06-08T00:00:00Z"), timeZone: eucla) == utc("2026-06-07T23:45:00Z"))
    #expect(HalfHourSlots.nextSlot(after: utc("2026-06-08T00:00:00Z"), timeZone: eucla) == utc("2026-06-08T00:15:00Z"))
    #expect(HalfHourSlots.localSlot(of: utc("2026-06-08T00:00:00Z"), timeZone: eucla) == (weekday: 2, index: 17))
}

@Test func prk6SlotStartWhenTheOffsetChangedInsideASlot() {
    // Kathmandu moved from +5:30 to +5:45 at 1986-01-01 00:00 (18:30Z): at 00:20 +5:45 the
    // clock has not shown :00 or :30 since 23:30 +5:30.
    #expect(HalfHourSlots.slotStart(containing: utc("1985-12-31T18:35:00Z"), timeZone: kathmandu) == utc("1985-12-31T18:00:00Z"))
    #expect(HalfHourSlots.nextSlot(after: utc("1985-12-31T18:20:00Z"), timeZone: kathmandu) == utc("1985-12-31T18:45:00Z"))
}

@Test func prk6NextSlotAcrossMidnight() {
    // 23:45 PDT on Sunday 2026-06-07 → 00:00 Monday.
    let next = HalfHourSlots.nextSlot(after: utc("2026-06-08T06:45:00Z"), timeZone: losAngeles)
    #expect(next == utc("2026-06-08T07:00:00Z"))
    #expect(HalfHourSlots.localSlot(of: next, timeZone: losAngeles) == (weekday: 2, index: 0))
    // Strictly after: a boundary is not its own next slot.
    #expect(HalfHourSlots.nextSlot(after: next, timeZone: losAngeles) == utc("2026-06-08T07:30:00Z"))
}

@Test func prk6NextSlotAcrossSpringForward() {
    // 2026-03-08: 01:59:59 PST is followed by 03:00 PDT (10:00Z).
    #expect(HalfHourSlots.nextSlot(after: utc("2026-03-08T09:45:00Z"), timeZone: losAngeles) == utc("2026-03-08T10:00:00Z"))
    #expect(HalfHourSlots.nextSlot(after: utc("2026-03-08T09:30:00Z"), timeZone: losAngeles) == utc("2026-03-08T10:00:00Z"))
    #expect(HalfHourSlots.localSlot(of: utc("2026-03-08T10:00:00Z"), timeZone: losAngeles) == (weekday: 1, index: 6))
    #expect(HalfHourSlots.slotStart(containing: utc("2026-03-08T10:10:00Z"), timeZone: losAngeles) == utc("2026-03-08T10:00:00Z"))
    let day = slotInstants(from: utc("2026-03-08T08:00:00Z"), to: utc("2026-03-09T07:00:00Z"), in: losAngeles)
    #expect(day.count == 46)
}

@Test func prk6NextSlotAcrossFallBack() {
    // 2026-11-01: 01:00 and 01:30 happen in PDT (08:00Z, 08:30Z) and again in PST (09:00Z, 09:30Z).
    #expect(HalfHourSlots.nextSlot(after: utc("2026-11-01T08:45:00Z"), timeZone: losAngeles) == utc("2026-11-01T09:00:00Z"))
    #expect(HalfHourSlots.nextSlot(after: utc("2026-11-01T09:00:00Z"), timeZone: losAngeles) == utc("2026-11-01T09:30:00Z"))
    #expect(HalfHourSlots.nextSlot(after: utc("2026-11-01T09:30:00Z"), timeZone: losAngeles) == utc("2026-11-01T10:00:00Z"))
    #expect(HalfHourSlots.slotStart(containing: utc("2026-11-01T09:10:00Z"), timeZone: losAngeles) == utc("2026-11-01T09:00:00Z"))
    #expect(HalfHourSlots.slotStart(containing: utc("2026-11-01T08:10:00Z"), timeZone: losAngeles) == utc("2026-11-01T08:00:00Z"))
    #expect(HalfHourSlots.localSlot(of: utc("2026-11-01T08:00:00Z"), timeZone: losAngeles) == (weekday: 1, index: 2))
    #expect(HalfHourSlots.localSlot(of: utc("2026-11-01T09:00:00Z"), timeZone: losAngeles) == (weekday: 1, index: 2))
    let day = slotInstants(from: utc("2026-11-01T07:00:00Z"), to: utc("2026-11-02T08:00:00Z"), in: losAngeles)
    #expect(day.count == 50)
    let ordinary = slotInstants(from: utc("2026-06-08T07:00:00Z"), to: utc("2026-06-09T07:00:00Z"), in: losAngeles)
    #expect(ordinary.count == 48)
}

@Test func prk6RetentionCutoffIsFourLocalWeeks() {
    #expect(HalfHourSlots.retention == 28 * 86_400)
    // Monday 06:40 PDT: everything from the slot after it (07:00) four Mondays ago is kept.
    #expect(HalfHourSlots.retentionCutoff(now: utc("2026-06-29T13:40:00Z"), timeZone: losAngeles) == utc("2026-06-01T14:00:00Z"))
    // 01:10 PST on 2026-11-29: four weeks back 01:30 happened twice; keep both readings.
    #expect(HalfHourSlots.retentionCutoff(now: utc("2026-11-29T09:10:00Z"), timeZone: losAngeles) == utc("2026-11-01T08:30:00Z"))
    // 01:40 PDT on 2026-04-05: four weeks back 02:00 did not exist; keep from 03:00 PDT.
    #expect(HalfHourSlots.retentionCutoff(now: utc("2026-04-05T08:40:00Z"), timeZone: losAngeles) == utc("2026-03-08T10:00:00Z"))
}

// MARK: - Weekday profile

@Test func prk6MeanOfFourMondays() {
    let snapshots = zip(mondays0630.prefix(4), [0.25, 0.5, 0.75, 1.0]).map { OccupancySnapshot(at: $0, fraction: $1) }
    let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 2, timeZone: losAngeles, now: tuesdayAfter)
    #expect(profile.count == 48)
    #expect(profile[13] == 0.625)
    #expect(onlyIndex(profile) == [13])
    // Another weekday sees none of them.
    #expect(onlyIndex(TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 3, timeZone: losAngeles, now: tuesdayAfter)) == [])
}

@Test func prk6OnlyTheLastFourWeeksCount() {
    let older = OccupancySnapshot(at: utc("2026-05-25T13:30:00Z"), fraction: 0)
    let recent = zip(mondays0630.prefix(4), [0.25, 0.5, 0.75, 1.0]).map { OccupancySnapshot(at: $0, fraction: $1) }
    let profile = TypicalOccupancy.weekdayProfile(snapshots: [older] + recent, weekday: 2, timeZone: losAngeles, now: tuesdayAfter)
    #expect(profile[13] == 0.625)
    #expect(TypicalOccupancy.weekdayProfile(snapshots: [older] + recent, weekday: 2, timeZone: losAngeles, now: tuesdayAfter, weeks: 5)[13] == 0.5)
}

@Test func prk6TodayCountsOnlyOnceItsSlotHasBegun() {
    let all = zip(mondays0630, [0.25, 0.5, 0.75, 1.0, 0.0]).map { OccupancySnapshot(at: $0, fraction: $1) }
    // Monday 06:29:59: today's 06:30 has not begun, so 06-01 … 06-22 are the four.
    #expect(TypicalOccupancy.weekdayProfile(snapshots: all, weekday: 2, timeZone: losAngeles, now: utc("2026-06-29T13:29:59Z"))[13] == 0.625)
    // Monday 06:30: today replaces 06-01.
    #expect(TypicalOccupancy.weekdayProfile(snapshots: all, weekday: 2, timeZone: losAngeles, now: utc("2026-06-29T13:30:00Z"))[13] == 0.5625)
}

@Test func prk6MissingWeeksAreLeftOutNotZero() {
    let snapshots = [
        OccupancySnapshot(at: mondays0630[1], fraction: 0.5),
        OccupancySnapshot(at: mondays0630[3], fraction: 1.0),
    ]
    let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 2, timeZone: losAngeles, now: tuesdayAfter)
    #expect(profile[13] == 0.75)
    #expect(profile[12] == nil)
}

@Test func prk6SpringForwardDayHasNoTwoOClock() {
    // Sundays 2026-03-01 … 03-22, a full day of snapshots each; 03-08 loses 02:00 and 02:30.
    let days: [(start: String, end: String, fraction: Double)] = [
        ("2026-03-01T08:00:00Z", "2026-03-02T08:00:00Z", 0.25),
        ("2026-03-08T08:00:00Z", "2026-03-09T07:00:00Z", 0.5),
        ("2026-03-15T07:00:00Z", "2026-03-16T07:00:00Z", 0.75),
        ("2026-03-22T07:00:00Z", "2026-03-23T07:00:00Z", 1.0),
    ]
    let snapshots = days.flatMap { day in
        slotInstants(from: utc(day.start), to: utc(day.end), in: losAngeles).map { OccupancySnapshot(at: $0, fraction: day.fraction) }
    }
    #expect(snapshots.count == 48 * 3 + 46)
    let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 1, timeZone: losAngeles, now: utc("2026-03-23T19:00:00Z"))
    #expect(profile[3] == 0.625)
    #expect(profile[4] == 2.0 / 3.0)
    #expect(profile[5] == 2.0 / 3.0)
    #expect(profile[6] == 0.625)
    #expect(onlyIndex(profile).count == 48)
}

@Test func prk6FallBackDayCountsOnce() {
    // Sundays 2026-11-01 … 11-22 at 50 % all day, except that 11-01's second 01:00 and 01:30
    // (PST) read 100 %. That date's 01:00 is (50 + 100) / 2 = 75 %, weighed like any other date.
    let days = [
        ("2026-11-01T07:00:00Z", "2026-11-02T08:00:00Z"),
        ("2026-11-08T08:00:00Z", "2026-11-09T08:00:00Z"),
        ("2026-11-15T08:00:00Z", "2026-11-16T08:00:00Z"),
        ("2026-11-22T08:00:00Z", "2026-11-23T08:00:00Z"),
    ]
    let secondReadings: Set<Date> = [utc("2026-11-01T09:00:00Z"), utc("2026-11-01T09:30:00Z")]
    let snapshots = days.flatMap { day in
        slotInstants(from: utc(day.0), to: utc(day.1), in: losAngeles).map {
            OccupancySnapshot(at: $0, fraction: secondReadings.contains($0) ? 1.0 : 0.5)
        }
    }
    #expect(snapshots.count == 50 + 48 * 3)
    let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 1, timeZone: losAngeles, now: utc("2026-11-23T20:00:00Z"))
    #expect(profile[2] == 0.5625)
    #expect(profile[3] == 0.5625)
    #expect(profile[1] == 0.5)
    #expect(profile[4] == 0.5)
}

@Test func prk6LateSnapshotBelongsToItsSlot() {
    let snapshots = [
        OccupancySnapshot(at: utc("2026-06-08T13:44:00Z"), fraction: 0.5),  // 06:44, job ran late
        OccupancySnapshot(at: utc("2026-06-15T13:59:59Z"), fraction: 0.25), // 06:59:59
        OccupancySnapshot(at: mondays0630[3], fraction: 1.0),
    ]
    #expect(HalfHourSlots.localSlot(of: snapshots[0].at, timeZone: losAngeles) == (weekday: 2, index: 13))
    let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 2, timeZone: losAngeles, now: tuesdayAfter)
    #expect(profile[13] == 1.75 / 3) // (0.5 + 0.25 + 1.0) / 3
    #expect(onlyIndex(profile) == [13])
}

@Test func prk6DuplicateSnapshotsCountOnce() {
    // Two server instances both snapshotted 2026-06-08 06:30 (0 % and 100 %, averaged to 50 %).
    let snapshots = [
        OccupancySnapshot(at: mondays0630[1], fraction: 0.0),
        OccupancySnapshot(at: mondays0630[1].addingTimeInterval(2), fraction: 1.0),
        OccupancySnapshot(at: mondays0630[2], fraction: 0.25),
    ]
    let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 2, timeZone: losAngeles, now: tuesdayAfter)
    #expect(profile[13] == 0.375)
}

@Test func prk6FutureSnapshotsAndBadInputAreIgnored() {
    let snapshots = [OccupancySnapshot(at: mondays0630[4], fraction: 1.0)]
    #expect(onlyIndex(TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 2, timeZone: losAngeles, now: tuesdayAfter)) == [])
    #expect(TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 8, timeZone: losAngeles, now: utc("2026-07-01T00:00:00Z")).count == 48)
    #expect(onlyIndex(TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: 8, timeZone: losAngeles, now: utc("2026-07-01T00:00:00Z"))) == [])
}

@Test func prk6HourlyProfile() {
    var halfHours = [Double?](repeating: nil, count: 48)
    halfHours[0] = 0.25; halfHours[1] = 0.75  // both → mean
    halfHours[3] = 1.0                        // one → itself
    halfHours[47] = 0.5
    let hourly = TypicalOccupancy.hourlyProfile(halfHours)
    #expect(hourly.count == 24)
    #expect(hourly[0] == 0.5)
    #expect(hourly[1] == 1.0)
    #expect(hourly[2] == nil)
    #expect(hourly[23] == 0.5)
    #expect(hourly.compactMap { $0 }.count == 3)
}
