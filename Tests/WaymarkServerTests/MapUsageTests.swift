import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Map images counted against a daily budget (PRK-20)", .serialized)
struct MapUsageTests {
    /// The eight bytes every PNG starts with and a few after: the proxy passes bytes, it never reads them.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

    @Test("PRK-20 map images come through the server, counted per day; past the daily limit they are refused until the next day, the app is told to show its plain map, and operators see the counts",
          arguments: TestDatabase.available)
    func dailyBudget(db: TestDatabase) async throws {
        let upstream = try await RecordedHTTPServer.start(path: "osm")
        upstream.respond(.init(status: .ok, body: Self.png, contentType: "image/png"))
        do {
            try await TestApp.with(db, configure: {
                $0.tileURLTemplate = "\(upstream.url)/osm/{z}/{x}/{y}.png"
                $0.mapTileDailyLimit = 3
            }) { ctx in
                let config = try await ctx.json("/v1/config")
                #expect(config["tileURLTemplate"] as? String == "/tiles/default/{z}/{x}/{y}")
                #expect(config["mapImagesPaused"] as? Bool == false && config["mapUsageCounted"] as? Bool == true)

                let tile = try await ctx.call(.GET, "/tiles/default/15/5600/13000")
                #expect(tile.status == .ok && tile.body == Self.png)
                #expect(tile.headers.first(name: .contentType) == "image/png")
                #expect(tile.headers.first(name: .cacheControl)?.contains("max-age") == true, "the browser keeps it")
                #expect(upstream.requestPaths == ["/osm/15/5600/13000.png"])

                // Numbers that name no image, and styles not configured, fetch nothing.
                for bad in ["/tiles/default/15/32768/0", "/tiles/default/20/0/0", "/tiles/default/-1/0/0", "/tiles/default/a/b/c",
                            "/tiles/satellite/1/0/0", "/tiles/other/1/0/0", "/tiles/default/1/0/2"] {
                    let r = try await ctx.call(.GET, bad)
                    #expect(r.status == .notFound, "\(bad): \(r.status)")
                }
                #expect(upstream.requestPaths.count == 1)

                // The tile server failing is said as such, and the request it cost counts.
                upstream.respond(.init(status: .internalServerError, body: Data("down".utf8)), path: "/osm/15/5601/13000.png")
                let failed = try await ctx.call(.GET, "/tiles/default/15/5601/13000")
                #expect(failed.status == .badGateway && failed.problemType == "map-image-unavailable")
                #expect(try await ctx.call(.GET, "/tiles/default/15/5602/13000").status == .ok)

                // The fourth is past the day's three: refused without asking the tile server.
                let spent = try await ctx.call(.GET, "/tiles/default/15/5603/13000")
                #expect(spent.status == .tooManyRequests && spent.problemType == "map-budget-spent")
                let retry = Int(spent.headers.first(name: "Retry-After") ?? "") ?? 0
                #expect(retry > 0 && retry <= 86_400, "until the next day begins")
                #expect(upstream.requestPaths.count == 3)
                #expect(try await ctx.json("/v1/config")["mapImagesPaused"] as? Bool == true)

                // Operators of the whole Waymark see the day's count and the limit.
                let olive = try await ctx.register("olive")
                #expect(try await ctx.app.grantOperator(login: "olive"))
                let report = try await ctx.call(.GET, "/v1/operator/analytics", token: olive.token).json
                let usage = try #require(report["mapUsage"] as? [String: Any])
                #expect(usage["tileDailyLimit"] as? Int == 3)
                let days = usage["days"] as? [[String: Any]] ?? []
                #expect(days.count == 14 && days.last?["tiles"] as? Int == 3 && days.dropLast().allSatisfy { $0["tiles"] as? Int == 0 })
                #expect(days.last?["date"] as? String == report["to"] as? String)

                // Directions are counted on their way to the maps app, never refused; only numbers go through.
                let go = try await ctx.call(.GET, "/go/directions?lat=33.8812&lon=-117.8853&app=google")
                #expect(go.status == .seeOther || go.status == .found, "\(go.status)")
                #expect(go.headers.first(name: .location) == "https://www.google.com/maps/dir/?api=1&destination=33.881200,-117.885300")
                let apple = try await ctx.call(.GET, "/go/directions?lat=33.8812&lon=-117.8853&app=apple")
                #expect(apple.headers.first(name: .location) == "https://maps.apple.com/?daddr=33.881200,-117.885300")
                for bad in ["lat=91&lon=0", "lat=1e400&lon=0", "lat=0", "lat=0&lon=0&app=evil.example", "lat=nan&lon=0"] {
                    let r = try await ctx.call(.GET, "/go/directions?\(bad)")
                    #expect(r.status == .badRequest && r.headers.first(name: .location) == nil, "\(bad): \(r.status)")
                }
                let counted = try await ctx.call(.GET, "/v1/operator/analytics", token: olive.token).json["mapUsage"] as? [String: Any]
                #expect((counted?["days"] as? [[String: Any]])?.last?["directions"] as? Int == 2)

                // A new day, a new budget.
                ctx.clock.advance(by: 86_400)
                #expect(try await ctx.call(.GET, "/tiles/default/15/5603/13000").status == .ok)
                #expect(try await ctx.json("/v1/config")["mapImagesPaused"] as? Bool == false)
            }
        } catch {
            try await upstream.stop()
            throw error
        }
        try await upstream.stop()
    }

    @Test("PRK-20 without counting, the app fetches map images from the tile server itself and the server has no tile route", arguments: TestDatabase.available)
    func notCounted(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let config = try await ctx.json("/v1/config")
            #expect(config["tileURLTemplate"] as? String == WaymarkConfiguration().tileURLTemplate)
            #expect(config["mapImagesPaused"] == nil && config["mapUsageCounted"] == nil)
            #expect(try await ctx.call(.GET, "/go/directions?lat=0&lon=0").status == .notFound)
            #expect(try await ctx.call(.GET, "/tiles/default/1/0/0").status == .notFound)
            let olive = try await ctx.register("olive")
            #expect(try await ctx.app.grantOperator(login: "olive"))
            #expect(try await ctx.call(.GET, "/v1/operator/analytics", token: olive.token).json["mapUsage"] == nil)
        }
    }
}
