import Foundation
import SQLKit
import WaymarkAPI
import WaymarkCore

struct LiveEventRecord: Sendable {
    var siteId: String
    var lotId: String?
    var at: Date
    var kind: String
    var payload: String
    /// The events the row stands for: more than one only for a `SpotEventRow`.
    var count: Int = 1
}

/// Appending to and reading the live event log. Appends happen inside the caller's
/// transaction; on PostgreSQL the caller holds `LiveHub.appendLockKey`.
///
/// Event ids are one increasing sequence (the stream positions of the contract); a row holds
/// the events `id` … `id + event_count - 1` (see `GroupLiveEvents`).
enum EventLog {
    /// In one statement, in the order given: each row's first id follows the previous row's
    /// last, and the first row's follows the newest row in the table. Whoever appends holds the
    /// write lock (SQLite has one writer; PostgreSQL writers take `LiveHub.appendLockKey`), so
    /// ids are taken in commit order.
    static func append(_ events: [LiveEventRecord], sql: any SQLDatabase) async throws {
        guard !events.isEmpty else { return }
        let v = rows(events).table([("ahead", true), ("events", true), ("site", false), ("lot", false), ("at", true), ("kind", false), ("payload", false)],
                           isPostgres: sql.dialect.name == "postgresql")
        try await sql.raw("""
            INSERT INTO live_events (id, event_count, site_id, lot_id, at, kind, payload)
            SELECT next.id + v.ahead, v.events, v.site, v.lot, v.at, v.kind, v.payload
            FROM \(v) AS v, (SELECT COALESCE((SELECT id + event_count FROM live_events ORDER BY id DESC LIMIT 1), 1) AS id) AS next
            ORDER BY v.n
            """).run()
    }

    /// The rows to append, as `append` and `waymark_apply_sensor_commit` take them: ids ahead of
    /// the first row's first id, event count, site, lot, time, kind, payload.
    static func rows(_ events: [LiveEventRecord]) -> JSONRows {
        var rows = JSONRows(reservingBytes: events.reduce(0) { $0 + $1.payload.utf8.count * 9 / 8 + 128 })
        var ahead: Int64 = 0
        for e in events {
            rows.append(.int(ahead), .int(Int64(e.count)), .text(e.siteId), e.lotId.map { .text($0) } ?? .null, .int(e.at.millis),
                        .text(e.kind), .text(e.payload))
            ahead += Int64(e.count)
        }
        return rows
    }

    struct Row: Sendable {
        /// The id of the row's first event.
        var id: Int64
        var count: Int64
        var siteId: String
        var lotId: String?
        var kind: String
        var payload: String

        var lastId: Int64 { id + count - 1 }

        /// The row's events after `after`, in order.
        func events(after: Int64 = .min) -> [LiveEvent] {
            guard lastId > after else { return [] }
            guard kind == SpotEventRow.kind, let lotId else { return [LiveEvent(id: id, kind: kind, data: payload)] }
            var out: [LiveEvent] = []
            out.reserveCapacity(Int(count))
            for (k, data) in SpotEventRow.eventData(lotId: lotId, payload: payload).enumerated() where id + Int64(k) > after {
                out.append(LiveEvent(id: id + Int64(k), kind: SpotEventRow.eventKind, data: data))
            }
            return out
        }
    }

    /// One event as a stream sends it.
    struct LiveEvent: Sendable, Equatable {
        var id: Int64
        var kind: String
        var data: String

        var frame: [UInt8] { LiveEncoding.frame(id: id, kind: kind, payload: data) }
    }

    static let columns = "id, event_count, site_id, lot_id, kind, payload"

    /// Decoded column by column: the tailer reads every row the server writes, and the
    /// Codable path with key conversion cost more CPU than writing them (profiled).
    static func rows(_ raw: [any SQLRow]) throws -> [Row] {
        try raw.map { r in
            Row(id: try r.decode(column: "id", as: Int64.self),
                count: try r.decode(column: "event_count", as: Int64.self),
                siteId: try r.decode(column: "site_id", as: String.self),
                lotId: try r.decodeOptional(column: "lot_id", as: String.self),
                kind: try r.decode(column: "kind", as: String.self),
                payload: try r.decode(column: "payload", as: String.self))
        }
    }

    /// The rows after `after`, which must be the last id of a row (or of none): the tailer's
    /// cursor, which only ever moves a whole row at a time.
    static func read(after id: Int64, limit: Int, sql: any SQLDatabase) async throws -> [Row] {
        try rows(try await sql.raw("SELECT \(unsafeRaw: columns) FROM live_events WHERE id > \(bind: id) ORDER BY id LIMIT \(literal: limit)").all())
    }

    /// The site's events after `after` up to and including `upTo` (the last id of a row), or
    /// nil when there are more than `limit`. `after` may be any id the stream sent, also one
    /// in the middle of a row: that row is read again and its events up to `after` skipped.
    static func events(siteId: String, after: Int64, upTo: Int64, limit: Int, sql: any SQLDatabase) async throws -> [LiveEvent]? {
        // The first row is the site's last one that starts at or before `after + 1`; every other
        // row holds at least one event, so limit + 2 rows are more than `limit` events.
        let found = try rows(try await sql.raw("""
            SELECT \(unsafeRaw: columns) FROM live_events
            WHERE site_id = \(bind: siteId) AND id <= \(bind: upTo)
              AND id >= COALESCE((SELECT MAX(id) FROM live_events WHERE site_id = \(bind: siteId) AND id <= \(bind: after + 1)), 0)
            ORDER BY id LIMIT \(literal: limit + 2)
            """).all())
        var out: [LiveEvent] = []
        for row in found {
            out += row.events(after: after)
            if out.count > limit { return nil }
        }
        return out
    }

    /// The first id still in the log and the last id written (0 and 0 for an empty log).
    static func bounds(sql: any SQLDatabase) async throws -> (min: Int64, max: Int64) {
        let row = try await sql.raw("""
            SELECT COALESCE((SELECT MIN(id) FROM live_events), 0) AS lo,
                   COALESCE((SELECT id + event_count - 1 FROM live_events ORDER BY id DESC LIMIT 1), 0) AS hi
            """).first()
        return (try row?.decode(column: "lo", as: Int64.self) ?? 0, try row?.decode(column: "hi", as: Int64.self) ?? 0)
    }

    /// Drops rows older than the retention, but never the newest: the next id follows it, and
    /// an id used before must never come back (a client resuming from it would skip events).
    static func trim(before: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            DELETE FROM live_events WHERE at < \(bind: before.millis) AND id < (SELECT MAX(id) FROM live_events)
            """).run()
    }
}

enum LiveEncoding {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = WaymarkDateTranscoder.encodingStrategy
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = WaymarkDateTranscoder.decodingStrategy
        return d
    }()

    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One Server-Sent Event. The payload is JSON without newlines, so it fits one data line.
    static func frame(id: Int64, kind: String, payload: String) -> [UInt8] {
        Array("id: \(id)\nevent: \(kind)\ndata: \(payload)\n\n".utf8)
    }
}
