import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func getSensorHealth(_ input: Operations.GetSensorHealth.Input) async throws -> Operations.GetSensorHealth.Output {
        let me = try RequestContext.requirePrincipal()
        let siteId = input.path.siteId
        try await services.parking.siteOperators.require(me, siteId: siteId)
        // This instance's counts so far; other instances add theirs within seconds.
        try await services.parking.traffic.flush()
        let keepAlive = services.parking.silentSensors.keepAlive, now = services.now()
        let r = try await SensorHealthQuery(store: services.store).report(siteId: siteId, keepAlive: keepAlive, now: now)
        let totals = r.lots.reduce(into: Components.Schemas.SensorTotals(sensors: 0, reporting: 0, silent: 0, neverReported: 0,
                                                                          lowBattery: r.lowBattery, weakSignal: r.weakSignal)) { t, l in
            t.sensors += l.sensors; t.reporting += l.reporting; t.silent += l.silent; t.neverReported += l.neverReported
        }
        let counts = { (c: SensorTraffic.Counts) in
            Components.Schemas.TrafficCounts(batches: c.batches, events: c.events, accepted: c.accepted, rejected: c.rejected)
        }
        return .ok(.init(body: .json(.init(
            siteId: siteId, asOf: now, keepAliveMinutes: Int(keepAlive / 60), totals: totals,
            lots: r.lots.map { .init(lotId: $0.lotId, lotName: $0.lotName, sensors: $0.sensors, reporting: $0.reporting, silent: $0.silent,
                                     neverReported: $0.neverReported, lastReportAt: $0.lastReport) },
            attention: r.attention.prefix(SensorHealthQuery.attentionListed).map { s in
                .init(sensorId: s.sensorId, spotId: s.spotId, spotLabel: s.spotLabel, lotName: s.lotName, level: s.level,
                      concerns: s.concerns.compactMap { .init(rawValue: $0.rawValue) }, lastReportAt: s.lastReport,
                      battery: s.vitals?.battery, rssi: s.vitals?.rssi, snr: s.vitals?.snr)
            },
            attentionCount: r.attention.count,
            gateways: r.gateways.map { .init(name: $0.name, lastReportAt: $0.lastReport, thisHour: counts($0.thisHour), last24Hours: counts($0.last24Hours)) }))))
    }
}
