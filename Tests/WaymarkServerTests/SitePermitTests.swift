import Foundation
import SQLKit
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// Each site issues its own permits (PRK-1, PRK-16): a person holds them per site, and only the
/// disabled placard counts everywhere.
@Suite("Parking: each site's own permits (PRK-1, PRK-16)")
struct SitePermitTests {
    /// Riverside issues Faculty/Staff and a Green of its own; lot S needs one of them at all hours.
    static func riverside() throws -> Data {
        var root = try #require(try JSONSerialization.jsonObject(with: try RiversideSite.file()) as? [String: Any])
        var features = try #require(root["features"] as? [[String: Any]])
        var site = try #require(features[0]["properties"] as? [String: Any])
        site["permits"] = [["code": "faculty", "name": "Faculty/Staff", "colour": "#6A1B9A"], ["code": "green", "name": "Riverside Green"]]
        features[0]["properties"] = site
        let s = try #require(features.firstIndex { ($0["properties"] as? [String: Any])?["code"] as? String == "S" })
        var lot = try #require(features[s]["properties"] as? [String: Any])
        lot["permits"] = [["days": "Mo-Su", "from": "00:00", "to": "24:00", "permits": ["faculty", "green"]]]
        features[s]["properties"] = lot
        root["features"] = features
        return try JSONSerialization.data(withJSONObject: root)
    }

    @Test("PRK-1 PRK-16 an imported campus's permits are listed with its site, held per site, and name the hold's warning; the demo's Green does not count at another campus's Green lot",
          arguments: TestDatabase.available)
    func perSite(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let rcc = try await ctx.app.importSite(geoJSON: try Self.riverside(), file: "riverside.geojson").siteId
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            func permits(_ id: String) -> [[String: String]] {
                sites.first { $0["id"] as? String == id }?["permits"] as? [[String: String]] ?? []
            }
            #expect(permits(rcc) == [["code": "faculty", "name": "Faculty/Staff", "colour": "#6a1b9a"],
                                     ["code": "green", "name": "Riverside Green", "colour": SiteImport.defaultPermitColour]])
            #expect(permits(ctx.siteId).map { $0["name"] } == ["Green", "Yellow", "Black"])

            // Green at the test campus: a hold at Riverside's lot S still warns, in Riverside's words.
            let driver = try await ctx.register("commuter")
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: driver.token, json: ctx.permitsBody(["green"])).status == .ok)
            let lots = try await ctx.json("/v1/sites/\(rcc)/lots")["lots"] as? [[String: Any]] ?? []
            let lotS = try #require(lots.first { $0["code"] as? String == "S" }?["id"] as? String)
            let stalls = try await ctx.json("/v1/lots/\(lotS)/spots")["spots"] as? [[String: Any]] ?? []
            let standard = try #require(stalls.first { $0["category"] as? String == "regular" }?["id"] as? String)
            let sensors = stalls.compactMap { $0["sensorId"] as? String }
            #expect(try await ctx.ingest(sensors.enumerated().map { TestContext.event($1, false, at: ctx.clock.now, seq: $0 + 1) }).status == .ok)
            let warned = try await ctx.call(.POST, "/v1/holds", token: driver.token, json: ["spotId": standard])
            #expect(warned.status == .created)
            #expect(warned.json["permitWarning"] as? String == "This spot needs a Faculty/Staff or Riverside Green permit now.")
            _ = try await ctx.call(.DELETE, "/v1/holds/\(try #require(warned.json["id"] as? String))", token: driver.token)

            // Riverside's Green beside the test campus's, and the placard, which needs no site.
            let all = ["permits": [["siteId": ctx.siteId, "permit": "green"], ["siteId": rcc, "permit": "green"], ["permit": "handicap"]]]
            let saved = try await ctx.call(.PUT, "/v1/me/permits", token: driver.token, json: all)
            #expect(saved.status == .ok)
            let held = saved.json["permits"] as? [[String: String]] ?? []
            #expect(held.first == ["permit": "handicap"] && held.count == 3)
            #expect(Set(held.dropFirst().map { "\($0["siteId"] ?? ""):\($0["permit"] ?? "")" }) == ["\(ctx.siteId):green", "\(rcc):green"])
            let clear = try await ctx.call(.POST, "/v1/holds", token: driver.token, json: ["spotId": standard])
            #expect(clear.status == .created && clear.json["permitWarning"] == nil, "\(clear.json)")
            #expect(TestContext.permitCodes(try await ctx.call(.GET, "/v1/me", token: driver.token).json) == ["handicap", "green", "green"])
        }
    }

    @Test("PRK-16 a permit the site does not issue, a placard given a site, a site permit without one, an unknown site or a bad code is refused with what is wrong, and nothing changes",
          arguments: TestDatabase.available)
    func refused(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let me = try await ctx.device()
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: me.token, json: ctx.permitsBody(["yellow"])).status == .ok)
            let unknownSite = UUID().uuidString.lowercased()
            let cases: [([String: Any], String)] = [
                (["siteId": ctx.siteId, "permit": "faculty"], #"That site does not issue "faculty"; its permits are "green" (Green), "yellow" (Yellow), "black" (Black)."#),
                (["siteId": ctx.siteId, "permit": "handicap"], "counts on every site: send it without a site id"),
                (["permit": "green"], #""green" needs the id of the site that issues it"#),
                (["siteId": unknownSite, "permit": "green"], "There is no site \(unknownSite)."),
                (["siteId": ctx.siteId, "permit": "Green!"], #""Green!" is not a permit code"#),
            ]
            for (entry, words) in cases {
                let r = try await ctx.call(.PUT, "/v1/me/permits", token: me.token, json: ["permits": [entry]])
                #expect(r.status == .badRequest && r.problemType == "permit-unknown", "\(entry): \(r.status)")
                #expect((r.json["detail"] as? String)?.contains(words) == true, "\(r.json["detail"] ?? "no detail")")
            }
            #expect(TestContext.permitCodes(try await ctx.call(.GET, "/v1/me/permits", token: me.token).json) == ["yellow"])
        }
    }

    @Test("PRK-1 PRK-16 an operator edits the site's permits: checked like a site file, a permit a lot requires stays, a removed one leaves people's lists, each change recorded",
          arguments: TestDatabase.available)
    func operatorEditsPermits(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            let code = try #require(sites.first { $0["id"] as? String == ctx.siteId }?["code"] as? String)
            let alice = try await ctx.register("alice"), driver = try await ctx.register("dora")
            #expect(try await ctx.app.grantSiteOperator(siteCode: code, login: "alice") == .granted)
            let path = "/v1/sites/\(ctx.siteId)/permits"
            let before = try #require(sites.first { $0["id"] as? String == ctx.siteId }?["permits"] as? [[String: String]])
            var kinds = before
            kinds[0]["name"] = "Green Zone"
            kinds.append(["code": "evening", "name": "Evening", "colour": "#223344"])

            #expect(try await ctx.call(.PUT, path, json: ["permits": kinds]).status == .unauthorized)
            let stranger = try await ctx.call(.PUT, path, token: driver.token, json: ["permits": kinds])
            #expect(stranger.status == .forbidden && stranger.problemType == "site-operator-required")
            #expect(try await ctx.call(.PUT, "/v1/sites/nowhere/permits", token: alice.token, json: ["permits": kinds]).status == .notFound)
            let invalid = try await ctx.call(.PUT, path, token: alice.token,
                                             json: ["permits": kinds + [["code": "handicap", "name": "Placard"], ["code": "evening", "name": "Late"]]])
            #expect(invalid.status == .badRequest && invalid.problemType == "site-permits-invalid")
            let detail = invalid.json["detail"] as? String ?? ""
            #expect(detail.contains("placard") && detail.contains("listed twice"), "\(detail)")

            ctx.clock.advance(by: 60)
            let saved = try await ctx.call(.PUT, path, token: alice.token, json: ["permits": kinds])
            #expect(saved.status == .ok)
            #expect((saved.json["permits"] as? [[String: String]])?.map { $0["name"] } == ["Green Zone", "Yellow", "Black", "Evening"])
            let listed = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            #expect((listed.first { $0["id"] as? String == ctx.siteId }?["permits"] as? [[String: String]])?.last?["code"] == "evening", "drivers see it on their next read")
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: driver.token, json: ctx.permitsBody(["green", "evening"])).status == .ok)

            // Green is required by a lot's rules: it cannot be left out, and nothing changes.
            let withoutGreen = Array(kinds.dropFirst())
            let inUse = try await ctx.call(.PUT, path, token: alice.token, json: ["permits": withoutGreen])
            #expect(inUse.status == .conflict && inUse.problemType == "permit-in-use")
            #expect((inUse.json["detail"] as? String)?.contains("Test Structure") == true, "\(inUse.json)")
            #expect(TestContext.permitCodes(try await ctx.call(.GET, "/v1/me/permits", token: driver.token).json) == ["evening", "green"])

            // Evening is required by no lot: it goes, and from the driver's list too.
            ctx.clock.advance(by: 60)
            let without = try await ctx.call(.PUT, path, token: alice.token, json: ["permits": Array(kinds.dropLast())])
            #expect(without.status == .ok)
            #expect(TestContext.permitCodes(try await ctx.call(.GET, "/v1/me/permits", token: driver.token).json) == ["green"])
            // The same list again changes nothing and adds nothing to the record.
            #expect(try await ctx.call(.PUT, path, token: alice.token, json: ["permits": Array(kinds.dropLast())]).status == .ok)
            // A lot's rules may not name the removed permit any more.
            let lot = try await ctx.lotId("L")
            var form = try await ctx.call(.GET, "/v1/lots/\(lot)/settings", token: alice.token).json
            form["permits"] = [["days": "Mo-Fr", "from": "18:00", "to": "22:00", "permits": ["evening"]]]
            let refused = try await ctx.call(.PUT, "/v1/lots/\(lot)/settings", token: alice.token, json: form)
            #expect(refused.status == .badRequest)

            let record = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/changes", token: alice.token).json["changes"] as? [[String: Any]] ?? []
            let permitChanges = record.filter { $0["action"] as? String == "sitePermits" }
            #expect(permitChanges.map { $0["summary"] as? String } == ["Permits: Removed Evening", "Permits: Added Evening; renamed Green to Green Zone"])
            #expect(permitChanges.allSatisfy { $0["by"] as? String == "alice" })
        }
    }

    @Test("PRK-1 PRK-16 a re-import that leaves a permit out takes it off the lists of those who held it", arguments: TestDatabase.available)
    func reimportDropsHoldings(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let rcc = try await ctx.app.importSite(geoJSON: try Self.riverside(), file: "riverside.geojson").siteId
            let driver = try await ctx.register("reimported")
            let held = ["permits": [["siteId": rcc, "permit": "faculty"], ["siteId": rcc, "permit": "green"], ["siteId": ctx.siteId, "permit": "green"]]]
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: driver.token, json: held).status == .ok)

            // The new file issues Faculty/Staff only, and lot S requires it alone.
            var root = try #require(try JSONSerialization.jsonObject(with: try Self.riverside()) as? [String: Any])
            var features = try #require(root["features"] as? [[String: Any]])
            var site = try #require(features[0]["properties"] as? [String: Any])
            site["permits"] = [["code": "faculty", "name": "Faculty/Staff"]]
            features[0]["properties"] = site
            let s = try #require(features.firstIndex { ($0["properties"] as? [String: Any])?["code"] as? String == "S" })
            var lot = try #require(features[s]["properties"] as? [String: Any])
            lot["permits"] = [["days": "Mo-Su", "from": "00:00", "to": "24:00", "permits": ["faculty"]]]
            features[s]["properties"] = lot
            root["features"] = features
            _ = try await ctx.app.importSite(geoJSON: try JSONSerialization.data(withJSONObject: root), file: "riverside.geojson")

            let left = try await ctx.call(.GET, "/v1/me/permits", token: driver.token).json["permits"] as? [[String: String]] ?? []
            #expect(Set(left.map { "\($0["siteId"] ?? ""):\($0["permit"] ?? "")" }) == ["\(rcc):faculty", "\(ctx.siteId):green"],
                    "Riverside's Green went; the test campus's Green stays")
        }
    }

    @Test("PRK-16 an older database keeps what people held: each site issues the demo permits its rules name, and a held Green counts at each site that issues it",
          arguments: TestDatabase.available)
    func migration(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let me = try await ctx.device()
            let sql = ctx.services.store.sql
            try await sql.raw("UPDATE users SET permits = 'green,handicap,yellow' WHERE id = \(bind: me.id)").run()
            try await sql.raw("UPDATE sites SET permits = '[]'").run()
            try await AddSitePermits.carryOver(sql)
            // The test campus's rules name only Green (lot S); Yellow is issued nowhere any more.
            let site = try await sql.raw("SELECT permits FROM sites WHERE id = \(bind: ctx.siteId)").first()?.decode(column: "permits", as: String.self)
            #expect(try JSONDecoder().decode([PermitKind].self, from: Data((site ?? "").utf8)).map(\.name) == ["Green"])
            #expect(TestContext.permitCodes(try await ctx.call(.GET, "/v1/me/permits", token: me.token).json) == ["handicap", "green"])
        }
    }
}
