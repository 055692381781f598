import Foundation
import SQLKit
import WaymarkCore

/// A site's sensors as its operators need to see them (PRK-1): per lot how many report, which
/// are silent, low on battery or weakly heard, and what each gateway has sent.
struct SensorHealthQuery: Sendable {
    let store: SQLStore

    struct LotSummary: Sendable {
        var lotId: String, lotName: String
        var sensors = 0, reporting = 0, silent = 0, neverReported = 0
        var lastReport: Date?
    }

    struct Sensor: Sendable {
        var sensorId: String, spotId: String, spotLabel: String, lotName: String, level: Int
        var lastReport: Date
        var vitals: SensorVitals?
        var concerns: [SensorHealth.Concern]
    }

    struct Gateway: Sendable {
        var name: String
        var lastReport: Date
        var thisHour = SensorTraffic.Counts(), last24Hours = SensorTraffic.Counts()
    }

    struct Report: Sendable {
        var lots: [LotSummary] = []
        /// Silent first, longest quiet first; then the others by lot.
        var attention: [Sensor] = []
        var lowBattery = 0, weakSignal = 0
        var gateways: [Gateway] = []
    }

    static let attentionListed = 200

    func report(siteId: String, keepAlive: TimeInterval, now: Date) async throws -> Report {
        var report = Report()
        var lots: [String: LotSummary] = [:], order: [String] = []
        for row in try await store.sql.raw("""
            SELECT s.id, s.label, s.level, s.sensor_id, s.lot_id, l.name AS lot_name, ss.observed_at, v.battery, v.rssi, v.snr
            FROM spots s JOIN lots l ON l.id = s.lot_id JOIN spot_states ss ON ss.spot_id = s.id
              LEFT JOIN sensor_vitals v ON v.sensor_id = s.sensor_id
            WHERE l.site_id = \(bind: siteId) AND s.sensor_id IS NOT NULL AND s.sensor_id <> ''
            ORDER BY l.position, s.ordinal
            """).all() {
            let lotId = try row.decode(column: "lot_id", as: String.self)
            if lots[lotId] == nil {
                order.append(lotId)
                lots[lotId] = LotSummary(lotId: lotId, lotName: try row.decode(column: "lot_name", as: String.self))
            }
            let observed = try row.decode(column: "observed_at", as: Int64?.self).flatMap { $0 > 0 ? Date(millis: $0) : nil }
            let vitals = SensorVitals(battery: try row.decode(column: "battery", as: Int?.self), rssi: try row.decode(column: "rssi", as: Double?.self),
                                      snr: try row.decode(column: "snr", as: Double?.self))
            lots[lotId]!.sensors += 1
            guard let observed, let concerns = SensorHealth.concerns(lastReport: observed, vitals: vitals, keepAlive: keepAlive, now: now) else {
                lots[lotId]!.neverReported += 1
                continue
            }
            lots[lotId]!.lastReport = max(lots[lotId]!.lastReport ?? observed, observed)
            if concerns.contains(.silent) { lots[lotId]!.silent += 1 } else { lots[lotId]!.reporting += 1 }
            if concerns.contains(.lowBattery) { report.lowBattery += 1 }
            if concerns.contains(.weakSignal) { report.weakSignal += 1 }
            if !concerns.isEmpty {
                report.attention.append(Sensor(
                    sensorId: try row.decode(column: "sensor_id", as: String.self), spotId: try row.decode(column: "id", as: String.self),
                    spotLabel: try row.decode(column: "label", as: String.self), lotName: lots[lotId]!.lotName,
                    level: try row.decode(column: "level", as: Int.self), lastReport: observed, vitals: vitals, concerns: concerns))
            }
        }
        report.lots = order.compactMap { lots[$0] }
        // Stable: within a concern, the order of lots and spots is kept.
        let ranked = report.attention.enumerated().sorted { a, b in
            let (ca, cb) = (a.element.concerns.first!, b.element.concerns.first!)
            if ca != cb { return ca < cb }
            if ca == .silent, a.element.lastReport != b.element.lastReport { return a.element.lastReport < b.element.lastReport }
            return a.offset < b.offset
        }
        report.attention = ranked.map(\.element)

        let hourStart = now.millis - now.millis % 3_600_000, dayAgo = now.millis - 86_400_000
        var gateways: [String: Gateway] = [:]
        for row in try await store.sql.raw("""
            SELECT t.gateway_id, g.name, t.hour, t.batches, t.events, t.accepted, t.rejected, t.last_at
            FROM gateway_traffic t LEFT JOIN gateways g ON g.id = t.gateway_id
            WHERE t.site_id = \(bind: siteId) AND t.hour >= \(bind: dayAgo - dayAgo % 3_600_000)
            """).all() {
            let id = try row.decode(column: "gateway_id", as: String.self)
            let counts = SensorTraffic.Counts(
                batches: try row.decode(column: "batches", as: Int.self), events: try row.decode(column: "events", as: Int.self),
                accepted: try row.decode(column: "accepted", as: Int.self), rejected: try row.decode(column: "rejected", as: Int.self),
                lastAt: try row.decode(column: "last_at", as: Int64.self))
            let name = try row.decode(column: "name", as: String?.self) ?? "a removed gateway"
            var g = gateways[id] ?? Gateway(name: name, lastReport: Date(millis: counts.lastAt))
            g.lastReport = max(g.lastReport, Date(millis: counts.lastAt))
            g.last24Hours.add(counts)
            if try row.decode(column: "hour", as: Int64.self) == hourStart { g.thisHour.add(counts) }
            gateways[id] = g
        }
        report.gateways = gateways.values.sorted { $0.name < $1.name }
        return report
    }
}
