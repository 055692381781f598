import Foundation
import Testing
import Vapor
import VaporTesting
import SQLKit
import WaymarkCore
@testable import WaymarkServer

@Suite("Sensor ingest (PRK-2)")
struct IngestTests {
    @Test("PRK-2 accepted, duplicate, stale, unknown and invalid events are judged one by one", arguments: TestDatabase.available)
    func outcomes(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sensors = Fixtures.sensorIds(lot: "L")
            let t = ctx.clock.now
            let (status, body) = try await ctx.ingest([
                TestContext.event(sensors[0], true, at: t, seq: 5),
                TestContext.event(sensors[0], true, at: t, seq: 5),              // duplicate of the one before
                TestContext.event(sensors[0], false, at: t.addingTimeInterval(-60), seq: 9), // older: stale
                TestContext.event("no-such-sensor", true, at: t, seq: 1),
                TestContext.event(sensors[1], true, at: t.addingTimeInterval(3600), seq: 1), // an hour ahead: invalid
                TestContext.event(sensors[2], true, at: t, seq: -1),              // negative sequence: invalid
                TestContext.event(sensors[3], false, at: t, seq: 1),
            ])
            #expect(status == .ok)
            #expect(body["outcomes"] as? [String] == ["accepted", "duplicate", "stale", "unknownSensor", "invalid", "invalid", "accepted"])
            #expect(body["accepted"] as? Int == 2)
            #expect(body["duplicate"] as? Int == 1)
            #expect(body["stale"] as? Int == 1)
            #expect(body["unknownSensor"] as? Int == 1)
            #expect(body["invalid"] as? Int == 2)

            let lotId = try await ctx.lotIds()["L"]!
            let states = try await ctx.states(lotId: lotId)
            #expect(Array(states).prefix(4) == ["o", "u", "u", "f"])

            // Sent again, the whole batch changes nothing.
            let again = try await ctx.ingest([TestContext.event(sensors[0], true, at: t, seq: 5)])
            #expect(again.body["duplicate"] as? Int == 1)
            #expect(try await ctx.states(lotId: lotId) == states)
        }
    }

    @Test("PRK-2 an older report never overwrites a newer state, whatever order requests arrive in", arguments: TestDatabase.available)
    func orderSafety(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sensor = Fixtures.sensorIds(lot: "S")[4]
            let t = ctx.clock.now.addingTimeInterval(-600)
            // Newest first, then older ones that would flip the state back.
            _ = try await ctx.ingest([TestContext.event(sensor, false, at: t.addingTimeInterval(300), seq: 3)])
            let r = try await ctx.ingest([
                TestContext.event(sensor, true, at: t.addingTimeInterval(200), seq: 2),
                TestContext.event(sensor, true, at: t.addingTimeInterval(300), seq: 2), // same time, lower sequence
            ])
            #expect(r.body["stale"] as? Int == 2)
            let lotId = try await ctx.lotIds()["S"]!
            #expect(Array(try await ctx.states(lotId: lotId))[4] == "f")
            // Same time, higher sequence wins.
            let newer = try await ctx.ingest([TestContext.event(sensor, true, at: t.addingTimeInterval(300), seq: 4)])
            #expect(newer.body["accepted"] as? Int == 1)
            #expect(Array(try await ctx.states(lotId: lotId))[4] == "o")
        }
    }

    @Test("PRK-2 concurrent requests are group-committed and the lot counters match the spots", arguments: TestDatabase.available)
    func countersExactUnderLoad(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sensors = Fixtures.sensorIds(lot: "S") + Fixtures.sensorIds(lot: "L")
            let base = ctx.clock.now.addingTimeInterval(-900)
            // 60 requests racing, each flipping every sensor with its own sequence number.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for k in 0..<60 {
                    group.addTask {
                        let events = sensors.map { TestContext.event($0, (k + $0.count) % 2 == 0, at: base.addingTimeInterval(Double(k)), seq: k) }
                        let r = try await ctx.ingest(events)
                        #expect(r.status == .ok)
                    }
                }
                try await group.waitForAll()
            }
            // The newest report (k = 59) decides every spot.
            let lots = try await ctx.lotIds()
            for (code, lotId) in lots {
                let states = try await ctx.states(lotId: lotId)
                let expected = Fixtures.sensorIds(lot: code).map { (59 + $0.count) % 2 == 0 ? Character("o") : Character("f") }
                #expect(Array(states) == expected, "lot \(code)")
                let occupancy = try await ctx.json("/v1/sites/\(ctx.siteId)/occupancy")["lots"] as! [[String: Any]]
                let lot = occupancy.first { $0["lotId"] as? String == lotId }!
                #expect(lot["occupied"] as? Int == expected.filter { $0 == "o" }.count)
                #expect(lot["free"] as? Int == expected.filter { $0 == "f" }.count)
            }
        }
    }

    @Test("PRK-2 a gateway needs a valid, unrevoked key", arguments: TestDatabase.available)
    func authentication(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let event = [TestContext.event(Fixtures.sensorIds(lot: "L")[0], true, at: ctx.clock.now, seq: 1)]
            let wrong = try await ctx.ingest(event, key: "wmg_not-a-key")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.body["type"] as? String == "https://waymark.dev/problems/unauthorized")

            let res = try await ctx.tester.sendRequest(.POST, "/v1/gateway/events", headers: ["Content-Type": "application/json"],
                                                       body: ByteBuffer(string: #"{"events":[]}"#))
            #expect(res.status == .unauthorized)

            #expect(try await ctx.app.revokeGateway(name: "test-gateway"))
            let revoked = try await ctx.ingest(event)
            #expect(revoked.status == .unauthorized)
        }
    }

    @Test("PRK-2 The Things Stack v3 uplink webhook", arguments: TestDatabase.available)
    func thingsStackUplink(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sensor = Fixtures.sensorIds(lot: "L")[2]
            let uplink = """
                {"end_device_ids":{"device_id":"\(sensor)","application_ids":{"application_id":"campus"},"dev_eui":"70B3D57ED0000001"},
                 "received_at":"2026-11-18T16:59:59.5Z",
                 "uplink_message":{"f_port":1,"f_cnt":42,"frm_payload":"AQ==","decoded_payload":{"occupied":true},
                                   "rx_metadata":[{"gateway_ids":{"gateway_id":"gw-1"},"rssi":-80}],"received_at":"2026-11-18T16:59:59.4Z"}}
                """
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            headers.add(name: .authorization, value: "Bearer \(ctx.gatewayKey)")
            let res = try await ctx.tester.sendRequest(.POST, "/v1/gateway/ttn", headers: headers, body: ByteBuffer(string: uplink))
            #expect(res.status == .ok)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: res.body)) as! [String: Any]
            #expect(body["accepted"] as? Int == 1)
            let lotId = try await ctx.lotIds()["L"]!
            #expect(Array(try await ctx.states(lotId: lotId))[2] == "o")

            // Without a decoded `occupied` the uplink is refused with a reason.
            let bad = uplink.replacingOccurrences(of: #""decoded_payload":{"occupied":true}"#, with: #""decoded_payload":{}"#)
            let refused = try await ctx.tester.sendRequest(.POST, "/v1/gateway/ttn", headers: headers, body: ByteBuffer(string: bad))
            #expect(refused.status == .badRequest)
        }
    }

    @Test("PRK-2 an acknowledged event is on disk: a new application on the same file sees it")
    func acknowledgedEventSurvivesRestart() async throws {
        let (location, drop) = try await TestDatabase.sqlite.make()
        defer { Task { await drop() } }
        var config = WaymarkConfiguration()
        config.database = location
        config.runJobs = false
        config.logLevel = "warning"
        let clock = TestClock()
        var lotId = ""
        let sensor = Fixtures.sensorIds(lot: "S")[7]
        do {
            let app = try await buildApplication(config, now: clock.function)
            var loader = DemoLoader(store: app.waymark.store, now: clock.function, logger: app.logger)
            loader.plan = Fixtures.smallSite
            loader.synthesizeActivity = false
            let siteId = try await loader.loadIfMissing()
            try await app.waymark.parking.reloadSensorIndex()
            let ctx = TestContext(app: app, clock: clock, siteId: siteId, gatewayKey: try await app.createGateway(name: "g"), database: .sqlite)
            let r = try await ctx.ingest([TestContext.event(sensor, true, at: clock.now, seq: 1)])
            #expect(r.body["accepted"] as? Int == 1)
            lotId = try await ctx.lotIds()["S"]!
            try await app.asyncShutdown()
        }
        let app = try await buildApplication(config, now: clock.function)
        let res = try await app.testing().sendRequest(.GET, "/v1/lots/\(lotId)/spot-states")
        let states = (try JSONSerialization.jsonObject(with: Data(buffer: res.body)) as! [String: Any])["states"] as! String
        #expect(Array(states)[7] == "o")
        try await app.asyncShutdown()
    }

    @Test("PRK-2 a commit's read of a few dozen spots uses the spot states' key on a campus-sized site, on both databases", arguments: TestDatabase.available)
    func spotReadUsesIndex(db: TestDatabase) async throws {
        try await TestApp.with(db, site: DemoCampus.fullerton) { ctx in
            let sql = ctx.services.store.sql
            let isPostgres = ctx.services.store.isPostgres
            // With statistics, as a database has once autovacuum (or this) has looked at it.
            try await sql.raw("ANALYZE").run()
            let ids = try await sql.raw("SELECT id FROM spots ORDER BY ordinal, id LIMIT 32").all().map {
                try $0.decode(column: "id", as: String.self)
            }
            let query = IngestService.readStates(of: ids, isPostgres: isPostgres)
            let plan = try await sql.raw((isPostgres ? "EXPLAIN " : "EXPLAIN QUERY PLAN ") + query).all().map { row in
                try row.decode(column: isPostgres ? "QUERY PLAN" : "detail", as: String.self)
            }
            #expect(try await sql.raw("SELECT count(*) AS n FROM spot_states").first()?.decode(column: "n", as: Int.self) ?? 0 > 8_000)
            #expect(!plan.contains { $0.contains("Seq Scan on spot_states") || $0.hasPrefix("SCAN s") }, "\(plan)")
            #expect(plan.contains { $0.contains("spot_states_pkey") || $0.contains("USING PRIMARY KEY") }, "\(plan)")
            #expect(try await sql.raw(query).all().count == ids.count)
        }
    }

    @Test("PRK-2 on PostgreSQL, a commit decided from states that change before it is applied writes nothing, and is made again from the new states")
    func staleDecisionIsMadeAgain() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        try await TestApp.with(.postgres) { ctx in
            let sql = ctx.services.store.sql
            let sensor = Fixtures.sensorIds(lot: "L")[3]
            let t = ctx.clock.now
            _ = try await ctx.ingest([TestContext.event(sensor, false, at: t.addingTimeInterval(-60), seq: 1)])
            let spot = try await sql.raw("SELECT id, lot_id FROM spots WHERE sensor_id = \(bind: sensor)").first()!
            let spotId = try spot.decode(column: "id", as: String.self), lotId = try spot.decode(column: "lot_id", as: String.self)
            let closed = try await sql.raw("SELECT id FROM spots WHERE sensor_id = \(bind: Fixtures.sensorIds(lot: "L")[5])").first()!
                .decode(column: "id", as: String.self)

            // Another writer takes the spot (free → held) and closes another (unknown → closed),
            // and has not committed when the report comes: the report is judged against "free",
            // and only then does the other change commit.
            let (ready, isReady) = AsyncStream<Void>.makeStream()
            let (release, doRelease) = AsyncStream<Void>.makeStream()
            let other = Task {
                try await ctx.services.store.database.withConnection { connection in
                    let other = connection as! any SQLDatabase
                    try await other.raw("BEGIN").run()
                    try await other.raw("UPDATE spot_states SET state = 'h' WHERE spot_id = \(bind: spotId)").run()
                    try await other.raw("UPDATE spot_states SET state = 'c' WHERE spot_id = \(bind: closed)").run()
                    try await other.raw("""
                        UPDATE lots SET count_f = count_f - 1, count_h = count_h + 1, count_u = count_u - 1, count_c = count_c + 1,
                          version = version + 1 WHERE id = \(bind: lotId)
                        """).run()
                    isReady.yield()
                    for await _ in release { break }
                    try await other.raw("COMMIT").run()
                }
            }
            for await _ in ready { break }
            async let report = ctx.ingest([TestContext.event(sensor, true, at: t, seq: 2)])
            // The commit is waiting for the other writer's row.
            var waiting = false
            for _ in 0..<200 where !waiting {
                waiting = try await sql.raw("SELECT count(*) AS n FROM pg_locks WHERE NOT granted").first()!.decode(column: "n", as: Int.self) > 0
                if !waiting { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(waiting)
            doRelease.yield()
            try await other.value
            let (status, body) = try await report
            #expect(status == .ok)
            #expect(body["accepted"] as? Int == 1)

            // Held → occupied on top of the other writer's counts: had the first decision been
            // written, the lot's counters would be free → occupied applied to what was read,
            // with the closed spot and the hold lost from them.
            #expect(try await sql.raw("SELECT state FROM spot_states WHERE spot_id = \(bind: spotId)").first()!.decode(column: "state", as: String.self) == "o")
            let counters = try await sql.raw("SELECT \(unsafeRaw: LotCountsRow.columns) FROM lots WHERE id = \(bind: lotId)")
                .first(decoding: LotCountsRow.self, keyDecodingStrategy: .convertFromSnakeCase)!
            var counted = LotCounts()
            for row in try await sql.raw("SELECT st.state FROM spots s JOIN spot_states st ON st.spot_id = s.id WHERE s.lot_id = \(bind: lotId)").all() {
                counted[SpotState(code: try row.decode(column: "state", as: String.self).first!) ?? .unknown] += 1
            }
            #expect(counters.counts == counted)
            // One live event for the spot's change, as the long way writes it.
            let events = try await sql.raw("SELECT SUM(event_count)::bigint AS n FROM live_events WHERE lot_id = \(bind: lotId) AND kind = 'spots'").first()!
            #expect(try events.decode(column: "n", as: Int.self) == 2)
        }
    }

    @Test("PRK-2 every spot has exactly one state row, and a spot's state row goes with it, on both databases", arguments: TestDatabase.available)
    func everySpotHasOneState(db: TestDatabase) async throws {
        try await TestApp.with(db, site: DemoCampus.fullerton) { ctx in
            let sql = ctx.services.store.sql
            let count = { (query: SQLQueryString) in try await sql.raw(query).first()?.decode(column: "n", as: Int.self) ?? -1 }
            let spots = try await count("SELECT count(*) AS n FROM spots")
            #expect(spots > 8_000)
            #expect(try await count("SELECT count(*) AS n FROM spots s JOIN spot_states st ON st.spot_id = s.id") == spots)
            #expect(try await count("SELECT count(*) AS n FROM spot_states") == spots)
            let lot = try await sql.raw("SELECT lot_id FROM spots LIMIT 1").first()!.decode(column: "lot_id", as: String.self)
            try await sql.raw("DELETE FROM spots WHERE lot_id = \(bind: lot)").run()
            #expect(try await count("SELECT count(*) AS n FROM spot_states") == (try await count("SELECT count(*) AS n FROM spots")))
        }
    }
}
