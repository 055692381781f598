import Foundation
import Testing
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK: venues, floor plans, search and routes, readable offline (WAY-1…WAY-5)")
struct ClientWayfindingTests {
    static func importPalmDesert(_ server: LiveServer) async throws -> String {
        let archive = IMDFArchive(manifest: ["version": .string("1.0.0")], features: DemoVenue.palmDesert.features())
        return try await server.app.importVenue(files: try archive.files(), strict: true).venueId
    }

    @Test("WAY-3 WAY-4 WAY-5 search a room, then a step-free route to it from another floor, through the SDK")
    func searchAndRoute() async throws {
        try await LiveServer.with { server in
            let venueId = try await Self.importPalmDesert(server)
            let client = WaymarkClient(serverURL: server.url, requestTimeout: .seconds(15))
            #expect(try await client.venues().value.map(\.id) == [venueId])
            let hits = try await client.searchPlaces("RG 201", venueId: venueId)
            let room = try #require(hits.first)
            #expect(room.title == "RG-201" && room.kind == .room)
            let from = try #require(try await client.searchPlaces("RG-101").first)
            let route = try await client.route(venueId: venueId, from: .place(from.id), to: .place(room.id), stepFree: true)
            #expect(route.stepFree)
            #expect(route.steps.contains { $0.kind == .elevator && $0.text.hasPrefix("Take the elevator up to") })
            #expect(route.steps.last?.levelId == room.levelId)
            let nearest = try await client.route(venueId: venueId, from: .place(room.id), to: .nearest(.restroom))
            #expect(nearest.steps.last?.kind == .arrive)
            await #expect {
                _ = try await client.route(venueId: venueId, from: .place(from.id), to: .place("nowhere"))
            } throws: { error in
                if case WaymarkClientError.problem(let status, _, _, _) = error { return status == 404 }
                return false
            }
        }
    }

    @Test("WAY-2 a venue and the floor plans once read are there offline, with their age")
    func offline() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let server = try await LiveServer.start()
        defer { server.removeDatabase() }
        let venueId = try await Self.importPalmDesert(server)
        let online = WaymarkClient(serverURL: server.url, cacheDirectory: cache, requestTimeout: .seconds(15))
        let venue = try await online.venue(id: venueId)
        let level = try #require(venue.value.buildings.first?.levels.first)
        let plan = try await online.levelMap(venueId: venueId, levelId: level.id)
        #expect(!plan.value.features.isEmpty)
        try await server.stop()

        let offline = WaymarkClient(serverURL: server.url, cacheDirectory: cache, requestTimeout: .seconds(3))
        let cachedVenue = try await offline.venue(id: venueId)
        #expect(cachedVenue.isFromCache && cachedVenue.value == venue.value)
        let cachedPlan = try await offline.levelMap(venueId: venueId, levelId: level.id)
        #expect(cachedPlan.isFromCache && cachedPlan.value.features.count == plan.value.features.count)
    }
}
