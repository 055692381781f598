import Foundation
import Testing
@testable import WaymarkServer

@Suite("Live event log writes (PRK-2, PRK-5)")
struct EventLogTests {
    @Test("PRK-5 appended events read back unchanged and in order, whatever their text holds", arguments: TestDatabase.available)
    func appendReadsBack(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let store = ctx.app.waymark.store
            let start = try await EventLog.bounds(sql: store.sql).max
            let awkward = ["{\"a\":\"quote \\\" backslash \\\\ slash /\"}", "line\nbreak\ttab\u{1}", "ümlaut ✓ 🚗", "", "[]"]
            let records = awkward.enumerated().map { i, text in
                LiveEventRecord(siteId: ctx.siteId, lotId: i.isMultiple(of: 2) ? nil : "lot-\(i)",
                                at: Date(timeIntervalSince1970: 1_795_000_000 + Double(i)), kind: "k\(i)", payload: text)
            }
            try await store.write { sql in try await EventLog.append(records, sql: sql) }
            let rows = try await EventLog.read(after: start, limit: 100, sql: store.sql)
            #expect(rows.map(\.payload) == awkward)
            #expect(rows.map(\.kind) == records.map(\.kind))
            #expect(rows.map(\.lotId) == records.map(\.lotId))
            #expect(rows.map(\.id) == rows.map(\.id).sorted())
            #expect(Set(rows.map(\.id)).count == awkward.count)
        }
    }

    @Test("PRK-2 JSON rows quote what JSON requires")
    func quoting() {
        var out: [UInt8] = []
        JSONRows.appendQuoted("a\"b\\c\n\u{0}é", to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\"a\\\"b\\\\c\\u000a\\u0000é\"")
        var rows = JSONRows()
        rows.append(.text("x"), .int(-9_007_199_254_740_993), .null)
        rows.append(.int(Int64.max))
        #expect(rows.json == "[[\"x\",-9007199254740993,null],[9223372036854775807]]")
        #expect(rows.count == 2)
        #expect(JSONRows().json == "[]")
    }
}
