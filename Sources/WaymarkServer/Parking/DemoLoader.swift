import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Loads the demo site (California State University, Fullerton) once: lots, spots with plausible
/// states for the current time of day, and four weeks of half-hourly history drawn from the
/// same campus-day model, so that the typical-occupancy charts have something to show at once.
struct DemoLoader: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let logger: Logger
    var plan: SitePlan = DemoCampus.fullerton
    /// With false, spots start unknown (as after installing sensors) and there is no history.
    var synthesizeActivity = true

    /// Returns the site id, new or existing.
    @discardableResult
    func loadIfMissing() async throws -> String {
        if let row = try await store.sql.raw("SELECT id FROM sites WHERE code = \(bind: plan.code)").first() {
            return try row.decode(column: "id", as: String.self)
        }
        let plan = self.plan
        let instant = now()
        let activity = synthesizeActivity
        let siteId = try await store.write { sql in
            try await Self.insert(plan, activity: activity, at: instant, sql: sql)
        }
        logger.info("loaded demo site", metadata: ["site": .string(plan.name), "lots": .stringConvertible(plan.lots.count)])
        return siteId
    }

    private static func insert(_ plan: SitePlan, activity: Bool, at instant: Date, sql: any SQLDatabase) async throws -> String {
        guard let zone = TimeZone(identifier: plan.timeZone) else { throw Problem.badRequest("Unknown time zone \(plan.timeZone)") }
        let siteId = UUID().uuidString.lowercased()
        try await SiteRowsWriter.insertSite(plan, id: siteId, at: instant, sql: sql)

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let weekday = calendar.component(.weekday, from: instant)
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let minute = Double((parts.hour ?? 0) * 60 + (parts.minute ?? 0))
        var rng = SplitMix64(seed: 0x5EED_CA5E)

        for (index, lot) in plan.lots.enumerated() {
            let lotId = UUID().uuidString.lowercased()
            let spots = SpotLayout.spots(for: lot, siteCode: plan.code)
            let states = activity
                ? CampusDaySimulator.initialStates(for: lot, lotIndex: index, weekday: weekday, minuteOfDay: minute, rng: &rng)
                : Array(repeating: SpotState.unknown, count: spots.count)
            let counts = LotCounts(states: states)
            try await SiteRowsWriter.insertLot(lot, id: lotId, siteId: siteId, position: index, capacity: spots.count, counts: counts,
                                               at: instant, sql: sql)
            try await SiteRowsWriter.insertSpots(zip(spots, states).map { (UUID().uuidString.lowercased(), $0, $1) }, lotId: lotId, sql: sql)

            // Four weeks of history at every site-local :00 and :30.
            var history: [SQLQueryString] = []
            var slot = HalfHourSlots.slotStart(containing: instant.addingTimeInterval(-HalfHourSlots.retention), timeZone: zone)
            let total = counts.total
            while activity, slot < instant {
                let local = HalfHourSlots.localSlot(of: slot, timeZone: zone)
                let target = CampusDay.targetFraction(kind: lot.kind, lotIndex: index, weekday: local.weekday, minuteOfDay: Double(local.index * 30))
                let noisy = min(1, max(0, target + Double.random(in: -0.04...0.04, using: &rng)))
                history.append("(\(bind: lotId), \(bind: slot.millis), \(bind: Int((noisy * Double(total)).rounded())), \(bind: total))")
                slot = HalfHourSlots.nextSlot(after: slot, timeZone: zone)
            }
            for chunk in history.chunked(500) {
                try await sql.raw("INSERT INTO occupancy_snapshots (lot_id, slot_start, taken, total) VALUES \(Array(chunk).joined(separator: ", "))").run()
            }
        }
        return siteId
    }
}

/// The stored JSON of permit rules and hours is the API's shape: sorted arrays, not sets.
struct StoredPermitRule: Codable {
    var weekdays: [Int]
    var startMinute: Int
    var endMinute: Int
    var permits: [String]

    init(_ r: PermitRule) {
        weekdays = r.weekdays.sorted()
        startMinute = r.startMinute
        endMinute = r.endMinute
        permits = r.permits.sorted().map(\.rawValue)
    }

    var rule: PermitRule {
        PermitRule(weekdays: Set(weekdays), startMinute: startMinute, endMinute: endMinute,
                   permits: Set(permits.compactMap(Permit.init(rawValue:))))
    }

    /// A lot's `permit_rules` column.
    static func rules(_ json: String) throws -> [PermitRule] {
        try JSONColumn.decode([StoredPermitRule].self, json).map(\.rule)
    }
}

struct StoredOpeningHours: Codable {
    var weekdays: [Int]
    var openMinute: Int
    var closeMinute: Int

    init(_ h: OpeningHours) {
        weekdays = h.weekdays.sorted()
        openMinute = h.openMinute
        closeMinute = h.closeMinute
    }

    var openingHours: OpeningHours { OpeningHours(weekdays: Set(weekdays), openMinute: openMinute, closeMinute: closeMinute) }
}
