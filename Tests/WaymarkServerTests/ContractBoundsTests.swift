import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer
import WaymarkAPI

/// What API fuzzing (Reliability/test_fuzz.py) found the server doing differently from the
/// contract, pinned here so it stays fixed.
@Suite("Contract bounds (QLT-2, PRK-2)")
struct ContractBoundsTests {
    @Test("QLT-2 a known path with an undeclared method is 405 with Allow, not 404", arguments: [TestDatabase.sqlite])
    func methodNotAllowed(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let t = try ctx.tester
            let cases: [(HTTPMethod, String, String)] = [
                (.TRACE, "/health", "GET, HEAD"),
                (.DELETE, "/v1/gateway/events", "POST"),
                (.PUT, "/v1/sites/\(ctx.siteId)/occupancy", "GET, HEAD"),
                (.PATCH, "/v1/lots/nope/spots", "GET, HEAD"),
                // A constant path beside a parameter one is its own resource: not DELETE {id}.
                (.OPTIONS, "/v1/me/notifications/read-all", "POST"),
                (.OPTIONS, "/v1/me/notifications/live", "GET, HEAD"),
                (.OPTIONS, "/v1/me/notifications/n123", "DELETE"),
            ]
            for (method, path, allow) in cases {
                let res = try await t.sendRequest(method, path)
                #expect(res.status == .methodNotAllowed, "\(method) \(path)")
                #expect(res.headers.first(name: .allow) == allow, "\(method) \(path)")
                #expect(res.headers.contentType?.description.hasPrefix("application/problem+json") == true)
            }
            // Unknown paths stay 404.
            #expect(try await t.sendRequest(.TRACE, "/no/such/route").status == .notFound)
            #expect(try await t.sendRequest(.GET, "/v1/sites/\(ctx.siteId)/nothing").status == .notFound)
        }
    }

    @Test("QLT-2 problem responses carry the security headers too", arguments: [TestDatabase.sqlite])
    func problemSecurityHeaders(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            for res in [try await ctx.get("/v1/sites/nope"), try await ctx.get("/no/such/route")] {
                #expect(res.status == .notFound)
                #expect(res.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(res.headers.first(name: "X-Frame-Options") == "DENY")
            }
        }
    }

    @Test("PRK-2 a batch over the contract's 5,000 events is refused whole", arguments: [TestDatabase.sqlite])
    func batchLimit(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: { $0.maxBodyBytes = 4 << 20 }) { ctx in
            let event: [String: any Sendable] = ["sensorId": "nope", "occupied": true, "observedAt": "2026-11-18T17:00:00Z", "sequence": 1]
            let over = try await ctx.ingest(Array(repeating: event, count: APIHandler.maxEventsPerRequest + 1))
            #expect(over.status == .badRequest)
            let at = try await ctx.ingest(Array(repeating: event, count: APIHandler.maxEventsPerRequest))
            #expect(at.status == .ok)
        }
    }

    @Test("PRK-5 If-None-Match over the contract's 256 characters is a 400 problem", arguments: [TestDatabase.sqlite])
    func longIfNoneMatch(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let long = String(repeating: "a", count: ETag.maxHeaderLength + 1)
            let res = try await ctx.get("/v1/sites/\(ctx.siteId)/occupancy", headers: ["If-None-Match": long])
            #expect(res.status == .badRequest)
            let ok = try await ctx.get("/v1/sites/\(ctx.siteId)/occupancy", headers: ["If-None-Match": String(long.dropLast())])
            #expect(ok.status == .ok)
        }
    }

    @Test("QLT-2 ACC-10 PRK-16 null for an optional field, a repeated permit and an overlong password are 400 and change nothing",
          arguments: [TestDatabase.sqlite])
    func userBodies(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let nulls: [(HTTPMethod, String, [String: Any])] = [
                (.PUT, "/v1/me/profile", ["units": NSNull()]),
                (.PUT, "/v1/me/profile", ["about": NSNull(), "firstName": "Ann"]),
                (.POST, "/v1/me/schedule/blocks", ["weekday": 2, "startSlot": 10, "endSlot": 12, "lotId": NSNull()]),
                (.POST, "/v1/accounts", ["username": "nullish", "password": TestContext.password, "email": NSNull()]),
                (.POST, "/v1/me/deletion", ["password": NSNull()]),
            ]
            for (method, path, body) in nulls {
                let res = try await ctx.call(method, path, token: me.token, json: body)
                #expect(res.status == .badRequest, "\(path) \(body)")
                #expect((res.json["detail"] as? String)?.contains("must not be null") == true)
            }
            // Members the contract does not name are still ignored, null or not.
            #expect(try await ctx.call(.PUT, "/v1/me/profile", token: me.token, json: ["about": "hi", "x": NSNull()]).status == .ok)
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: me.token, json: ctx.permitsBody(["black", "black"])).status == .badRequest)
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: me.token, json: ["password": String(repeating: "p", count: 257)]).status == .badRequest)
            let after = try await ctx.call(.GET, "/v1/me", token: me.token)
            #expect(after.status == .ok, "the guest still exists")
            #expect(TestContext.permitCodes(after.json) == [])
            let blocks = try await ctx.call(.GET, "/v1/me/schedule", token: me.token).json["blocks"] as? [Any]
            #expect(blocks?.isEmpty == true)
        }
    }

    @Test("QLT-2 every optional field of a JSON request body in the contract is checked for null")
    func optionalNullTableMatchesContract() throws {
        let lines = openAPIDocument().components(separatedBy: "\n")
        #expect(!lines.isEmpty)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        /// The properties of a component schema and its required list, read from the YAML text.
        func schema(_ name: String) -> (properties: Set<String>, required: Set<String>) {
            guard let start = lines.firstIndex(of: "    \(name):") else { return ([], []) }
            var properties: Set<String> = [], required: Set<String> = []
            var inProperties = false
            var last = ""
            for line in lines[(start + 1)...] {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty, indent(line) <= 4 { break }
                if indent(line) == 6 {
                    inProperties = line.hasPrefix("      properties:")
                    if line.hasPrefix("      required: [") {
                        let list = line.dropFirst("      required: [".count).prefix { $0 != "]" }
                        required = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    }
                } else if inProperties, indent(line) == 8, let colon = line.firstIndex(of: ":") {
                    last = line[line.index(line.startIndex, offsetBy: 8)..<colon].trimmingCharacters(in: .whitespaces)
                    properties.insert(last)
                } else if inProperties, indent(line) == 10, line.contains("type: ["), line.contains("'null'") {
                    // A property whose type allows null takes null; the others are checked.
                    properties.remove(last)
                }
            }
            return (properties, required)
        }
        var expected: [String: [String]] = [:]
        var operation: String?
        var inRequestBody = false, inJSONBody = false
        for line in lines {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("operationId: ") { operation = String(t.dropFirst("operationId: ".count)); inRequestBody = false; inJSONBody = false }
            if t == "requestBody:" { inRequestBody = true; inJSONBody = false }
            if t.hasPrefix("responses:") { inRequestBody = false; inJSONBody = false }
            if inRequestBody, t == "application/json:" { inJSONBody = true }
            if inJSONBody, let op = operation, t.hasPrefix("schema: { $ref: '#/components/schemas/"),
               !GatewayAuthMiddleware.operations.contains(op) {
                let name = String(t.dropFirst("schema: { $ref: '#/components/schemas/".count).prefix { $0 != "'" })
                let s = schema(name)
                #expect(!s.properties.isEmpty, "schema \(name) of \(op)")
                let optional = s.properties.subtracting(s.required)
                if !optional.isEmpty { expected[op] = optional.sorted() }
                inJSONBody = false
            }
        }
        #expect(expected.count >= 5)
        #expect(expected == APIHandler.optionalBodyFields.mapValues { $0.sorted() })
    }

    @Test("QLT-2 every write outside the gateways documents the 429 of the write budget")
    func writesDocumentTooManyRequests() throws {
        let lines = openAPIDocument().components(separatedBy: "\n")
        var path = "", method = "", writes: [String] = [], missing: [String] = []
        var documented = false
        func close() {
            guard ["post", "put", "patch", "delete"].contains(method), !path.hasPrefix("/v1/gateway/") else { return }
            writes.append("\(method.uppercased()) \(path)")
            if !documented { missing.append("\(method.uppercased()) \(path)") }
        }
        for line in lines {
            if line.hasPrefix("  /") { close(); path = String(line.dropFirst(2).dropLast()); method = "" }
            else if line.hasPrefix("components:") { close(); break }
            else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                close(); method = String(line.dropFirst(4).dropLast()); documented = false
            } else if line.trimmingCharacters(in: .whitespaces).hasPrefix("'429':") { documented = true }
        }
        #expect(writes.count >= 15)
        #expect(missing == [], "writes without a documented 429")
    }

    @Test("PRK-2 every RFC 3339 date-time is read, and nothing else")
    func rfc3339() throws {
        let t = WaymarkDateTranscoder()
        let base = try t.decode("2026-11-22T16:00:00Z")
        #expect(base.timeIntervalSince1970 == 1_795_363_200)
        #expect(try t.decode("2026-11-22T16:00:00.708Z").millis == 1_795_363_200_708)
        #expect(try t.decode("2026-11-22T16:00:00.708999Z").millis == 1_795_363_200_708)   // floored, not rounded
        #expect(try t.decode("2026-11-22t16:00:00z") == base)
        #expect(try t.decode("2026-11-23T10:32:00+18:32") == base)      // beyond Foundation's ±18:00
        #expect(try t.decode("2026-11-21T16:01:00-23:59") == base)
        #expect(try t.decode("2024-02-29T00:00:00Z").timeIntervalSince1970 == 1_709_164_800)
        #expect(try t.decode("0001-01-01T00:00:00Z").timeIntervalSince1970 == -62_135_596_800)
        for bad in ["2026-11-22 16:00:00Z", "2026-11-22T16:00:00", "2026-02-30T00:00:00Z", "2026-11-22T24:00:00Z",
                    "2026-11-22T16:00:00.Z", "2026-11-22T16:00:00+24:00", "26-11-22T16:00:00Z", "2026-11-22T16:00:00Z ", ""] {
            #expect(throws: DecodingError.self, "\(bad)") { try t.decode(bad) }
        }
    }

    @Test("PRK-5 ETag and Cache-Control go out as HTTP has them, not percent-encoded", arguments: [TestDatabase.sqlite])
    func rawHeaders(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let lots = try await ctx.json("/v1/sites/\(ctx.siteId)/lots")["lots"] as! [[String: Any]]
            let path = "/v1/lots/\(lots[0]["id"] as! String)/spots"
            let res = try await ctx.get(path)
            let etag = try #require(res.headers.first(name: .eTag))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(res.headers.first(name: .cacheControl) == "public, max-age=300, must-revalidate")
            #expect(try await ctx.get(path, headers: ["If-None-Match": etag]).status == .notModified)
            // A stray % is part of the value, not an encoding: no match, and no error.
            #expect(try await ctx.get(path, headers: ["If-None-Match": "\"%PP\""]).status == .ok)
        }
    }

    @Test("PRK-2 gateway bodies are strict JSON: no nulls for values, no trailing commas, UTF-8, typed", arguments: [TestDatabase.sqlite])
    func strictGatewayBodies(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            var headers = HTTPHeaders([("Content-Type", "application/json")])
            headers.add(name: .authorization, value: "Bearer \(ctx.gatewayKey)")
            let t = try ctx.tester
            for body in [#"{"end_device_ids":{"device_id":"x"},"received_at":null,"uplink_message":{"decoded_payload":{"occupied":true}}}"#,
                         #"{"end_device_ids":{"device_id":"x"},"uplink_message":{"f_cnt":null,"decoded_payload":{"occupied":true}}}"#] {
                let res = try await t.sendRequest(.POST, "/v1/gateway/ttn", headers: headers, body: ByteBuffer(string: body))
                #expect(res.status == .badRequest)
            }
            let fine = #"{"end_device_ids":{"device_id":"x"},"uplink_message":{"f_cnt":1,"decoded_payload":{"occupied":true}}}"#
            #expect(try await t.sendRequest(.POST, "/v1/gateway/ttn", headers: headers, body: ByteBuffer(string: fine)).status == .ok)

            // What Foundation's parser lets through but RFC 8259 does not.
            for body in [#"{"events":[],}"#, #"{"events":[{"sensorId":"x","occupied":true,"observedAt":"2026-11-18T17:00:00Z","sequence":1},]}"#] {
                let res = try await t.sendRequest(.POST, "/v1/gateway/events", headers: headers, body: ByteBuffer(string: body))
                #expect(res.status == .badRequest, "\(body)")
            }
            var utf16 = Data([0xFF, 0xFE])
            utf16.append(#"{"events":[]}"#.data(using: .utf16LittleEndian)!)
            #expect(try await t.sendRequest(.POST, "/v1/gateway/events", headers: headers, body: ByteBuffer(data: utf16)).status == .badRequest)
            // Commas inside strings are data.
            #expect(try await ctx.ingest([["sensorId": "a,]", "occupied": true, "observedAt": "2026-11-18T17:00:00Z", "sequence": 1]]).status == .ok)
            var untyped = headers
            untyped.remove(name: .contentType)
            #expect(try await t.sendRequest(.POST, "/v1/gateway/events", headers: untyped, body: ByteBuffer(string: #"{"events":[]}"#)).status == .unsupportedMediaType)
        }
    }
}
