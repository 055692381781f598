import Foundation
import SQLKit
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Gateways run by a site's operators (PRK-1)")
struct SiteGatewayTests {
    typealias T = TestContext

    @Test("PRK-1 an operator makes, re-keys and revokes their site's gateways, each reporting for that site only; another site's operators and strangers are refused; every change recorded without its secret",
          arguments: TestDatabase.available)
    func operatorsManageGateways(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let rcc = try await ctx.app.importSite(geoJSON: try RiversideSite.file(), file: "riverside.geojson")
            let alice = try await ctx.register("alice"), bob = try await ctx.register("bob"), carol = try await ctx.register("carol")
            #expect(try await ctx.app.grantSiteOperator(siteCode: "rcc", login: "alice") == .granted)
            #expect(try await ctx.app.grantSiteOperator(siteCode: "test", login: "bob") == .granted)
            let path = "/v1/sites/\(rcc.siteId)/gateways"

            #expect(try await ctx.call(.POST, path, json: ["name": "North gate"]).status == .unauthorized)
            for stranger in [bob, carol] {
                let r = try await ctx.call(.POST, path, token: stranger.token, json: ["name": "North gate"])
                #expect(r.status == .forbidden && r.problemType == "site-operator-required")
                #expect(try await ctx.call(.GET, path, token: stranger.token).status == .forbidden)
            }
            for bad in ["   ", "tab\there", String(repeating: "g", count: 81)] {
                let r = try await ctx.call(.POST, path, token: alice.token, json: ["name": bad])
                #expect(r.status == .badRequest && r.problemType == "gateway-name-invalid", "\(bad)")
            }
            #expect((try await ctx.call(.GET, path, token: alice.token).json["gateways"] as? [[String: Any]])?.isEmpty == true, "none yet")

            let made = try await ctx.call(.POST, path, token: alice.token, json: ["name": "  North gate "])
            #expect(made.status == .created)
            let secret = try #require(made.json["secret"] as? String)
            let gateway = try #require(made.json["gateway"] as? [String: Any])
            let gatewayId = try #require(gateway["id"] as? String)
            #expect(gateway["name"] as? String == "North gate" && gateway["revokedAt"] == nil && gateway["lastReportAt"] == nil)
            let taken = try await ctx.call(.POST, path, token: alice.token, json: ["name": "North gate"])
            #expect(taken.status == .conflict && taken.problemType == "gateway-name-taken")

            // It reports for Riverside's sensors; the demo's are unknown to it and stay as they were.
            let demoSensor = Fixtures.sensorIds(lot: "L")[0]
            let report = try await ctx.ingest([T.event("rcc-bay-01", true, at: ctx.clock.now, seq: 1),
                                               T.event(demoSensor, true, at: ctx.clock.now, seq: 1)], key: secret)
            #expect(report.status == .ok)
            #expect(report.body["outcomes"] as? [String] == ["accepted", "unknownSensor"])
            let demoLots = try await ctx.json("/v1/sites/\(ctx.siteId)/occupancy")["lots"] as? [[String: Any]] ?? []
            #expect(demoLots.allSatisfy { ($0["occupied"] as? Int ?? 0) == 0 }, "nothing of the demo changed: \(demoLots)")
            // A gateway made on the command line without a site still reports for any.
            #expect(try await ctx.ingest([T.event("rcc-bay-02", true, at: ctx.clock.now, seq: 1)]).body["accepted"] as? Int == 1)

            let listed = try await ctx.call(.GET, path, token: alice.token).json["gateways"] as? [[String: Any]] ?? []
            #expect(listed.map { $0["name"] as? String } == ["North gate"], "only the site's own")
            #expect(listed.first?["lastReportAt"] as? String == T.iso(ctx.clock.now))

            // A new secret: the old one stops at once, the new one works, the id (and its traffic) stays.
            let rekeyed = try await ctx.call(.POST, "\(path)/\(gatewayId)/secret", token: alice.token)
            #expect(rekeyed.status == .ok)
            let newSecret = try #require(rekeyed.json["secret"] as? String)
            #expect(newSecret != secret && (rekeyed.json["gateway"] as? [String: Any])?["id"] as? String == gatewayId)
            #expect(try await ctx.ingest([T.event("rcc-bay-01", false, at: ctx.clock.now, seq: 2)], key: secret).status == .unauthorized)
            #expect(try await ctx.ingest([T.event("rcc-bay-01", false, at: ctx.clock.now, seq: 2)], key: newSecret).status == .ok)
            #expect(try await ctx.call(.POST, "\(path)/\(gatewayId)/secret", token: bob.token).status == .forbidden)

            // Another site's gateway (the command line's) is not this site's to revoke.
            let global = try #require(try await ctx.app.waymark.parking.gateways.list().first { $0.siteId == nil }?.id)
            #expect(try await ctx.call(.DELETE, "\(path)/\(global)", token: alice.token).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/sites/\(ctx.siteId)/gateways/\(gatewayId)", token: bob.token).status == .notFound,
                    "bob runs the demo site, and this gateway is not one of its own")
            #expect(try await ctx.call(.DELETE, "\(path)/\(gatewayId)", token: bob.token).status == .forbidden)

            #expect(try await ctx.call(.DELETE, "\(path)/\(gatewayId)", token: alice.token).status == .noContent)
            #expect(try await ctx.ingest([T.event("rcc-bay-01", true, at: ctx.clock.now, seq: 3)], key: newSecret).status == .unauthorized)
            #expect(try await ctx.call(.DELETE, "\(path)/\(gatewayId)", token: alice.token).status == .notFound, "revoked already")
            #expect(try await ctx.call(.POST, "\(path)/\(gatewayId)/secret", token: alice.token).status == .notFound, "no new secret for a revoked one")
            // The name is free again; the revoked one stays listed, after the active ones.
            #expect(try await ctx.call(.POST, path, token: alice.token, json: ["name": "North gate"]).status == .created)
            let after = try await ctx.call(.GET, path, token: alice.token).json["gateways"] as? [[String: Any]] ?? []
            #expect(after.count == 2 && after[0]["revokedAt"] == nil && after[1]["id"] as? String == gatewayId && after[1]["revokedAt"] != nil)

            let changes = try await ctx.call(.GET, "/v1/sites/\(rcc.siteId)/changes", token: alice.token).json["changes"] as? [[String: Any]] ?? []
            let record = changes.filter { ($0["action"] as? String ?? "").hasPrefix("gateway") }
            #expect(Set(record.compactMap { $0["action"] as? String }) == ["gatewayAdded", "gatewaySecretReplaced", "gatewayRevoked"])
            #expect(record.allSatisfy { $0["by"] as? String == "alice" })
            #expect(record.contains { ($0["summary"] as? String ?? "").contains("Revoked gateway ‘North gate’") })
            #expect(!record.contains { ($0["summary"] as? String ?? "").contains("wmg_") }, "no secret in the record")
            // Only hashes are kept.
            let hashes = try await ctx.app.waymark.store.sql.raw("SELECT secret_hash FROM gateways").all()
                .map { try $0.decode(column: "secret_hash", as: String.self) }
            #expect(!hashes.contains(secret) && !hashes.contains(newSecret) && hashes.contains(GatewayKeys.hash(newSecret)))
        }
    }

    @Test("PRK-1 ten operators adding a gateway of one name at once: exactly one is made, the rest told the name is taken",
          arguments: TestDatabase.available)
    func sameNameAtOnce(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let alice = try await ctx.register("alice")
            #expect(try await ctx.app.grantSiteOperator(siteCode: "test", login: "alice") == .granted)
            let path = "/v1/sites/\(ctx.siteId)/gateways"
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<10 { group.addTask { try await ctx.call(.POST, path, token: alice.token, json: ["name": "Level 2"]).status } }
                return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1 && statuses.filter { $0 == .conflict }.count == 9, "\(statuses)")
            #expect((try await ctx.call(.GET, path, token: alice.token).json["gateways"] as? [[String: Any]])?.count == 1)
        }
    }
}
