import Foundation
import Testing
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK: trails near, in view and by name, a trail's page offline, GPX, favourites (TRL-1, TRL-2, TRL-7)")
struct ClientTrailsTests {
    @Test("TRL-2 TRL-1 TRL-7 nearest trails, a page, its GPX read back by the core reader, and a favourite, through the SDK")
    func trails() async throws {
        try await LiveServer.with { server in
            try await TrailsDemo(trails: server.app.waymark.trails).loadIfMissing()
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            let bigBear = Coordinate(latitude: 34.2439, longitude: -116.9114)
            let near = try await client.trails(.near(bigBear), limit: 3)
            #expect(near.trails.count == 3 && near.trails.allSatisfy { ($0.distanceMetres ?? .infinity) < 10_000 })
            let falls = try await client.trails(.all(offset: 0), features: [.waterfall], limit: 100)
            #expect(falls.total >= 3 && falls.trails.allSatisfy { $0.features.contains(.waterfall) })
            let view = try await client.trails(.view(south: 34.2, west: -117.0, north: 34.3, east: -116.85), lines: true)
            #expect(!view.trails.isEmpty && view.trails.allSatisfy { ($0.line?.count ?? 0) >= 2 })
            #expect(try await client.trails(.named("heart rock")).trails.first?.id == "heart-rock")

            let page = try await client.trail(id: near.trails[0].id)
            #expect(page.value.summary.id == near.trails[0].id && !page.value.guidelines.isEmpty)
            let gpx = try GPXDocument.read(try await client.trailGPX(id: near.trails[0].id))
            #expect(gpx.tracks.count == 1 && gpx.name == near.trails[0].name)

            // No weather service on this server: a typed 503 that says so.
            await #expect {
                _ = try await client.trailWeather(id: near.trails[0].id)
            } throws: { error in
                if case WaymarkClientError.problem(let status, _, _, _) = error { return status == 503 }
                return false
            }

            _ = try await client.ensureDeviceIdentity()
            try await client.setFavourite(trailId: "castle-rock", true)
            #expect(try await client.favouriteTrails().map(\.id) == ["castle-rock"])
            try await client.setFavourite(trailId: "castle-rock", false)
            #expect(try await client.favouriteTrails().isEmpty)
        }
    }

    @Test("TRL-4 comments through the SDK: a guest is refused, a member writes, another votes and reports")
    func comments() async throws {
        try await LiveServer.with { server in
            try await TrailsDemo(trails: server.app.waymark.trails).loadIfMissing()
            let ana = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await ana.ensureDeviceIdentity()
            await #expect {
                try await ana.setMyComment(trailId: "zanja-peak", stars: 4, text: "Windy at the top")
            } throws: { error in
                if case WaymarkClientError.problem(let status, _, _, _) = error { return status == 403 }
                return false
            }
            _ = try await ana.register(username: "anasdk", password: "Trails#2026pass")
            let written = try await ana.setMyComment(trailId: "zanja-peak", stars: 4, text: "Windy at the top")
            let ben = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await ben.register(username: "bensdk", password: "Trails#2026pass")
            #expect(try await ben.vote(commentId: written.id, .up) == 1)
            try await ben.report(commentId: written.id, reason: .wrong)
            let page = try await ben.trailComments(trailId: "zanja-peak")
            #expect(page.total == 1 && page.comments.first?.myVote == .up && page.mine == nil)
            #expect(try await ana.trailComments(trailId: "zanja-peak").mine?.text == "Windy at the top")
            try await ana.deleteMyComment(trailId: "zanja-peak")
            #expect(try await ben.trailComments(trailId: "zanja-peak").total == 0)
        }
    }

    @Test("TRL-5 the forum through the SDK: a post pinned near the trail, sent twice with its id and stored once, read by everyone, reported, deleted")
    func forum() async throws {
        try await LiveServer.with { server in
            try await TrailsDemo(trails: server.app.waymark.trails).loadIfMissing()
            let ana = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await ana.register(username: "anaforum", password: "Trails#2026pass")
            let head = try await ana.trail(id: "zanja-peak").value.summary.trailhead
            let pin = Coordinate(latitude: head.latitude + 0.001, longitude: head.longitude)
            let id = UUID().uuidString.lowercased()
            let first = try await ana.postToForum(trailId: "zanja-peak", text: "Shade under the oaks", pin: pin, id: id)
            let again = try await ana.postToForum(trailId: "zanja-peak", text: "Shade under the oaks", pin: pin, id: id)
            #expect(first.id == id && again.id == id && first.mine)
            let guest = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            let read = try await guest.trailForum(trailId: "zanja-peak")
            #expect(read.total == 1 && read.posts.first?.text == "Shade under the oaks" && read.posts.first?.mine == false)
            #expect(abs((read.posts.first?.pin.latitude ?? 0) - pin.latitude) < 1e-9)
            let ben = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await ben.register(username: "benforum", password: "Trails#2026pass")
            try await ben.report(forumPostId: id, reason: .spam)
            try await ana.deleteForumPost(trailId: "zanja-peak", id: id)
            #expect(try await guest.trailForum(trailId: "zanja-peak").total == 0)
        }
    }

    @Test("TRL-6 hikes through the SDK: positions recorded with the core's figures, saved once under their id, listed, exported and deleted")
    func hikes() async throws {
        try await LiveServer.with { server in
            try await TrailsDemo(trails: server.app.waymark.trails).loadIfMissing()
            let ana = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await ana.ensureDeviceIdentity()
            try await ana.setHikerBody(heightCentimetres: 165, weightKilograms: 60, birthYear: 1995)
            let head = try await ana.trail(id: "zanja-peak").value.summary.trailhead
            let start = Date().addingTimeInterval(-1200)
            let fixes = (0..<40).map { i in
                let c = Geo.offset(Coordinate(latitude: head.latitude, longitude: head.longitude), east: Double(i) * 10, north: 0)
                return HikeFix(time: start.addingTimeInterval(Double(i) * 8), latitude: c.latitude, longitude: c.longitude, elevation: 400, accuracy: 6)
            }
            // Recorded from a stream of positions, the live figures as they come.
            let (positions, feed) = AsyncStream<HikeFix>.makeStream()
            for f in fixes { feed.yield(f) }
            feed.yield(fixes[3])  // a late repeat of an old position changes nothing
            feed.finish()
            let seen = Counter()
            var recording = try await ana.record(HikeRecording(trailId: "zanja-peak", startedAt: start, body: HikerBody(heightCentimetres: 165, weightKilograms: 60, ageYears: 31)),
                                                 from: positions, figures: { _ in seen.add() })
            #expect(seen.value == 41 && recording.fixes.count == 40)
            let live = recording.statistics(at: start.addingTimeInterval(330))
            #expect(live == HikeStatistics(fixes: fixes, start: start, end: start.addingTimeInterval(330), body: recording.body))
            let id = recording.id
            let saved = try await ana.saveHike(recording, endedAt: start.addingTimeInterval(330))
            recording.body = HikerBody()
            _ = try await ana.saveHike(recording, endedAt: start.addingTimeInterval(330))
            #expect(abs(saved.summary.distanceMetres - live.distanceMetres) < 0.01 && saved.summary.steps == live.steps)
            #expect(saved.summary.calories != nil, "a device identity may tell its body too")
            #expect(try await ana.hikes().total == 1)
            let gpx = try GPXDocument.read(try await ana.hikeGPX(id: id))
            #expect(gpx.tracks.first?.segments.first?.count == 40)
            try await ana.deleteHike(id: id)
            #expect(try await ana.hikes().total == 0)
        }
    }

    @Test("TRL-10 a scavenger hunt through the SDK: an easy trail's focal points, a find ticked once and unticked; a hard trail has none")
    func scavengerHunt() async throws {
        try await LiveServer.with { server in
            try await TrailsDemo(trails: server.app.waymark.trails).loadIfMissing()
            let ana = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await ana.ensureDeviceIdentity()
            let trails = DemoTrails.all()
            let easy = try #require(trails.first { $0.difficulty != .hard && $0.points.contains(where: \.focalPoint) })
            let hard = try #require(trails.first { $0.difficulty == .hard })
            let focal = easy.points.filter(\.focalPoint)
            let hunt = try await ana.scavengerHunt(trailId: easy.id)
            #expect(hunt.total == focal.count && hunt.found == 0 && hunt.points.map(\.point.id) == focal.map(\.id))
            let first = try #require(focal.first)
            _ = try await ana.markScavengerFind(trailId: easy.id, pointId: first.id, found: true)
            let twice = try await ana.markScavengerFind(trailId: easy.id, pointId: first.id, found: true)
            #expect(twice.found == 1 && twice.points.first { $0.point.id == first.id }?.foundAt != nil)
            #expect(try await ana.markScavengerFind(trailId: easy.id, pointId: first.id, found: false).found == 0)
            #expect(await ClientSocialTests.refused(404, "no-scavenger-hunt") { _ = try await ana.scavengerHunt(trailId: hard.id) })
        }
    }
}

/// Counts calls from a `@Sendable` closure.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
