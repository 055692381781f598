import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK outbox: weekly schedule blocks added and edited offline (PRK-16, PRK-19)")
struct ClientScheduleOutboxTests {
    @Test("PRK-16 PRK-19 a block added offline under the app's id, then given a lot, is sent as one write; one added and deleted offline leaves nothing")
    func blocksMadeOffline() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-schedule-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let tokens = InMemoryTokenStore()
        let configure: (inout WaymarkConfiguration) -> Void = { $0.passwordHashCost = 4 }
        let first = try await LiveServer.start(configure: configure)
        defer { first.removeDatabase() }
        // A generous timeout while the server is up, a short one while it is down (the HTTP client
        // keeps retrying a refused connection until the deadline); the clients share outbox and session.
        var member = WaymarkClient(serverURL: first.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(15))
        let lotA: String
        do {
            try await member.register(username: "sdk_offline_planner", password: "Str0ng!pass")
            lotA = try #require(try await member.lots(siteId: first.siteId).first { $0.code == "A" }).id
        } catch {
            try? await first.stop()
            throw error
        }
        let port = try #require(first.url.port)
        try await first.stop()

        member = WaymarkClient(serverURL: first.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(2))
        let tuesday = UUID().uuidString.lowercased()
        let friday = UUID().uuidString.lowercased()
        for action in [Outbox.Write.Action.putScheduleBlock(id: tuesday, weekday: 3, startSlot: 18, endSlot: 22, lotId: nil),
                       .putScheduleBlock(id: friday, weekday: 6, startSlot: 20, endSlot: 24, lotId: nil),
                       .putScheduleBlock(id: tuesday, weekday: 3, startSlot: 18, endSlot: 24, lotId: lotA),
                       .deleteScheduleBlock(id: friday)] {
            guard case .queued = try await member.send(action) else {
                Issue.record("\(action) was not queued while the server was down")
                return
            }
        }
        #expect(await member.outbox.writes.map(\.action) == [.putScheduleBlock(id: tuesday, weekday: 3, startSlot: 18, endSlot: 24, lotId: lotA),
                                                              .deleteScheduleBlock(id: friday)],
                "a later write of a block replaces the one waiting")

        let second = try await LiveServer.start(databasePath: first.databasePath) { config in
            configure(&config)
            config.port = port
        }
        member = WaymarkClient(serverURL: first.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(15))
        do {
            let results = await member.flushOutbox()
            #expect(results.count == 2)
            guard results.count == 2, case .success(.scheduleBlock(let added)) = results[0].result else {
                Issue.record("the block was not added: \(results)")
                try await second.stop()
                return
            }
            #expect(added.id == tuesday)
            #expect(added.lotId == lotA)
            guard case .success(.scheduleBlockDeleted(id: friday)) = results[1].result else {
                Issue.record("deleting a block never sent is not done: \(results[1].result)")
                try await second.stop()
                return
            }
            #expect(await member.outbox.writes.isEmpty)
            let blocks = try await member.schedule()
            #expect(blocks.map(\.id) == [tuesday])
            #expect(blocks.first?.startSlot == 18)
            #expect(blocks.first?.endSlot == 24)
        } catch {
            try? await second.stop()
            throw error
        }
        try await second.stop()
    }
}
