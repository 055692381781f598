import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer
import WaymarkAPI

/// Bad input gets a clear RFC 9457 answer, never a 500.
@Suite("Problem responses (QLT-2, PRK-2)")
struct ProblemTests {
    func expectProblem(_ res: TestingHTTPResponse, _ status: HTTPStatus, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(res.status == status, sourceLocation: sourceLocation)
        #expect(res.headers.contentType?.description.hasPrefix("application/problem+json") == true, sourceLocation: sourceLocation)
        let body = try JSONSerialization.jsonObject(with: Data(buffer: res.body)) as? [String: Any]
        #expect(body?["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
        #expect((body?["type"] as? String)?.hasPrefix("https://waymark.dev/problems/") == true, sourceLocation: sourceLocation)
        #expect(body?["title"] is String, sourceLocation: sourceLocation)
    }

    @Test("QLT-2 unknown ids and paths are 404 problems", arguments: TestDatabase.available)
    func unknownIds(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            for path in ["/v1/sites/nope", "/v1/sites/nope/lots", "/v1/sites/nope/occupancy", "/v1/lots/nope",
                         "/v1/lots/nope/spots", "/v1/lots/nope/spot-states", "/v1/lots/nope/typical-occupancy",
                         "/v1/lots/..%2F..%2Fetc%2Fpasswd/spots", "/v1/sites/nope/live", "/no/such/route"] {
                try expectProblem(try await ctx.get(path), .notFound)
            }
        }
    }

    @Test("PRK-2 malformed JSON, wrong types, wrong content type and oversized bodies are 4xx", arguments: TestDatabase.available)
    func badBodies(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: { $0.maxBodyBytes = 64 * 1024 }) { ctx in
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            headers.add(name: .authorization, value: "Bearer \(ctx.gatewayKey)")
            let t = try ctx.tester
            let cases: [(String, HTTPStatus)] = [
                (#"{"events":[{"sensorId":"a","occupied":true"#, .badRequest),                       // truncated
                (#"{"events":"many"}"#, .badRequest),                                                  // wrong type
                (#"{"events":[{"sensorId":1,"occupied":true,"observedAt":"2026-11-18T17:00:00Z","sequence":1}]}"#, .badRequest),
                (#"{"events":[{"sensorId":"a","occupied":"yes","observedAt":"2026-11-18T17:00:00Z","sequence":1}]}"#, .badRequest),
                (#"{"events":[{"sensorId":"a","occupied":true,"observedAt":"yesterday","sequence":1}]}"#, .badRequest),
                (#"{"events":[{"sensorId":"a","occupied":true,"observedAt":"2026-11-18T17:00:00Z","sequence":1e40}]}"#, .badRequest),
                (#"{}"#, .badRequest),
                ("", .badRequest),
                (String(repeating: "[", count: 10_000), .badRequest),                                  // deep nesting
            ]
            for (body, status) in cases {
                let res = try await t.sendRequest(.POST, "/v1/gateway/events", headers: headers, body: ByteBuffer(string: body))
                try expectProblem(res, status)
            }
            var xml = headers
            xml.replaceOrAdd(name: .contentType, value: "application/xml")
            try expectProblem(try await t.sendRequest(.POST, "/v1/gateway/events", headers: xml, body: ByteBuffer(string: "<events/>")), .unsupportedMediaType)

            let huge = #"{"events":["# + String(repeating: #"{"sensorId":"x","occupied":true,"observedAt":"2026-11-18T17:00:00Z","sequence":1},"#, count: 2_000) + "]}"
            try expectProblem(try await t.sendRequest(.POST, "/v1/gateway/events", headers: headers, body: ByteBuffer(string: huge)), .payloadTooLarge)

            // Nothing of the above was stored.
            let n = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM spot_states WHERE observed_at IS NOT NULL").first()!
            #expect(try n.decode(column: "n", as: Int.self) == 0)
            // And the server is still healthy.
            #expect(try await ctx.get("/health").status == .ok)
            #expect(try await ctx.get("/ready").status == .ok)
        }
    }

    @Test("PRK-2 the gateway route refuses what the contract refuses before storing anything, and counts under its operation", arguments: TestDatabase.available)
    func gatewayRouteRefusals(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: { $0.metricsToken = "scrape-secret" }) { ctx in
            let t = try ctx.tester
            let sensor = Fixtures.sensorIds(lot: "L")[0]
            let body = ByteBuffer(string: #"{"events":[{"sensorId":""# + sensor + #"","occupied":true,"observedAt":"2026-11-18T17:00:00Z","sequence":1}]}"#)
            func send(_ pairs: [(String, String)]) async throws -> TestingHTTPResponse {
                try await t.sendRequest(.POST, "/v1/gateway/events", headers: HTTPHeaders(pairs), body: body)
            }
            let auth = ("Authorization", "Bearer \(ctx.gatewayKey)"), json = ("Content-Type", "application/json")
            try expectProblem(try await send([json]), .unauthorized)
            try expectProblem(try await send([json, ("Authorization", "Bearer wmg_not-a-key")]), .unauthorized)
            try expectProblem(try await send([auth]), .unsupportedMediaType)
            try expectProblem(try await send([auth, ("Content-Type", "text/plain")]), .unsupportedMediaType)
            try expectProblem(try await send([auth, json, ("Accept", "text/html")]), .notAcceptable)
            try expectProblem(try await send([auth, json, ("Idempotency-Key", String(repeating: "k", count: 500))]), .badRequest)
            let stored = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM spot_states WHERE observed_at IS NOT NULL").first()!
            #expect(try stored.decode(column: "n", as: Int.self) == 0, "nothing refused was stored")

            let ok = try await send([auth, json, ("Accept", "application/json, text/html;q=0.5")])
            #expect(ok.status == .ok)
            #expect(ok.headers.contentType?.description.hasPrefix("application/json") == true)
            let result = try JSONSerialization.jsonObject(with: Data(buffer: ok.body)) as? [String: Any]
            #expect(result?["accepted"] as? Int == 1 && result?["outcomes"] as? [String] == ["accepted"])

            let metrics = String(buffer: try await ctx.get("/metrics", headers: ["Authorization": "Bearer scrape-secret"]).body)
            for status in ["200", "401", "406", "415"] {
                #expect(metrics.split(separator: "\n").contains { $0.hasPrefix("waymark_http_requests_total{") && $0.contains(#"operation="ingestSensorEvents""#) && $0.contains(#"status="\#(status)""#) },
                        "requests answered \(status) are counted under the operation")
            }
        }
    }

    @Test("QLT-2 the contract is served; metrics are Prometheus text for the scraper's token or an operator, nobody else", arguments: [TestDatabase.sqlite])
    func operations(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: { $0.metricsToken = "scrape-secret" }) { ctx in
            let doc = try await ctx.get("/openapi.yaml")
            #expect(doc.status == .ok)
            // The document opens with a comment saying it is generated from Contract/.
            let firstLine = doc.body.string.split(separator: "\n").first { !$0.hasPrefix("#") }
            #expect(firstLine?.hasPrefix("openapi: 3.1") == true)
            _ = try await ctx.get("/v1/sites")
            let metrics = try await ctx.get("/metrics", headers: ["Authorization": "Bearer scrape-secret"])
            #expect(metrics.status == .ok && metrics.body.string.contains("waymark_http_requests_total"))

            // Only the scraper's token or an operator's session reads them.
            #expect(try await ctx.get("/metrics").status == .unauthorized)
            #expect(try await ctx.get("/metrics", headers: ["Authorization": "Bearer scrape-secreT"]).status == .unauthorized)
            let member = try await ctx.register("olive", email: "olive@example.com")
            #expect(try await ctx.get("/metrics", headers: ["Authorization": "Bearer \(member.token)"]).status == .unauthorized)
            #expect(try await ctx.app.grantOperator(login: "olive@example.com"))
            #expect(try await ctx.get("/metrics", headers: ["Authorization": "Bearer \(member.token)"]).status == .ok)
            let ready = try await ctx.json("/ready")
            #expect(ready["database"] as? String == "sqlite")
        }
    }
}

@Suite("Live event encoding (PRK-5)")
struct LiveEncodingTests {
    @Test("PRK-5 a lot's row of spot changes expands to the contract's SpotChange events, byte for byte")
    func spotChangeMatchesTypedEncoding() throws {
        let lot = Components.Schemas.LotOccupancy(
            lotId: "5db03a1e-0000-4000-8000-000000000001", total: 10, occupied: 3, held: 1, booked: 0, free: 6,
            closed: 0, unknown: 0, fraction: 0.4, level: .green, version: 7,
            lastChangeAt: Date(timeIntervalSince1970: 1_795_021_200.125))
        let at = Date(timeIntervalSince1970: 1_795_021_199.5)
        let later = Date(timeIntervalSince1970: 1_795_021_200.125)
        let changes = [SpotEventRow.Change(ordinal: 42, state: .occupied, atMillis: at.millis),
                       SpotEventRow.Change(ordinal: 7, state: .held, atMillis: at.millis),
                       SpotEventRow.Change(ordinal: 0, state: .free, atMillis: later.millis)]
        let payload = SpotEventRow.payload(lotJSON: try LiveEncoding.encode(lot), changes: changes)
        #expect(SpotEventRow.changes(payload: payload) == changes)
        #expect(SpotEventRow.lot(payload: payload) == lot)

        let typed = try [(42, Components.Schemas.SpotChange.StatePayload.o, at), (7, .h, at), (0, .f, later)].map { ordinal, state, time in
            try LiveEncoding.encode(Components.Schemas.SpotChange(lotId: lot.lotId, ordinal: ordinal, state: state, at: time, lot: lot))
        }
        #expect(SpotEventRow.eventData(lotId: lot.lotId, payload: payload) == typed)
        let decoded = try LiveEncoding.decoder.decode(Components.Schemas.SpotChange.self, from: Data(typed[0].utf8))
        #expect(decoded.lot == lot && decoded.ordinal == 42 && decoded.state == .o)
    }
}
