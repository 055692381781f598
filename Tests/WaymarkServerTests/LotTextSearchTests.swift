import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Lots found by name or address on the server (PRK-14)")
struct LotTextSearchTests {
    @Test("PRK-14 q finds the site's lots by the words typed, best match first (nearest first near a point), alongside the other filters; a q without letters is refused",
          arguments: TestDatabase.available)
    func byWords(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            func codes(_ query: String) async throws -> [String] {
                let res = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots?\(query)")
                #expect(res.status == .ok, "\(query): \(res.status)")
                return (res.json["lots"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            }
            // The fixture's lots: "Test Structure" (S) and "Test Lot" (L).
            #expect(try await codes("q=structure") == ["S"])
            #expect(try await codes("q=Test%20L") == ["L"], "the word being typed")
            #expect(try await codes("q=tset%20lot") == ["L"], "a typing slip")
            #expect(try await codes("q=lot") == ["L"])
            #expect(try await codes("q=test") == ["S", "L"], "equally good: in the site's order")
            #expect(try await codes("q=library") == [])
            // Near a point east of the campus centre, L (100 m east) comes before S (100 m west).
            let east = Geo.offset(Fixtures.origin, east: 100, north: 0)
            #expect(try await codes("q=test&lat=\(east.latitude)&lon=\(east.longitude)") == ["L", "S"])
            // With the other filters: what both let through.
            for keys in ["true", "false"] {
                let byKeys = try await codes("keysRequired=\(keys)")
                #expect(try await codes("q=lot&keysRequired=\(keys)") == byKeys.filter { $0 == "L" })
            }

            let bad = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots?q=%20-%20")
            #expect(bad.status == .badRequest && bad.problemType == "lot-filter-invalid")
            #expect((bad.json["detail"] as? String ?? "").contains("letter or digit"))
        }
    }
}
