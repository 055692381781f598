import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Half-hourly occupancy snapshots (PRK-6) and the retention of snapshots and live events.
/// Safe on several instances at once: a snapshot is keyed by lot and slot, so the second
/// writer's insert does nothing.
struct SnapshotJob: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let liveRetention: TimeInterval
    let logger: Logger

    /// Snapshots every lot of every site whose current half-hour slot has none yet. The slot
    /// start is recorded, not the moment of writing, so a late run still lands in its slot.
    func takeSnapshots(at instant: Date) async throws {
        let sites = try await store.sql.raw("SELECT id, time_zone FROM sites").all()
        for site in sites {
            let siteId = try site.decode(column: "id", as: String.self)
            guard let zone = TimeZone(identifier: try site.decode(column: "time_zone", as: String.self)) else { continue }
            let slot = HalfHourSlots.slotStart(containing: instant, timeZone: zone)
            try await store.write { sql in
                try await sql.raw("""
                    INSERT INTO occupancy_snapshots (lot_id, slot_start, taken, total)
                    SELECT id, \(bind: slot.millis), count_o + count_h + count_b, count_f + count_o + count_h + count_b + count_u
                    FROM lots WHERE site_id = \(bind: siteId)
                    ON CONFLICT (lot_id, slot_start) DO NOTHING
                    """).run()
            }
        }
    }

    func applyRetention(at instant: Date) async throws {
        try await store.write { sql in
            try await sql.raw("DELETE FROM occupancy_snapshots WHERE slot_start < \(bind: HalfHourSlots.retentionCutoff(now: instant, timeZone: .gmt).addingTimeInterval(-86_400).millis)").run()
            try await EventLog.trim(before: instant.addingTimeInterval(-liveRetention), sql: sql)
        }
    }

    /// The earliest next :00/:30 over all sites' time zones.
    func nextRun(after instant: Date) async throws -> Date {
        let zones = try await store.sql.raw("SELECT DISTINCT time_zone FROM sites").all()
            .compactMap { TimeZone(identifier: try $0.decode(column: "time_zone", as: String.self)) }
        return zones.map { HalfHourSlots.nextSlot(after: instant, timeZone: $0) }.min()
            ?? instant.addingTimeInterval(1800)
    }

    /// Runs until cancelled: a snapshot at start (in case the server was down at the boundary)
    /// and at every boundary after, retention each time.
    func run() async {
        var lastError: Date?
        while !Task.isCancelled {
            do {
                let t = now()
                try await takeSnapshots(at: t)
                try await applyRetention(at: t)
                let next = try await nextRun(after: t)
                // Sleep in real time; a second late is fine, never early.
                try await Task.sleep(for: .seconds(max(1, next.timeIntervalSince(now()) + 1)))
            } catch is CancellationError {
                return
            } catch {
                if lastError.map({ now().timeIntervalSince($0) > 300 }) ?? true {
                    logger.error("snapshot job failed", metadata: ["error": .string("\(error)")])
                    lastError = now()
                }
                try? await Task.sleep(for: .seconds(30))
            }
        }
    }
}
