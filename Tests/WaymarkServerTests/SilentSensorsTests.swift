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
