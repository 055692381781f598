import Foundation
import Testing
import Vapor
@testable import WaymarkServer

@Suite("Write budgets per client (issue 6: rate limits hold)")
struct RateLimitTests {
    @Test("QLT-2 a client writing faster than its budget gets 429 with Retry-After and nothing is stored; other clients, reads and gateways go on",
          arguments: TestDatabase.available)
    func writesBeyondTheBudgetAreRefused(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: {
            $0.passwordHashCost = 4
            $0.writeRatePerSecond = 0.001  // one permit per ~17 minutes: no refill while the test runs, however slow the database
            $0.writeBurst = 6
        }) { ctx in
            let hammer = try await ctx.device()  // one write of the address's budget
            let bystander = try await ctx.device()
            var statuses: [UInt] = []
            for i in 0..<10 {
                let r = try await ctx.call(.PUT, "/v1/me/permits", token: hammer.token, json: ctx.permitsBody(i % 2 == 0 ? ["green"] : ["black"]))
                statuses.append(r.status.code)
                if r.status == .tooManyRequests {
                    #expect(r.problemType == "too-many-requests")
                    #expect(Int(r.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
                }
            }
            #expect(statuses == Array(repeating: 200, count: 6) + Array(repeating: 429, count: 4))
            // The sixth write (black) was the last stored; the refused ones changed nothing.
            #expect(TestContext.permitCodes(try await ctx.call(.GET, "/v1/me/permits", token: hammer.token).json) == ["black"])
            for _ in 0..<20 { #expect(try await ctx.call(.GET, "/v1/me/permits", token: hammer.token).status == .ok, "reads are not limited") }
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: bystander.token, json: ctx.permitsBody(["green"])).status == .ok,
                    "another client has its own budget")
            let sensors = Fixtures.sensorIds(lot: "L")
            for i in 0..<10 {
                let r = try await ctx.ingest([TestContext.event(sensors[i], true, at: ctx.clock.now, seq: i + 1)])
                #expect(r.status == .ok, "gateways are not limited")
            }
        }
    }

    @Test("QLT-2 the limiter forgets idle clients once it tracks many, so forged tokens cannot exhaust memory")
    func bounded() {
        let limiter = WriteRateLimiter(perSecond: 1_000_000, burst: 1, pruneAbove: 100)
        for i in 0..<1_000 { _ = limiter.take(client: "t:\(i)") }
        #expect(limiter.trackedClients <= 101)
    }
}
