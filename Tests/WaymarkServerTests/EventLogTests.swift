import Foundation
import Testing
import WaymarkAPI
@testable import WaymarkServer

@Suite("Live event log (PRK-2, PRK-5)")
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
            #expect(rows.map(\.id) == Array(start + 1...start + Int64(awkward.count)), "one id each, following the log's last")
        }
    }

    @Test("PRK-5 a commit's changes to a lot are one row whose events have consecutive ids, following the log's last", arguments: TestDatabase.available)
    func oneRowPerLot(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let store = ctx.services.store
            let lots = try await ctx.lotIds()
            let start = try await EventLog.bounds(sql: store.sql).max
            let s = Fixtures.sensorIds(lot: "S"), l = Fixtures.sensorIds(lot: "L")
            let at = ctx.clock.now
            let batch = [TestContext.event(s[3], true, at: at, seq: 1), TestContext.event(l[0], true, at: at, seq: 1),
                         TestContext.event(s[1], true, at: at, seq: 1), TestContext.event(l[9], true, at: at, seq: 1),
                         TestContext.event(s[3], false, at: at.addingTimeInterval(1), seq: 2)]
            #expect(try await ctx.ingest(batch).body["accepted"] as? Int == 5)

            let rows = try await EventLog.read(after: start, limit: 100, sql: store.sql)
            #expect(rows.count == 2, "one row per lot")
            #expect(rows.map(\.kind) == [SpotEventRow.kind, SpotEventRow.kind])
            #expect(rows.first?.id == start + 1)
            #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.lastId + 1 == $1.id }, "no gap between rows")
            #expect(try await EventLog.bounds(sql: store.sql).max == start + 4, "a spot changed twice in one commit is one event")

            let events = try #require(try await EventLog.events(siteId: ctx.siteId, after: start, upTo: start + 4, limit: 100, sql: store.sql))
            #expect(events.map(\.id) == Array(start + 1...start + 4))
            #expect(events.allSatisfy { $0.kind == "spot" })
            let changes = try events.map { try LiveEncoding.decoder.decode(Components.Schemas.SpotChange.self, from: Data($0.data.utf8)) }
            var seen: [String: [Int: String]] = [:]
            for c in changes { seen[c.lotId, default: [:]][c.ordinal] = c.state.rawValue }
            #expect(seen == [lots["S"]!: [1: "o", 3: "f"], lots["L"]!: [0: "o", 9: "o"]])
            // Every event carries its lot's counters after the commit.
            #expect(changes.filter { $0.lotId == lots["L"] }.allSatisfy { $0.lot.occupied == 2 })
            #expect(changes.filter { $0.lotId == lots["S"] }.allSatisfy { $0.lot.occupied == 1 })

            // The hub takes the counters from the rows; its cursor is the last event.
            try await ctx.services.parking.live.pollOnce()
            #expect(ctx.services.parking.live.cursor == start + 4)
        }
    }

    @Test("PRK-5 resuming from an id inside a row replays the rest of that row and what follows, no gap, no duplicate", arguments: TestDatabase.available)
    func resumeInsideARow(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let store = ctx.services.store
            let start = try await EventLog.bounds(sql: store.sql).max
            let l = Fixtures.sensorIds(lot: "L")
            let first = l.prefix(6).map { TestContext.event($0, true, at: ctx.clock.now, seq: 1) }
            #expect(try await ctx.ingest(first).body["accepted"] as? Int == 6)
            let second = l.prefix(3).map { TestContext.event($0, false, at: ctx.clock.now, seq: 2) }
            #expect(try await ctx.ingest(second).body["accepted"] as? Int == 3)
            let end = start + 9
            #expect(try await EventLog.bounds(sql: store.sql).max == end)

            for after in start...end {
                let events = try #require(try await EventLog.events(siteId: ctx.siteId, after: after, upTo: end, limit: 100, sql: store.sql))
                #expect(events.map(\.id) == Array(after + 1 ..< end + 1), "after \(after - start)")
            }
            #expect(try await EventLog.events(siteId: ctx.siteId, after: start, upTo: end, limit: 8, sql: store.sql) == nil,
                    "more than the limit is refused, not cut short")
            #expect(try await EventLog.events(siteId: ctx.siteId, after: start, upTo: end, limit: 9, sql: store.sql)?.count == 9)
            #expect(try await EventLog.events(siteId: "another-site", after: start, upTo: end, limit: 100, sql: store.sql) == [])

            // Through the stream: Last-Event-ID in the middle of the first commit's row.
            try await ctx.services.parking.live.pollOnce()
            let output = try await APIHandler(services: ctx.services).streamSiteLive(
                .init(path: .init(siteId: ctx.siteId), headers: .init(lastEventID: String(start + 4))))
            guard case .ok(let ok) = output, case .textEventStream(let body) = ok.body else { throw TestFailure("no stream") }
            var ids: [Int64] = []
            var text = ""
            for try await chunk in body {
                text += String(decoding: chunk, as: UTF8.self)
                ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int64($0.dropFirst(4)) }
                if ids.count >= 5 { break }
            }
            #expect(ids == Array(start + 5...end))
        }
    }

    @Test("PRK-5 trimming the log keeps its newest row, so ids are never handed out twice", arguments: TestDatabase.available)
    func trimKeepsNewest(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let store = ctx.services.store
            let l = Fixtures.sensorIds(lot: "L")
            #expect(try await ctx.ingest(l.prefix(4).map { TestContext.event($0, true, at: ctx.clock.now, seq: 1) }).status == .ok)
            let end = try await EventLog.bounds(sql: store.sql).max
            try await store.write { sql in try await EventLog.trim(before: ctx.clock.now.addingTimeInterval(3600), sql: sql) }
            let left = try await EventLog.read(after: 0, limit: 100, sql: store.sql)
            #expect(left.count == 1 && left.first?.lastId == end)
            #expect(try await ctx.ingest([TestContext.event(l[0], false, at: ctx.clock.now, seq: 2)]).status == .ok)
            #expect(try await EventLog.bounds(sql: store.sql).max == end + 1)
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
