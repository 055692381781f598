import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Silent sensors (PRK-2, PRK-1)")
struct SilentSensorsTests {
    @Test("PRK-2 a spot whose sensor has been quiet for longer than the keep-alive is unknown until its sensor reports again; held spots and spots never reported stay as they are",
          arguments: TestDatabase.available)
    func silentSpotsTurnUnknown(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let lot = try await ctx.freeLot("L")
            let other = try await ctx.lotId("S")
            let silent = ctx.services.parking.silentSensors
            #expect(silent.keepAlive == 90 * 60, "the default")
            let n = lot.spots.count
            let otherUnknown = try await ctx.lotCount(other, "unknown")

            ctx.clock.advance(by: 89 * 60)
            #expect(try await silent.sweep() == 0, "quiet, but not for longer than the keep-alive")
            // Spot 0 reports again; a driver holds spot 3.
            #expect(try await ctx.ingest([TestContext.event(lot.sensors[0], true, at: ctx.clock.now, seq: 2)]).status == .ok)
            let guest = try await ctx.device()
            #expect(try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": lot.spots[3]]).status == .created)
            let cursor = ctx.services.parking.live.cursor
            ctx.clock.advance(by: 2 * 60)
            #expect(try await silent.sweep() == n - 2)
            #expect(try await ctx.lotCount(lot.id, "unknown") == n - 2)
            #expect(try await ctx.lotCount(lot.id, "occupied") == 1)
            #expect(try await ctx.lotCount(lot.id, "held") == 1)
            #expect(try await ctx.lotCount(other, "unknown") == otherUnknown, "generated states that no sensor ever reported are left")
            #expect(try await silent.sweep() == 0, "once is enough")
            let events = try await EventLog.read(after: cursor, limit: 1_000, sql: ctx.services.store.sql).flatMap { $0.events() }
            #expect(events.filter { $0.kind == "spot" && $0.data.contains("\"state\":\"u\"") }.count == n - 2, "told on the live stream")

            // The next report counts again; an old one does not.
            #expect(try await ctx.ingest([TestContext.event(lot.sensors[1], false, at: ctx.clock.now, seq: 3)]).status == .ok)
            #expect(try await ctx.lotCount(lot.id, "free") == 1)
            let stale = try await ctx.ingest([TestContext.event(lot.sensors[2], true, at: ctx.clock.now.addingTimeInterval(-3 * 3600), seq: 0)])
            #expect(stale.body["stale"] as? Int == 1)
            #expect(try await ctx.lotCount(lot.id, "unknown") == n - 3)
        }
    }
}

@Suite("Sensor health for operators (PRK-1)")
struct SensorHealthReportTests {
    typealias T = TestContext
    @Test("PRK-1 operators see per lot which sensors report, which are silent, low on battery or weakly heard, and what each gateway sent; others get 403",
          arguments: TestDatabase.available)
    func sensorHealth(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            let code = try #require(sites.first { $0["id"] as? String == ctx.siteId }?["code"] as? String)
            let ops = try await ctx.register("opal"), driver = try await ctx.register("dana")
            #expect(try await ctx.app.grantSiteOperator(siteCode: code, login: "opal") == .granted)
            let lot = try await ctx.freeLot("L")
            let n = lot.sensors.count
            var low = TestContext.event(lot.sensors[0], true, at: ctx.clock.now, seq: 2)
            low["battery"] = 15; low["rssi"] = -80.0; low["snr"] = 6.5
            var weak = TestContext.event(lot.sensors[1], true, at: ctx.clock.now, seq: 2)
            weak["battery"] = 90; weak["rssi"] = -124.0; weak["snr"] = -14.0
            var nonsense = TestContext.event(lot.sensors[2], true, at: ctx.clock.now, seq: 2)
            nonsense["battery"] = 100; nonsense["rssi"] = 12.0
            #expect(try await ctx.ingest([low, weak, nonsense, TestContext.event("no-such-sensor", true, at: ctx.clock.now, seq: 1)]).status == .ok)
            // The Things Stack: the best of the gateways that heard it.
            let uplink = """
                {"end_device_ids":{"device_id":"\(lot.sensors[3])"},"uplink_message":{"f_cnt":7,"decoded_payload":{"occupied":true,"battery":11},
                 "rx_metadata":[{"rssi":-118,"snr":-3},{"rssi":-101,"snr":2.5}],"received_at":"\(T.iso(ctx.clock.now))"}}
                """
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            headers.add(name: .authorization, value: "Bearer \(ctx.gatewayKey)")
            #expect(try await ctx.tester.sendRequest(.POST, "/v1/gateway/ttn", headers: headers, body: ByteBuffer(string: uplink)).status == .ok)

            let path = "/v1/sites/\(ctx.siteId)/sensor-health"
            #expect(try await ctx.call(.GET, path, token: driver.token).problemType == "site-operator-required")
            #expect(try await ctx.call(.GET, path).status == .unauthorized)
            let health = try await ctx.call(.GET, path, token: ops.token)
            #expect(health.status == .ok)
            #expect(health.json["keepAliveMinutes"] as? Int == 90)
            let lots = health.json["lots"] as? [[String: Any]] ?? []
            let l = try #require(lots.first { $0["lotId"] as? String == lot.id })
            #expect(l["sensors"] as? Int == n && l["reporting"] as? Int == n && l["silent"] as? Int == 0 && l["neverReported"] as? Int == 0)
            #expect(l["lastReportAt"] as? String == T.iso(ctx.clock.now))
            let totals = try #require(health.json["totals"] as? [String: Any])
            #expect(totals["lowBattery"] as? Int == 2 && totals["weakSignal"] as? Int == 1)
            #expect((totals["neverReported"] as? Int ?? 0) > 0, "the demo's other lots were generated, never reported")
            let attention = health.json["attention"] as? [[String: Any]] ?? []
            #expect(attention.map { $0["sensorId"] as? String } == [lot.sensors[0], lot.sensors[3], lot.sensors[1]])
            #expect(attention.map { $0["concerns"] as? [String] } == [["lowBattery"], ["lowBattery"], ["weakSignal"]])
            #expect(attention[1]["rssi"] as? Double == -101 && attention[1]["snr"] as? Double == 2.5 && attention[1]["battery"] as? Int == 11)
            let gateways = health.json["gateways"] as? [[String: Any]] ?? []
            #expect(gateways.count == 1)
            let hour = try #require(gateways.first?["thisHour"] as? [String: Any])
            // freeLot's batch, ours (three of this site's sensors, the unknown one not counted) and the uplink.
            #expect(hour["batches"] as? Int == 3 && hour["events"] as? Int == n + 4 && hour["accepted"] as? Int == n + 4 && hour["rejected"] as? Int == 0)

            // Quiet for longer than the keep-alive: silent first, the others after.
            ctx.clock.advance(by: 91 * 60)
            try await ctx.services.parking.silentSensors.sweep()
            let later = try await ctx.call(.GET, path, token: ops.token).json
            let l2 = try #require((later["lots"] as? [[String: Any]])?.first { $0["lotId"] as? String == lot.id })
            #expect(l2["silent"] as? Int == n && l2["reporting"] as? Int == 0)
            let concerns = (later["attention"] as? [[String: Any]] ?? []).compactMap { ($0["concerns"] as? [String])?.first }
            #expect(later["attentionCount"] as? Int == n && concerns.allSatisfy { $0 == "silent" })
            #expect(((later["gateways"] as? [[String: Any]])?.first?["thisHour"] as? [String: Any])?["events"] as? Int == 0, "a new hour")
        }
    }
}
