import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer

@Suite("Parking reads (PRK-1, PRK-4, PRK-5, PRK-6)")
struct ParkingReadTests {
    @Test("PRK-1 sites, lots with permits and spots in stable order", arguments: TestDatabase.available)
    func sitesLotsSpots(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sites = try await ctx.json("/v1/sites")["sites"] as! [[String: Any]]
            #expect(sites.count == 1)
            #expect(sites[0]["timeZone"] as? String == "America/Los_Angeles")
            let lots = try await ctx.json("/v1/sites/\(ctx.siteId)/lots")["lots"] as! [[String: Any]]
            #expect(lots.map { $0["code"] as? String } == ["S", "L"])
            let rules = lots[0]["permitRules"] as! [[String: Any]]
            #expect(rules.first?["permits"] as? [String] == ["green"])
            #expect(rules.first?["weekdays"] as? [Int] == [2, 3, 4, 5, 6])
            #expect((lots[0]["footprint"] as! [Any]).count == 4)

            let lotId = lots[0]["id"] as! String
            let res = try await ctx.get("/v1/lots/\(lotId)/spots")
            #expect(res.status == .ok)
            let etag = try #require(res.headers.first(name: .eTag))
            let spots = (try JSONSerialization.jsonObject(with: Data(buffer: res.body)) as! [String: Any])["spots"] as! [[String: Any]]
            #expect(spots.count == 20)
            #expect(spots.map { $0["ordinal"] as! Int } == Array(0..<20))
            #expect(Set(spots.map { $0["sensorId"] as! String }).count == 20)
            let again = try await ctx.get("/v1/lots/\(lotId)/spots", headers: ["If-None-Match": etag])
            #expect(again.status == .notModified)
        }
    }

    @Test("PRK-4 congestion: green below 65 %, yellow from 65 %, red from 85 %", arguments: TestDatabase.available)
    func congestionLevels(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sensors = Fixtures.sensorIds(lot: "L") // 10 spots
            let lotId = try await ctx.lotIds()["L"]!
            func level(after occupied: Int) async throws -> (String, Double) {
                let events = sensors.enumerated().map { i, s in TestContext.event(s, i < occupied, at: ctx.clock.now, seq: occupied) }
                _ = try await ctx.ingest(events)
                let lots = try await ctx.json("/v1/sites/\(ctx.siteId)/occupancy")["lots"] as! [[String: Any]]
                let lot = lots.first { $0["lotId"] as? String == lotId }!
                return (lot["level"] as! String, lot["fraction"] as! Double)
            }
            #expect(try await level(after: 6) == ("green", 0.6))
            #expect(try await level(after: 7) == ("yellow", 0.7))
            #expect(try await level(after: 8) == ("yellow", 0.8))
            #expect(try await level(after: 9) == ("red", 0.9))
        }
    }

    @Test("PRK-5 occupancy and spot states carry ETags that change with the lot", arguments: TestDatabase.available)
    func etags(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let path = "/v1/sites/\(ctx.siteId)/occupancy"
            let first = try await ctx.get(path)
            let etag = try #require(first.headers.first(name: .eTag))
            #expect(try await ctx.get(path, headers: ["If-None-Match": etag]).status == .notModified)
            let lotId = try await ctx.lotIds()["S"]!
            let statesPath = "/v1/lots/\(lotId)/spot-states"
            let statesETag = try #require(try await ctx.get(statesPath).headers.first(name: .eTag))
            #expect(try await ctx.get(statesPath, headers: ["If-None-Match": "W/\(statesETag)"]).status == .notModified)

            _ = try await ctx.ingest([TestContext.event(Fixtures.sensorIds(lot: "S")[0], true, at: ctx.clock.now, seq: 1)])
            #expect(try await ctx.get(path, headers: ["If-None-Match": etag]).status == .ok)
            let changed = try await ctx.get(statesPath, headers: ["If-None-Match": statesETag])
            #expect(changed.status == .ok)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: changed.body)) as! [String: Any]
            #expect((body["states"] as! String).first == "o")
        }
    }

    @Test("PRK-6 snapshots land in the site-local half hour once, and feed typical occupancy", arguments: TestDatabase.available)
    func snapshotsAndTypicalOccupancy(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let s = ctx.services
            let job = SnapshotJob(store: s.store, now: ctx.clock.function, liveRetention: 86_400, logger: ctx.app.logger)
            let sensors = Fixtures.sensorIds(lot: "L")
            let lotId = try await ctx.lotIds()["L"]!
            // Four Wednesdays at 09:10 local (in the 09:00 slot; local days, so across the end of
            // daylight saving time), with 2, 4, 6 and 8 of 10 spots taken.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
            for (week, taken) in [(4, 2), (3, 4), (2, 6), (1, 8)] {
                let t = calendar.date(byAdding: .day, value: -7 * week, to: TestClock.campusMorning)!.addingTimeInterval(600)
                ctx.clock.set(t)
                _ = try await ctx.ingest(sensors.enumerated().map { i, id in TestContext.event(id, i < taken, at: t, seq: week * 100) })
                try await job.takeSnapshots(at: t)
                try await job.takeSnapshots(at: t.addingTimeInterval(60)) // a second instance, same slot: no effect
            }
            let count = try await s.store.sql.raw("SELECT COUNT(*) AS n FROM occupancy_snapshots WHERE lot_id = \(bind: lotId)").first()!
            #expect(try count.decode(column: "n", as: Int.self) == 4)

            // Asked on the Tuesday before, the four past Wednesdays count.
            ctx.clock.set(TestClock.campusMorning.addingTimeInterval(-86_400))
            let typical = try await ctx.json("/v1/lots/\(lotId)/typical-occupancy?weekday=4")
            let halfHours = typical["halfHours"] as! [Any]
            #expect(halfHours.count == 48)
            #expect(abs((halfHours[18] as? Double ?? -1) - 0.5) < 1e-9) // 09:00 slot: mean of 0.2, 0.4, 0.6, 0.8
            #expect(halfHours[19] is NSNull)
            #expect((typical["hours"] as! [Any]).count == 24)

            // Retention: four weeks later the oldest snapshots are gone.
            try await job.applyRetention(at: TestClock.campusMorning.addingTimeInterval(30 * 86_400))
            let left = try await s.store.sql.raw("SELECT COUNT(*) AS n FROM occupancy_snapshots").first()!
            #expect(try left.decode(column: "n", as: Int.self) < 8)

            let bad = try await ctx.get("/v1/lots/\(lotId)/typical-occupancy?weekday=9")
            #expect(bad.status == .badRequest)
        }
    }
}
