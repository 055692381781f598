import Foundation
import Testing
import WaymarkClient
import WaymarkCore

@Suite("SDK against a real server (PRK-1, PRK-5, PRK-19)", .serialized)
struct ClientParkingTests {
    @Test("PRK-1 PRK-5 the SDK reads sites, lots, spots, occupancy and spot states")
    func reads() async throws {
        try await LiveServer.with { server in
            let client = WaymarkClient(serverURL: server.url)
            let sites = try await client.sites()
            #expect(sites.map(\.id) == [server.siteId])
            let lots = try await client.lots(siteId: server.siteId)
            #expect(lots.count >= 8)
            let spots = try await client.spots(lotId: lots[0].id)
            #expect(spots.count == lots[0].capacity)
            let occupancy = try await client.occupancy(siteId: server.siteId)
            #expect(!occupancy.isFromCache)
            #expect(occupancy.value.lots.count == lots.count)
            let states = try await client.spotStates(lotId: lots[0].id)
            #expect(states.value.states.count == spots.count)
            let typical = try await client.typicalOccupancy(lotId: lots[0].id, weekday: 2)
            #expect(typical.halfHours.count == 48)
            await #expect(throws: WaymarkClientError.self) { try await client.lots(siteId: "no-such-site") }
        }
    }

    @Test("PRK-19 when the server is unreachable the last snapshot is returned with its age")
    func offlineSnapshot() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let server = try await LiveServer.start()
        defer { server.removeDatabase() }
        // A generous timeout while the server is up (the suite runs many servers at once); then an
        // app started offline on the same cache, with a short one, since the HTTP client retries a
        // refused connection until the deadline.
        let online = WaymarkClient(serverURL: server.url, cacheDirectory: cache, requestTimeout: .seconds(15))
        let lots = try await online.lots(siteId: server.siteId)
        let fresh = try await online.occupancy(siteId: server.siteId)
        let states = try await online.spotStates(lotId: lots[0].id)
        try await server.stop()
        let client = WaymarkClient(serverURL: server.url, cacheDirectory: cache, requestTimeout: .seconds(3))

        let cached = try await client.occupancy(siteId: server.siteId)
        #expect(cached.isFromCache)
        #expect(cached.value == fresh.value)
        #expect(cached.fetchedAt == fresh.fetchedAt)
        #expect(cached.age(now: fresh.fetchedAt.addingTimeInterval(90)) == 90)
        let cachedStates = try await client.spotStates(lotId: lots[0].id)
        #expect(cachedStates.isFromCache)
        #expect(cachedStates.value.states == states.value.states)

        // Nothing cached for this lot: the error says the server is unreachable.
        await #expect {
            _ = try await client.spotStates(lotId: lots[1].id)
        } throws: { error in
            if case WaymarkClientError.unreachable = error { return true }
            return false
        }
    }

    // Reads live streams until a count is reached: a missing event fails at the limit instead of hanging.
    @Test("PRK-5 live events arrive after ingest, and a reconnect resumes with no gap and no duplicate", .timeLimit(.minutes(1)))
    func liveStreamResumes() async throws {
        try await LiveServer.with { server in
            let client = WaymarkClient(serverURL: server.url, gatewayKey: server.gatewayKey)
            let lots = try await client.lots(siteId: server.siteId)
            let spots = try await client.spots(lotId: lots[1].id)
            let snapshot = try await client.occupancy(siteId: server.siteId)

            // First listener: takes the first 3 of 6 changes, then goes away.
            let stream = client.live(siteId: server.siteId, lastEventId: snapshot.value.lastEventId)
            let reports = (0..<6).map { SensorReport(sensorId: spots[$0].sensorId, occupied: true, observedAt: Date(), sequence: 1) }
            let first = Task {
                var got: [(Int64, Int)] = []
                for try await event in stream {
                    if case .spot(let id, let change) = event { got.append((id, change.ordinal)) }
                    if got.count == 3 { break }
                }
                return got
            }
            try await Task.sleep(for: .milliseconds(300))
            for r in reports {
                let result = try await client.ingest([r])
                #expect(result.accepted == 1)
            }
            let firstThree = try await first.value
            #expect(firstThree.map(\.1) == [0, 1, 2])

            // Resume from the third event: exactly the other three, in order.
            var rest: [(Int64, Int)] = []
            for try await event in client.live(siteId: server.siteId, lastEventId: firstThree.last!.0) {
                if case .spot(let id, let change) = event { rest.append((id, change.ordinal)) }
                if rest.count == 3 { break }
            }
            #expect(rest.map(\.1) == [3, 4, 5])
            #expect(rest.map(\.0) == rest.map(\.0).sorted())
            #expect(Set(rest.map(\.0)).isDisjoint(with: firstThree.map(\.0)))
            #expect(rest.allSatisfy { $0.0 > firstThree.last!.0 })
        }
    }
}
