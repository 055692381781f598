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
        let app = try await OfflineApp.start("schedule-outbox") { $0.passwordHashCost = 4 }
        defer { app.remove() }
        let lotA = try await app.beforeGoingDown {
            let member = app.launch(online: true)
            try await member.register(username: "sdk_offline_planner", password: "Str0ng!pass")
            return try #require(try await member.lots(siteId: app.server.siteId).first { $0.code == "A" }).id
        }

        let member = app.launch(online: false)
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

        try await app.whenBack { () async throws in
            let member = app.launch(online: true)
            let results = await member.flushOutbox()
            #expect(results.count == 2)
            guard results.count == 2, case .success(.scheduleBlock(let added)) = results[0].result else {
                Issue.record("the block was not added: \(results)")
                return
            }
            #expect(added.id == tuesday)
            #expect(added.lotId == lotA)
            guard case .success(.scheduleBlockDeleted(id: friday)) = results[1].result else {
                Issue.record("deleting a block never sent is not done: \(results[1].result)")
                return
            }
            #expect(await member.outbox.writes.isEmpty)
            let blocks = try await member.schedule()
            #expect(blocks.map(\.id) == [tuesday])
            #expect(blocks.first?.startSlot == 18)
            #expect(blocks.first?.endSlot == 24)
        }
    }
}
