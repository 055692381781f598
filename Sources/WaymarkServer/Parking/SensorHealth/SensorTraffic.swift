import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import WaymarkCore

/// Counts each gateway's reports per site and hour, and keeps the newest vitals per sensor, in
/// memory beside the ingest; a job writes them every few seconds. The ingest's own commit stays
/// as it was: a busy campus sends thousands of reports a minute, and one more row per report
/// would cost more than the reports themselves. Several instances each add their own counts.
final class SensorTraffic: Sendable {
    struct Key: Hashable {
        var gatewayId: String
        var siteId: String
        var hour: Int64
    }

    struct Counts {
        var batches = 0, events = 0, accepted = 0, rejected = 0
        var lastAt: Int64 = 0

        mutating func add(_ c: Counts) {
            batches += c.batches; events += c.events; accepted += c.accepted; rejected += c.rejected
            lastAt = max(lastAt, c.lastAt)
        }
    }

    private struct Pending {
        var traffic: [Key: Counts] = [:]
        var vitals: [String: (SensorVitals, Int64)] = [:]
    }

    private let pending = NIOLockedValueBox(Pending())
    let store: SQLStore
    let now: @Sendable () -> Date

    init(store: SQLStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// One request of a gateway: its reports, where each went, what became of it, and the
    /// vitals some of them carried.
    func note(gatewayId: String?, spots: [SpotRef?], outcomes: [IngestOutcome], vitals: [(sensorId: String, vitals: SensorVitals)]) {
        let at = now().millis
        let hour = at - at % 3_600_000
        var perSite: [String: Counts] = [:]
        if let gatewayId {
            for (ref, outcome) in zip(spots, outcomes) {
                guard let ref else { continue }
                var c = perSite[ref.siteId] ?? Counts()
                c.events += 1
                if outcome == .accepted { c.accepted += 1 } else if outcome != .duplicate { c.rejected += 1 }
                perSite[ref.siteId] = c
            }
        }
        guard !perSite.isEmpty || !vitals.isEmpty else { return }
        pending.withLockedValue { p in
            for (site, c) in perSite {
                let key = Key(gatewayId: gatewayId ?? "", siteId: site, hour: hour)
                var total = p.traffic[key] ?? Counts()
                total.batches += 1
                total.events += c.events
                total.accepted += c.accepted
                total.rejected += c.rejected
                total.lastAt = at
                p.traffic[key] = total
            }
            for v in vitals { p.vitals[v.sensorId] = (v.vitals, at) }
        }
    }

    /// Writes what was counted since the last flush; counts taken while it runs wait for the next.
    func flush() async throws {
        let taken = pending.withLockedValue { p in
            let taken = p
            p = Pending()
            return taken
        }
        guard !taken.traffic.isEmpty || !taken.vitals.isEmpty else { return }
        do {
            try await store.write { sql in
                for (key, c) in taken.traffic {
                    try await sql.raw("""
                        INSERT INTO gateway_traffic (gateway_id, site_id, hour, batches, events, accepted, rejected, last_at)
                        VALUES (\(bind: key.gatewayId), \(bind: key.siteId), \(bind: key.hour), \(bind: c.batches), \(bind: c.events),
                                \(bind: c.accepted), \(bind: c.rejected), \(bind: c.lastAt))
                        ON CONFLICT (site_id, gateway_id, hour) DO UPDATE SET
                          batches = gateway_traffic.batches + excluded.batches, events = gateway_traffic.events + excluded.events,
                          accepted = gateway_traffic.accepted + excluded.accepted, rejected = gateway_traffic.rejected + excluded.rejected,
                          last_at = CASE WHEN excluded.last_at > gateway_traffic.last_at THEN excluded.last_at ELSE gateway_traffic.last_at END
                        """).run()
                }
                for (sensorId, (v, at)) in taken.vitals {
                    try await sql.raw("""
                        INSERT INTO sensor_vitals (sensor_id, battery, rssi, snr, reported_at)
                        VALUES (\(bind: sensorId), \(bind: v.battery), \(bind: v.rssi), \(bind: v.snr), \(bind: at))
                        ON CONFLICT (sensor_id) DO UPDATE SET
                          battery = COALESCE(excluded.battery, sensor_vitals.battery), rssi = COALESCE(excluded.rssi, sensor_vitals.rssi),
                          snr = COALESCE(excluded.snr, sensor_vitals.snr), reported_at = excluded.reported_at
                        """).run()
                }
                // A week of hours is all the health screen shows.
                try await sql.raw("DELETE FROM gateway_traffic WHERE hour < \(bind: self.now().millis - 8 * 86_400_000)").run()
            }
        } catch {
            // Not lost on a failed write: merged back for the next flush.
            pending.withLockedValue { p in
                for (key, c) in taken.traffic { p.traffic[key, default: Counts()].add(c) }
                for (id, v) in taken.vitals where p.vitals[id] == nil { p.vitals[id] = v }
            }
            throw error
        }
    }

    func run(logger: Logger, every interval: Duration = .seconds(10)) async {
        while !Task.isCancelled {
            do { try await flush() } catch {
                logger.error("sensor traffic flush failed", metadata: ["error": .string(String(reflecting: error))])
            }
            try? await Task.sleep(for: interval)
        }
        try? await flush()
    }
}
