import Foundation
import Logging
import Testing
import WaymarkClient
import WaymarkCore

@Suite("Gateway emulator against a real server (PRK-3)", .serialized)
struct GatewayEmulatorTests {
    @Test("PRK-3 a simulated weekday morning fills the structures first, through the real ingest endpoint")
    func morningArrivals() async throws {
        try await LiveServer.with { server in
            let client = WaymarkClient(serverURL: server.url, gatewayKey: server.gatewayKey)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
            // Wednesday 2026-11-18, 06:00 in Fullerton; an hour of campus time per real second.
            let start = calendar.date(from: DateComponents(year: 2026, month: 11, day: 18, hour: 6))!
            var emulator = GatewayEmulator(client: client, speed: 3600, simulatedStart: start, duration: 4,
                                           progress: .quiet(Logger(label: "test")))
            emulator.tick = .milliseconds(250)
            let totals = try await emulator.run()
            #expect(totals.failedRequests == 0, "last error: \(totals.lastError ?? "none")")
            #expect(totals.sent > 1000)
            #expect(totals.accepted == totals.sent)

            let lots = try await client.lots(siteId: server.siteId)
            let occupancy = try await client.occupancy(siteId: server.siteId).value
            let byId = Dictionary(uniqueKeysWithValues: occupancy.lots.map { ($0.lotId, $0) })
            let structures = lots.filter { $0.kind == .structure }.compactMap { byId[$0.id]?.fraction }
            let surface = lots.filter { $0.kind == .surface }.compactMap { byId[$0.id]?.fraction }
            #expect(!structures.isEmpty && !surface.isEmpty)
            let meanStructure = structures.reduce(0, +) / Double(structures.count)
            let meanSurface = surface.reduce(0, +) / Double(surface.count)
            #expect(meanStructure > 0.3, "structures at \(meanStructure)")
            #expect(meanStructure > meanSurface, "structures \(meanStructure) vs surface \(meanSurface)")
        }
    }

    @Test("PRK-3 a batch cut in transit or refused for the moment is resent; a refused batch is not")
    func resendsOnlyWhatMaySucceedLater() {
        #expect(GatewayEmulator.isTransient(WaymarkClientError.unreachable("connection reset by peer")))
        #expect(GatewayEmulator.isTransient(WaymarkClientError.unexpectedStatus(503)))
        #expect(GatewayEmulator.isTransient(WaymarkClientError.problem(status: 429, type: "t", title: "Too many", detail: nil)))
        #expect(!GatewayEmulator.isTransient(WaymarkClientError.problem(status: 400, type: "t", title: "Bad", detail: nil)))
        #expect(!GatewayEmulator.isTransient(WaymarkClientError.problem(status: 401, type: "t", title: "Key", detail: nil)))
        #expect(!GatewayEmulator.isTransient(CancellationError()))
    }
}
