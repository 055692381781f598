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
}

/// Appending to and reading the live event log. Appends happen inside the caller's
/// transaction; on PostgreSQL the caller holds `LiveHub.appendLockKey`.
enum EventLog {
    /// In one statement, in the order given: ids are assigned in that order.
    static func append(_ events: [LiveEventRecord], sql: any SQLDatabase) async throws {
        guard !events.isEmpty else { return }
        var rows = JSONRows(reservingBytes: events.reduce(0) { $0 + $1.payload.utf8.count * 9 / 8 + 128 })
        for e in events {
            rows.append(.text(e.siteId), e.lotId.map { .text($0) } ?? .null, .int(e.at.millis), .text(e.kind), .text(e.payload))
        }
        let v = rows.table([("site", false), ("lot", false), ("at", true), ("kind", false), ("payload", false)], isPostgres: sql.dialect.name == "postgresql")
        try await sql.raw("INSERT INTO live_events (site_id, lot_id, at, kind, payload) SELECT site, lot, at, kind, payload FROM \(v) AS v ORDER BY n").run()
    }

    struct Row: Decodable, Sendable {
        var id: Int64
        var siteId: String
        var lotId: String?
        var kind: String
        var payload: String
    }

    /// Decoded column by column: the tailer reads every event the server writes, and the
    /// Codable path with key conversion cost more CPU than writing them (profiled).
    static func rows(_ raw: [any SQLRow]) throws -> [Row] {
        try raw.map { r in
            Row(id: try r.decode(column: "id", as: Int64.self),
                siteId: try r.decode(column: "site_id", as: String.self),
                lotId: try r.decodeOptional(column: "lot_id", as: String.self),
                kind: try r.decode(column: "kind", as: String.self),
                payload: try r.decode(column: "payload", as: String.self))
        }
    }

    static func read(after id: Int64, limit: Int, sql: any SQLDatabase) async throws -> [Row] {
        try rows(try await sql.raw("SELECT id, site_id, lot_id, kind, payload FROM live_events WHERE id > \(bind: id) ORDER BY id LIMIT \(literal: limit)").all())
    }

    static func read(siteId: String, after id: Int64, upTo last: Int64, limit: Int, sql: any SQLDatabase) async throws -> [Row] {
        try rows(try await sql.raw("""
            SELECT id, site_id, lot_id, kind, payload FROM live_events
            WHERE site_id = \(bind: siteId) AND id > \(bind: id) AND id <= \(bind: last) ORDER BY id LIMIT \(literal: limit)
            """).all())
    }

    static func bounds(sql: any SQLDatabase) async throws -> (min: Int64, max: Int64) {
        let row = try await sql.raw("SELECT COALESCE(MIN(id), 0) AS lo, COALESCE(MAX(id), 0) AS hi FROM live_events").first()
        return (try row?.decode(column: "lo", as: Int64.self) ?? 0, try row?.decode(column: "hi", as: Int64.self) ?? 0)
    }

    /// Drops events older than the retention.
    static func trim(before: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM live_events WHERE at < \(bind: before.millis)").run()
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

    /// The `SpotChange` JSON of the contract, written by hand because ingest writes one per
    /// changed spot and the lot part is shared: keys sorted as `encode` sorts them, and every
    /// value is an id, a number, a state letter or a date, none of which needs escaping.
    static func spotChange(lotId: String, ordinal: Int, state: SpotState, at: Date, lotJSON: String) -> String {
        let time = (try? WaymarkDateTranscoder().encode(at)) ?? ""
        return "{\"at\":\"\(time)\",\"lot\":\(lotJSON),\"lotId\":\"\(lotId)\",\"ordinal\":\(ordinal),\"state\":\"\(state.rawValue)\"}"
    }

    /// One Server-Sent Event. The payload is JSON without newlines, so it fits one data line.
    static func frame(id: Int64, kind: String, payload: String) -> [UInt8] {
        Array("id: \(id)\nevent: \(kind)\ndata: \(payload)\n\n".utf8)
    }
}
