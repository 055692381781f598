import Foundation
import Testing
@testable import WaymarkServer
import WaymarkCore

@Suite("Recorded hikes (TRL-6)")
struct HikesTests {
    static func iso(_ d: Date) -> String { ISO8601DateFormatter().string(from: d) }

    /// Walking north from the Heart Rock trailhead at 1.2 m/s, a fix every 10 s, climbing 0.5 m a fix.
    static func walk(from head: Coordinate, fixes n: Int) -> [[Double]] {
        (0..<n).map { i in
            let c = Geo.offset(head, east: 0, north: Double(i) * 12)
            return [Double(i) * 10, c.latitude, c.longitude, 5, 1500 + Double(i) * 0.5]
        }
    }

    @Test("TRL-6 a hike is saved once under the device's id with the core's figures, listed newest first or sorted, read back, exported as GPX and deleted; a stranger gets none of it",
          arguments: TestDatabase.available)
    func trl6Hikes(db: TestDatabase) async throws {
        try await TrailsTests.withDemo(db) { ctx in
            let ana = try await ctx.register("ana"), ben = try await ctx.register("ben")
            let body = try await ctx.call(.PUT, "/v1/me/hiker-body", token: ana.token, json: ["heightCentimetres": 180, "weightKilograms": 70, "birthYear": 1990])
            #expect(body.status == .ok && body.json["birthYear"] as? Int == 1990)
            #expect(try await ctx.call(.PUT, "/v1/me/hiker-body", token: ana.token, json: ["heightCentimetres": 400]).status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/me/hiker-body", token: ana.token).json["weightKilograms"] as? Double == 70, "a refused change keeps what was told")

            let page = try await ctx.call(.GET, "/v1/trails/heart-rock")
            let head = try #require((page.json["summary"] as? [String: Any])?["trailhead"] as? [String: Double])
            let start = ctx.clock.now.addingTimeInterval(-3600)
            let fixes = Self.walk(from: Coordinate(latitude: head["latitude"]!, longitude: head["longitude"]!), fixes: 60)
            let input: [String: Any] = ["trailId": "heart-rock", "startedAt": Self.iso(start), "endedAt": Self.iso(start.addingTimeInterval(600)), "fixes": fixes]
            let saved = try await ctx.call(.PUT, "/v1/me/hikes/hike-0000-ana1", token: ana.token, json: input)
            #expect(saved.status == .created)
            let summary = try #require(saved.json["summary"] as? [String: Any])
            // The same figures the app shows live, from the same fixes.
            let core = HikeStatistics(fixes: fixes.map { HikeFix(time: start.addingTimeInterval($0[0]), latitude: $0[1], longitude: $0[2], elevation: $0[4], accuracy: $0[3]) },
                                      start: start, end: start.addingTimeInterval(600),
                                      body: HikerBody(heightCentimetres: 180, weightKilograms: 70, ageYears: 36))
            #expect(abs((summary["distanceMetres"] as? Double ?? 0) - core.distanceMetres) < 1e-6)
            #expect(summary["movingSeconds"] as? Double == core.movingSeconds && summary["steps"] as? Int == core.steps)
            #expect(abs((summary["calories"] as? Double ?? 0) - (core.calories ?? -1)) < 1e-6)
            #expect(summary["trailName"] as? String == "Heart Rock Trail" && summary["difficulty"] as? String != nil)

            let again = try await ctx.call(.PUT, "/v1/me/hikes/hike-0000-ana1", token: ana.token, json: input)
            #expect(again.status == .ok, "sent again: stored once")
            #expect(try await ctx.call(.PUT, "/v1/me/hikes/hike-0000-ana1", token: ben.token, json: input).status == .conflict)

            // A second, later hike on another trail.
            ctx.clock.advance(by: 60)
            let later = start.addingTimeInterval(1800)
            var other = input
            other["trailId"] = "big-falls"; other["startedAt"] = Self.iso(later); other["endedAt"] = Self.iso(later.addingTimeInterval(600))
            #expect(try await ctx.call(.PUT, "/v1/me/hikes/hike-0000-ana2", token: ana.token, json: other).status == .created)
            let list = try await ctx.call(.GET, "/v1/me/hikes", token: ana.token)
            #expect((list.json["hikes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["hike-0000-ana2", "hike-0000-ana1"] && list.json["total"] as? Int == 2)
            let byName = try await ctx.call(.GET, "/v1/me/hikes?sort=trailName", token: ana.token)
            #expect((byName.json["hikes"] as? [[String: Any]])?.map { $0["trailName"] as? String } == ["Big Falls Trail", "Heart Rock Trail"])
            #expect(try await ctx.call(.GET, "/v1/me/hikes", token: ben.token).json["total"] as? Int == 0)

            let one = try await ctx.call(.GET, "/v1/me/hikes/hike-0000-ana1", token: ana.token)
            #expect((one.json["fixes"] as? [[Double]])?.count == 60)
            #expect(try await ctx.call(.GET, "/v1/me/hikes/hike-0000-ana1", token: ben.token).status == .notFound, "a stranger gets nothing")
            #expect(try await ctx.call(.GET, "/v1/me/hikes/hike-0000-ana1/gpx", token: ben.token).status == .notFound)
            let gpx = try await ctx.call(.GET, "/v1/me/hikes/hike-0000-ana1/gpx", token: ana.token)
            let read = try GPXDocument.read(gpx.body)
            #expect(read.tracks.first?.segments.first?.count == 60 && read.tracks.first?.segments.first?.first?.time != nil)

            for (bad, what) in [
                (["trailId": "nope"], "unknown trail"),
                (["endedAt": Self.iso(start)], "ends before it starts"),
                (["endedAt": Self.iso(ctx.clock.now.addingTimeInterval(86_400))], "ends tomorrow"),
                (["fixes": [[0, 34, -117]]], "a fix of three numbers"),
                (["fixes": [[-5, 34, -117, 5]]], "a fix before the start"),
            ] as [([String: Any], String)] {
                var body = input
                for (k, v) in bad { body[k] = v }
                let res = try await ctx.call(.PUT, "/v1/me/hikes/hike-0000-bad1", token: ana.token, json: body)
                #expect(res.status == .badRequest, "\(what)")
            }
            #expect(try await ctx.call(.PUT, "/v1/me/hikes/x", token: ana.token, json: input).status == .badRequest)

            #expect(try await ctx.call(.DELETE, "/v1/me/hikes/hike-0000-ana1", token: ben.token).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/me/hikes/hike-0000-ana1", token: ana.token).status == .noContent)
            #expect(try await ctx.call(.GET, "/v1/me/hikes", token: ana.token).json["total"] as? Int == 1)

            // Erasing the account erases its hikes and what it told of its body.
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: ana.token, json: ["password": TestContext.password]).status == .noContent)
            for table in ["hikes", "hiker_bodies"] {
                let n = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self)
                #expect(n == 0, "\(table)")
            }
        }
    }

    @Test("TRL-10 a scavenger hunt lists an easy or moderate trail's focal points; finds are kept per person and trail, ticked once, and only the finder's",
          arguments: TestDatabase.available)
    func trl10ScavengerHunt(db: TestDatabase) async throws {
        try await TrailsTests.withDemo(db) { ctx in
            let ana = try await ctx.register("ana"), ben = try await ctx.register("ben")
            let trails = DemoTrails.all()
            let easy = try #require(trails.first { $0.difficulty != .hard && $0.points.contains(where: \.focalPoint) })
            let hard = try #require(trails.first { $0.difficulty == .hard })
            let path = "/v1/me/scavenger-hunts/\(easy.id)"
            let hunt = try await ctx.call(.GET, path, token: ana.token)
            let focal = easy.points.filter(\.focalPoint)
            #expect(hunt.status == .ok && hunt.json["total"] as? Int == focal.count && hunt.json["found"] as? Int == 0)
            let first = try #require(focal.first)
            for _ in 0..<2 {
                let marked = try await ctx.call(.PUT, "\(path)/\(first.id)", token: ana.token, json: ["found": true])
                #expect(marked.status == .ok && marked.json["found"] as? Int == 1, "ticking twice is one find")
            }
            let points = try await ctx.call(.GET, path, token: ana.token).json["points"] as? [[String: Any]] ?? []
            #expect(points.first { ($0["point"] as? [String: Any])?["id"] as? String == first.id }?["foundAt"] as? String != nil)
            #expect(try await ctx.call(.GET, path, token: ben.token).json["found"] as? Int == 0, "another person's hunt is their own")
            #expect(try await ctx.call(.PUT, "\(path)/\(first.id)", token: ana.token, json: ["found": false]).json["found"] as? Int == 0)
            #expect(try await ctx.call(.PUT, "\(path)/no-such-point", token: ana.token, json: ["found": true]).status == .notFound)
            let none = try await ctx.call(.GET, "/v1/me/scavenger-hunts/\(hard.id)", token: ana.token)
            #expect(none.status == .notFound && none.problemType == "no-scavenger-hunt")
            #expect(try await ctx.call(.GET, "/v1/me/scavenger-hunts/nope", token: ana.token).status == .notFound)
        }
    }
}
