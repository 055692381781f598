import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Operators of a site change its lots and spots (PRK-1)")
struct OperateTests {
    /// A second site beside the demo, so that "an operator of another site" exists.
    func otherSite(_ ctx: TestContext) async throws -> String {
        var plan = DemoCampus.fullerton
        plan.code = "north"
        plan.name = "North Campus"
        let id = UUID().uuidString.lowercased()
        try await SiteRowsWriter.insertSite(plan, id: id, at: ctx.clock.now, sql: ctx.services.store.sql)
        return id
    }

    @Test("PRK-1 an operator of one site edits a lot's settings and closes spots; an operator of another site, a driver and a stranger cannot; every change is recorded with who and when",
          arguments: TestDatabase.available)
    func operatorsOfOneSite(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            let code = try #require(sites.first { $0["id"] as? String == ctx.siteId }?["code"] as? String)
            let north = try await otherSite(ctx)
            let alice = try await ctx.register("alice"), bob = try await ctx.register("bob"), carol = try await ctx.register("carol")
            #expect(try await ctx.app.grantSiteOperator(siteCode: code.uppercased(), login: "alice") == .granted, "as `waymark operator grant --site` does")
            // A minute between changes, as between a person's clicks: the record lists them in time order.
            let minute = { ctx.clock.advance(by: 60) }
            #expect(try await ctx.app.grantSiteOperator(siteCode: "north", login: "bob") == .granted)
            #expect(try await ctx.app.grantSiteOperator(siteCode: "nowhere", login: "bob") == .noSuchSite)
            #expect(try await ctx.app.grantSiteOperator(siteCode: "north", login: "nobody") == .noSuchAccount)

            let operated = { (token: String) in
                try await ctx.call(.GET, "/v1/me/operated-sites", token: token).json["sites"] as? [[String: Any]] ?? []
            }
            #expect(try await operated(alice.token).map { $0["id"] as? String } == [ctx.siteId])
            #expect(try await operated(bob.token).map { $0["id"] as? String } == [north])
            #expect(try await operated(carol.token).isEmpty)

            // Settings: read and written in the site file's words, by the site's operators only.
            let lot = try await ctx.lotId("L")
            let settings = "/v1/lots/\(lot)/settings"
            let read = try await ctx.call(.GET, settings, token: alice.token)
            #expect(read.status == .ok)
            var form = read.json
            let price = try #require(form["price"] as? [String: Any])
            #expect(price["currency"] as? String == "USD")
            for (token, status) in [(bob.token, HTTPStatus.forbidden), (carol.token, .forbidden)] {
                let r = try await ctx.call(.GET, settings, token: token)
                #expect(r.status == status && r.problemType == "site-operator-required")
                #expect(try await ctx.call(.PUT, settings, token: token, json: form).status == status)
            }
            #expect(try await ctx.call(.GET, settings).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/lots/\(UUID().uuidString)/settings", token: alice.token).status == .notFound)

            form["price"] = ["currency": "USD", "hourly": "2.50", "dailyMax": "9.00"]
            form["rules"] = ["Park nose in, facing the kerb"]
            minute()
            let saved = try await ctx.call(.PUT, settings, token: alice.token, json: form)
            #expect(saved.status == .ok)
            #expect((saved.json["price"] as? [String: Any])?["hourlyCents"] as? Int == 250)
            let public_ = try await ctx.json("/v1/lots/\(lot)")
            #expect((public_["price"] as? [String: Any])?["dailyMaxCents"] as? Int == 900, "drivers read it at once")
            #expect(public_["rules"] as? [String] == ["Park nose in, facing the kerb"])
            #expect(try await ctx.call(.PUT, settings, token: alice.token, json: form).status == .ok, "saving again changes nothing")
            var broken = form
            broken["price"] = ["currency": "USD", "hourly": "5.00", "dailyMax": "3.00"]
            broken["rules"] = [""]
            let refused = try await ctx.call(.PUT, settings, token: alice.token, json: broken)
            #expect(refused.status == .badRequest && refused.problemType == "lot-settings-invalid")
            let detail = refused.json["detail"] as? String ?? ""
            #expect(detail.contains("1. The settings") && detail.contains("2. The settings")
                    && detail.contains("\"dailyMax\" in \"price\" (3.00 USD) must be at least \"hourly\" (5.00 USD)"), "\(detail)")
            #expect(try await ctx.json("/v1/lots/\(lot)")["rules"] as? [String] == ["Park nose in, facing the kerb"], "nothing of a refused change is kept")

            // Spots: closed and opened again, out on the live stream; never under a driver's hold.
            let free = try await ctx.freeLot("L")
            let closedBefore = try #require(try await ctx.lotCount(lot, "closed"))
            minute()
            let close = try await ctx.call(.PUT, "/v1/spots/\(free.spots[0])/opening", token: alice.token, json: ["open": false])
            #expect(close.status == .ok && close.json["state"] as? String == "c")
            #expect(try await ctx.lotCount(lot, "closed") == closedBefore + 1)
            let reported = try await ctx.ingest([TestContext.event(free.sensors[0], true, at: ctx.clock.now, seq: 5)])
            #expect(reported.status == .ok)
            #expect(try await ctx.lotCount(lot, "closed") == closedBefore + 1, "a closed spot stays closed whatever its sensor says")
            #expect(try await ctx.call(.PUT, "/v1/spots/\(free.spots[0])/opening", token: bob.token, json: ["open": true]).status == .forbidden)
            minute()
            let reopen = try await ctx.call(.PUT, "/v1/spots/\(free.spots[0])/opening", token: alice.token, json: ["open": true])
            #expect(reopen.json["state"] as? String == "u", "unknown until its sensor reports")
            let hold = try await ctx.call(.POST, "/v1/holds", token: carol.token, json: ["spotId": free.spots[1]])
            #expect(hold.status == .created)
            let underHold = try await ctx.call(.PUT, "/v1/spots/\(free.spots[1])/opening", token: alice.token, json: ["open": false])
            #expect(underHold.status == .conflict && underHold.problemType == "spot-held")

            // Operators grant the role to others of their site only.
            #expect(try await ctx.call(.POST, "/v1/sites/\(north)/operators", token: alice.token, json: ["login": "carol"]).status == .forbidden)
            minute()
            let granted = try await ctx.call(.POST, "/v1/sites/\(ctx.siteId)/operators", token: alice.token, json: ["login": "bob"])
            #expect(granted.status == .created && granted.json["grantedBy"] as? String == "alice")
            #expect(try await ctx.call(.GET, settings, token: bob.token).status == .ok)
            #expect(try await ctx.call(.POST, "/v1/sites/\(ctx.siteId)/operators", token: alice.token, json: ["login": "nobody"]).problemType == "account-not-found")
            let listed = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/operators", token: bob.token).json["operators"] as? [[String: Any]] ?? []
            #expect(listed.map { $0["name"] as? String } == ["alice", "bob"])
            minute()
            #expect(try await ctx.call(.DELETE, "/v1/sites/\(ctx.siteId)/operators/\(bob.id)", token: alice.token).status == .noContent)
            #expect(try await ctx.call(.GET, settings, token: bob.token).status == .forbidden)
            #expect(try await ctx.call(.DELETE, "/v1/sites/\(ctx.siteId)/operators/\(bob.id)", token: alice.token).status == .notFound)

            // The record: newest first, who and what, and nothing of another site's.
            let changes = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/changes", token: alice.token).json["changes"] as? [[String: Any]] ?? []
            #expect(changes.map { $0["action"] as? String } == ["operatorRevoked", "operatorGranted", "spotOpened", "spotClosed", "lotSettings"])
            #expect(Set(changes.compactMap { $0["by"] as? String }) == ["alice"])
            let lotName = try #require(public_["name"] as? String)
            #expect(changes.last?["summary"] as? String == "Changed the price and the rules of \(lotName)")
            #expect(changes.last?["lotName"] as? String == lotName)
            #expect(try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/changes", token: carol.token).status == .forbidden)
            #expect((try await ctx.call(.GET, "/v1/sites/\(north)/changes", token: bob.token).json["changes"] as? [Any])?.isEmpty == true)

            // An erased operator's changes stay, without their name.
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: alice.token, json: ["password": TestContext.password]).status == .noContent)
            minute()
            #expect(try await ctx.app.grantSiteOperator(siteCode: code, login: "bob") == .granted)
            let after = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/changes", token: bob.token).json["changes"] as? [[String: Any]] ?? []
            #expect(after.count == 5 && after.allSatisfy { $0["by"] == nil })
            #expect(after.first?["summary"] as? String == "Ended the role of bob as operator of the site")
            let stored = try await ctx.services.store.sql.raw("SELECT user_id FROM operator_changes").all().map { try $0.decode(column: "user_id", as: String.self) }
            #expect(stored.count == 5 && !stored.contains(alice.id))
        }
    }
}
