import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
@testable import WaymarkServer

@Suite("Occupancy snapshot bytes (PRK-4, PRK-5)")
struct OccupancyResponseTests {
    static func lot(_ id: String, version: Int64, occupied: Int, changedAt: Date?) -> Components.Schemas.LotOccupancy {
        .init(lotId: id, total: 40, occupied: occupied, held: 1, booked: 0, free: 39 - occupied, closed: 2, unknown: 0,
              fraction: Double(occupied + 1) / 40, level: occupied > 30 ? .red : .green, version: version, lastChangeAt: changedAt)
    }

    /// What the generated server code writes for the same value.
    static func generated(_ value: Components.Schemas.SiteOccupancy) async throws -> [UInt8] {
        var headers = HTTPFields()
        let body = try Converter(configuration: .waymark).setResponseBodyAsJSON(value, headerFields: &headers, contentType: "application/json; charset=utf-8")
        return try await [UInt8](collecting: body, upTo: 1 << 20)
    }

    @Test("PRK-4 the cached snapshot JSON is byte for byte what the generated encoder writes, also after a lot changes")
    func sameBytesAsGenerated() async throws {
        let json = OccupancyJSON()
        let asOf = Date(timeIntervalSince1970: 1_795_000_000.123)
        var snapshot = SiteOccupancySnapshot(siteId: "5e0c5a1e-3f2b-4d7c-9a51-0d1b2c3d4e5f", lastEventId: 41, lots: [
            Self.lot("a1", version: 3, occupied: 12, changedAt: Date(timeIntervalSince1970: 1_794_999_000.5)),
            Self.lot("b2", version: 7, occupied: 35, changedAt: nil),
            Self.lot("c3", version: 1, occupied: 0, changedAt: Date(timeIntervalSince1970: 1_790_000_000)),
        ])
        func expected() async throws -> [UInt8] {
            try await Self.generated(.init(siteId: snapshot.siteId, asOf: asOf, lastEventId: snapshot.lastEventId, lots: snapshot.lots))
        }
        #expect(try json.body(snapshot, asOf: asOf) == (try await expected()))
        // Cached now; a second answer must not differ.
        #expect(try json.body(snapshot, asOf: asOf) == (try await expected()))
        // One lot moves on: its new version is written, the others come from the cache.
        snapshot.lots[1] = Self.lot("b2", version: 8, occupied: 36, changedAt: Date(timeIntervalSince1970: 1_795_000_000))
        snapshot.lastEventId = 42
        #expect(try json.body(snapshot, asOf: asOf) == (try await expected()))
        // A reader holding an older snapshot gets its own version, not the newer cached one.
        var older = snapshot
        older.lots[1] = Self.lot("b2", version: 7, occupied: 35, changedAt: nil)
        let olderBody = try json.body(older, asOf: asOf)
        #expect(olderBody == (try await Self.generated(.init(siteId: older.siteId, asOf: asOf, lastEventId: older.lastEventId, lots: older.lots))))
        #expect(try json.body(snapshot, asOf: asOf) == (try await expected()))
    }

    @Test("PRK-4 only plain ids and JSON-accepting requests take the cached path")
    func whatTakesTheCachedPath() {
        #expect(OccupancyResponseMiddleware.isPlainId("5e0c5a1e-3f2b-4d7c-9a51-0d1b2c3d4e5f"))
        #expect(!OccupancyResponseMiddleware.isPlainId("a%22b"))
        #expect(!OccupancyResponseMiddleware.isPlainId(""))
        #expect(!OccupancyResponseMiddleware.isPlainId("ä"))
        #expect(OccupancyResponseMiddleware.acceptsJSON(nil))
        #expect(OccupancyResponseMiddleware.acceptsJSON("application/json"))
        #expect(OccupancyResponseMiddleware.acceptsJSON("text/html, */*;q=0.8"))
        #expect(OccupancyResponseMiddleware.acceptsJSON("Application/JSON; charset=utf-8"))
        #expect(!OccupancyResponseMiddleware.acceptsJSON("text/html"))
        #expect(!OccupancyResponseMiddleware.acceptsJSON("application/problem+json"))
    }

    @Test("PRK-5 served snapshots: the same body and headers on both paths, 304 for a current tag, 406 for a wrong Accept", arguments: TestDatabase.available)
    func servedSnapshot(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let path = "/v1/sites/\(ctx.siteId)/occupancy"
            _ = try await ctx.ingest([TestContext.event(Fixtures.sensorIds(lot: "L")[0], true, at: ctx.clock.now, seq: 1)])
            // The live tail merges a row's counters before it moves its cursor past the row, so
            // until it has read the ingest both answers have the same counters but may name
            // different last events. Read it now, so that both answers are of one position.
            try await ctx.services.parking.live.pollOnce()
            let cached = try await ctx.get(path)
            #expect(cached.status == .ok)
            #expect(cached.headers.first(name: .contentType) == "application/json; charset=utf-8")
            #expect(cached.headers.first(name: .cacheControl) == "no-cache")
            let etag = try #require(cached.headers.first(name: .eTag))
            // The handler's own answer (a site that is known but has no lots never reaches the
            // cached path; here the generated path is reached through the handler directly).
            let handler = APIHandler(services: ctx.app.waymark)
            let output = try await handler.getSiteOccupancy(.init(path: .init(siteId: ctx.siteId)))
            let body = try #require(try output.ok.body.json)
            let generated = try await Self.generated(body)
            let served = Array(cached.body.readableBytesView)
            // Equal but for the time of the answer.
            func withoutAsOf(_ bytes: [UInt8]) throws -> [String: NSObject] {
                var o = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: NSObject])
                #expect(o.removeValue(forKey: "asOf") != nil)
                return o
            }
            #expect(try withoutAsOf(served) == withoutAsOf(generated))
            #expect(try #require(output.ok.headers.eTag) == etag)

            // The served bytes came from the middleware, not from the generated path.
            let middleware = OccupancyResponseMiddleware(live: ctx.app.waymark.parking.live, queries: ctx.app.waymark.parking.queries, json: OccupancyJSON(), now: { ctx.clock.now })
            let (direct, directBody) = try await middleware.intercept(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), body: nil,
                metadata: .init(pathParameters: ["siteId": Substring(ctx.siteId)]), operationID: "getSiteOccupancy"
            ) { _, _, _ in
                Issue.record("a plain snapshot request must not reach the generated path")
                return (HTTPResponse(status: .internalServerError), nil)
            }
            #expect(direct.status == .ok)
            #expect(direct.headerFields[.eTag] == etag)
            #expect(try withoutAsOf(try await [UInt8](collecting: try #require(directBody), upTo: 1 << 20)) == withoutAsOf(served))

            #expect(try await ctx.get(path, headers: ["If-None-Match": etag]).status == .notModified)
            #expect(try await ctx.get(path, headers: ["If-None-Match": "W/\(etag), \"x\""]).status == .notModified)
            let wrong = try await ctx.get(path, headers: ["Accept": "text/html"])
            #expect(wrong.status.code >= 400 && wrong.status.code < 500)
            #expect(wrong.headers.first(name: .contentType) == "application/problem+json")
        }
    }
}
