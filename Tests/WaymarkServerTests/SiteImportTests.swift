import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// A second campus beside the test site, written the way an operator would: lot A's stalls
/// are laid out from its capacity, lot S's four are surveyed.
enum RiversideSite {
    static let center = Coordinate(latitude: 33.9700, longitude: -117.3300)

    static func ring(_ c: Coordinate, side: Double) -> [[Double]] {
        let h = side / 2
        let corners = [(-h, -h), (h, -h), (h, h), (-h, h), (-h, -h)].map { Geo.offset(c, east: $0.0, north: $0.1) }
        return corners.map { [$0.longitude, $0.latitude] }
    }

    static func point(_ c: Coordinate) -> [String: Any] { ["type": "Point", "coordinates": [c.longitude, c.latitude]] }

    /// Stall `label` of lot S, a few metres apart along its south side.
    static func stall(_ n: Int) -> Coordinate { Geo.offset(lotS, east: -15 + Double(n) * 3, north: -10) }
    static let lotA = Geo.offset(center, east: -80, north: 0), lotS = Geo.offset(center, east: 80, north: 0)

    static func lot(_ code: String, name: String, at c: Coordinate, extra: [String: Any] = [:]) -> [String: Any] {
        var props: [String: Any] = [
            "feature": "lot", "code": code, "name": name, "kind": "surface",
            "entrance": [c.longitude, Geo.offset(c, east: 0, north: -25).latitude],
            "price": ["currency": "USD", "hourly": "2.00", "dailyMax": "10.00"],
            "hours": [["days": "Mo-Su", "open": "06:00", "close": "23:00"]],
        ]
        props.merge(extra) { $1 }
        return ["type": "Feature", "geometry": ["type": "Polygon", "coordinates": [ring(c, side: 50)]], "properties": props]
    }

    static func spot(_ label: String, n: Int, kind: String = "standard", sensor: String? = nil) -> [String: Any] {
        var props: [String: Any] = ["feature": "spot", "lot": "S", "label": label, "kind": kind]
        if let sensor { props["sensor"] = sensor }
        return ["type": "Feature", "geometry": point(stall(n)), "properties": props]
    }

    static func file(lotAName: String = "Lot A", withLotA: Bool = true, spots: [[String: Any]]? = nil) throws -> Data {
        var features: [[String: Any]] = [["type": "Feature", "geometry": point(center),
                                          "properties": ["feature": "site", "code": "rcc", "name": "Riverside College", "timeZone": "America/Los_Angeles"]]]
        if withLotA {
            features.append(lot("A", name: lotAName, at: lotA, extra: [
                "capacity": 20, "accessibleSpots": 2,
                "booking": ["spaces": 5, "dailyFee": "3.00", "rate": "0.50", "rateUnitMinutes": 60]]))
        }
        features.append(lot("S", name: "Lot S", at: lotS))
        features += spots ?? [spot("1", n: 1, sensor: "rcc-bay-01"), spot("2", n: 2, sensor: "rcc-bay-02"),
                              spot("3", n: 3, kind: "accessible"), spot("4", n: 4, kind: "ev")]
        return try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
    }
}

@Suite("Parking sites from files (PRK-1)")
struct SiteImportTests {
    typealias T = TestContext

    func failure(_ body: () async throws -> Void) async -> SiteImportFailure? {
        do { try await body(); return nil } catch let f as SiteImportFailure { return f } catch { return nil }
    }

    @Test("PRK-1 a campus file adds a site beside the others; re-importing updates it in place, keeping spots' states and holds and lots' bookings; what people use cannot be left out; a sensor of another site and a broken file are refused whole",
          arguments: TestDatabase.available)
    func importAndReimport(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let first = try await ctx.app.importSite(geoJSON: try RiversideSite.file(), file: "riverside.geojson")
            #expect(first.created && first.code == "rcc" && first.lots == .init(added: 2) && first.spots == .init(added: 24))
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            #expect(Set(sites.compactMap { $0["name"] as? String }) == ["Test Campus", "Riverside College"], "side by side")

            let lots = try await ctx.json("/v1/sites/\(first.siteId)/lots")["lots"] as? [[String: Any]] ?? []
            #expect(lots.compactMap { $0["code"] as? String } == ["A", "S"])
            let lotA = try #require(lots.first { $0["code"] as? String == "A" }), lotS = try #require(lots.first { $0["code"] as? String == "S" })
            #expect((lotA["booking"] as? [String: Any])?["bookableCapacity"] as? Int == 5)
            let aId = try #require(lotA["id"] as? String), sId = try #require(lotS["id"] as? String)
            func spots(_ lot: String) async throws -> [String: [String: Any]] {
                let list = try await ctx.json("/v1/lots/\(lot)/spots")["spots"] as? [[String: Any]] ?? []
                return Dictionary(uniqueKeysWithValues: list.map { ($0["label"] as? String ?? "", $0) })
            }
            let before = try await spots(sId)
            #expect(before["1"]?["sensorId"] as? String == "rcc-bay-01" && before["3"]?["category"] as? String == "handicap")
            #expect(before["3"]?["sensorId"] as? String == "rcc-s-3", "a spot without a sensor id gets the site's pattern")
            #expect(try await spots(aId).values.filter { $0["category"] as? String == "handicap" }.count == 2)

            // The new site's sensors report at once; a guest holds spot 2; a member books lot A.
            #expect(try await ctx.ingest([T.event("rcc-bay-01", true, at: ctx.clock.now, seq: 1),
                                          T.event("rcc-bay-02", false, at: ctx.clock.now, seq: 1)]).status == .ok)
            #expect(try await ctx.states(lotId: sId).hasPrefix("of"))
            let guest = try await ctx.device()
            let hold = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": try #require(before["2"]?["id"] as? String)])
            #expect(hold.status == .created)
            let member = try await ctx.register("driver")
            try await ctx.topUp(member.token, cents: 5000)
            #expect(try await ctx.book(member.token, lot: aId, T.local(day: 19, 10), T.local(day: 19, 12)).status == .created)

            // Re-import: lot A renamed; spot 4 left out, 5 added, the sensors of 1 and 2 swapped.
            let second = try await ctx.app.importSite(geoJSON: try RiversideSite.file(lotAName: "Lot A (North)", spots: [
                RiversideSite.spot("1", n: 1, sensor: "rcc-bay-02"), RiversideSite.spot("2", n: 2, sensor: "rcc-bay-01"),
                RiversideSite.spot("3", n: 3, kind: "accessible"), RiversideSite.spot("5", n: 5, kind: "motorcycle")]), file: "riverside.geojson")
            #expect(!second.created && second.siteId == first.siteId)
            #expect(second.lots == .init(updated: 2) && second.spots == .init(added: 1, updated: 23, removed: 1))
            let after = try await spots(sId)
            #expect(Set(after.keys) == ["1", "2", "3", "5"])
            #expect(after["1"]?["id"] as? String == before["1"]?["id"] as? String && after["2"]?["id"] as? String == before["2"]?["id"] as? String)
            #expect(after["1"]?["sensorId"] as? String == "rcc-bay-02" && after["5"]?["category"] as? String == "motorcycle")
            let relisted = try await ctx.json("/v1/sites/\(first.siteId)/lots")["lots"] as? [[String: Any]] ?? []
            #expect(relisted.first { $0["id"] as? String == aId }?["name"] as? String == "Lot A (North)", "the same lot, renamed")
            let states = try await ctx.states(lotId: sId)
            #expect(states.first == "o", "spot 1 keeps its state: \(states)")
            let holdId = try #require(hold.json["id"] as? String)
            let kept = try await ctx.call(.GET, "/v1/holds/\(holdId)", token: guest.token).json
            #expect(kept["status"] as? String == "active" && kept["spotId"] as? String == before["2"]?["id"] as? String, "\(kept)")
            #expect(try await ctx.states(lotId: sId).dropFirst().first == "h", "spot 2 still shows as held")
            #expect((try await ctx.call(.GET, "/v1/bookings", token: member.token).json["bookings"] as? [[String: Any]])?.first?["lotId"] as? String == aId)

            // Leaving out a lot with a booking, or a held spot, refuses the file and changes nothing.
            let noLotA = await failure { _ = try await ctx.app.importSite(geoJSON: try RiversideSite.file(withLotA: false), file: "riverside.geojson") }
            #expect(noLotA?.problems.contains { $0.contains("lot 'A'") && $0.contains("1 booking") } == true, "\(noLotA?.description ?? "accepted")")
            let noSpot2 = await failure {
                _ = try await ctx.app.importSite(geoJSON: try RiversideSite.file(spots: [RiversideSite.spot("1", n: 1)]), file: "riverside.geojson")
            }
            #expect(noSpot2?.problems.contains { $0.contains("spot '2'") && $0.contains("holds it") } == true, "\(noSpot2?.description ?? "accepted")")
            #expect(Set(try await spots(sId).keys) == ["1", "2", "3", "5"], "refused files change nothing")

            // A sensor mounted at the test site cannot also report here.
            let taken = try #require(Fixtures.sensorIds(lot: "L").first)
            let clash = await failure {
                _ = try await ctx.app.importSite(geoJSON: try RiversideSite.file(spots: [RiversideSite.spot("1", n: 1, sensor: taken)]), file: "clash.geojson")
            }
            #expect(clash?.problems.first?.contains("sensor '\(taken)' is already mounted at site 'test'") == true, "\(clash?.description ?? "accepted")")

            // A broken file names the feature and the rule.
            var broken = try #require(try JSONSerialization.jsonObject(with: try RiversideSite.file()) as? [String: Any])
            var features = try #require(broken["features"] as? [[String: Any]])
            var props = try #require(features[1]["properties"] as? [String: Any])
            props["levels"] = 0
            features[1]["properties"] = props
            broken["features"] = features
            let bad = await failure {
                _ = try await ctx.app.importSite(geoJSON: try JSONSerialization.data(withJSONObject: broken), file: "broken.geojson")
            }
            #expect(bad?.problems.first?.contains("broken.geojson") == true && bad?.problems.first?.contains("levels") == true,
                    "\(bad?.description ?? "accepted")")
        }
    }
}
