import Foundation
import SQLKit
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("No location is stored unless shared (ACC-11, QLT-4)")
struct NoLocationStoredTests {
    typealias T = TestContext
    /// Where the driver stands: a few hundred metres from the test campus's lots.
    static let here = Coordinate(latitude: 33.884713, longitude: -117.881917)

    /// Every value of every table, as text, with the table and column it came from.
    static func everyValue(_ sql: any SQLDatabase, sqlite: Bool) async throws -> [(table: String, column: String, value: String)] {
        let tables: [String] = sqlite
            ? try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all().map { try $0.decode(column: "name", as: String.self) }
            : try await sql.raw("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'").all().map { try $0.decode(column: "name", as: String.self) }
        var out: [(String, String, String)] = []
        for table in tables.sorted() {
            for row in try await sql.raw("SELECT * FROM \(ident: table)").all() {
                for (column, value) in try PersonalExport.values(row) {
                    guard let value else { continue }
                    out.append((table, column, "\(value)"))
                }
            }
        }
        return out
    }

    @Test("ACC-11 after a lot search near the driver, a hold, a parked car and a booking, no table holds the driver's position",
          arguments: TestDatabase.available)
    func nothingStored(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let me = try await ctx.register("driver")
            try await ctx.topUp(me.token, cents: 3000)
            let near = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots?lat=\(Self.here.latitude)&lon=\(Self.here.longitude)&radius=2000", token: me.token)
            #expect(near.status == .ok && (near.json["lots"] as? [[String: Any]])?.first?["distanceMetres"] != nil)
            let lot = try await ctx.freeLot("L")
            let hold = try #require(try await ctx.call(.POST, "/v1/holds", token: me.token, json: ["spotId": lot.spots[2]]).json["id"] as? String)
            _ = try await ctx.ingest([T.event(lot.sensors[2], true, at: ctx.clock.now, seq: 5)])
            let parked = try await ctx.call(.POST, "/v1/holds/\(hold)/answer", token: me.token, json: ["wasMe": true])
            #expect((parked.json["answered"] as? [String: Any])?["outcome"] as? String == "parked")
            #expect(try await ctx.book(me.token, lot: lot.id, T.local(day: 19, 10), T.local(day: 19, 12)).status == .created)

            let values = try await Self.everyValue(ctx.services.store.sql, sqlite: db == .sqlite)
            #expect(values.count > 500, "the tables were read: \(values.count) values")
            // As a number or inside a text (a JSON column, a log line, a URL).
            let digits = ["33.884713", "117.881917", "33.8847", "117.8819"]
            let found = values.filter { v in
                if let number = Double(v.value), abs(number - Self.here.latitude) < 1e-6 || abs(number - Self.here.longitude) < 1e-6 { return true }
                return digits.contains { v.value.contains($0) }
            }
            #expect(found.isEmpty, "the driver's position is stored: \(found.prefix(5).map { "\($0.table).\($0.column) = \($0.value)" })")
            // The check itself finds a position where one is kept: the Planner's, shared on purpose.
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token,
                                       json: ["latitude": Self.here.latitude, "longitude": Self.here.longitude]).status.code < 300)
            let shared = try await Self.everyValue(ctx.services.store.sql, sqlite: db == .sqlite).filter { v in
                Double(v.value).map { abs($0 - Self.here.latitude) < 1e-6 } ?? false
            }
            #expect(shared.map(\.table) == ["planner_positions"], "\(shared.map { "\($0.table).\($0.column)" })")
        }
    }
}
