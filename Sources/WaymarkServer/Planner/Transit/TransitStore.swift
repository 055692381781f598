import Foundation
import SQLKit
import WaymarkCore

/// The timetable's row: what a server needs to know whether its copy is current.
struct TransitFeedRow: Sendable, Hashable {
    var id: String
    var name: String
    var version: Int
    var timeZone: String
    var stops: Int
    var routes: Int
    var trips: Int
    var stopTimes: Int
    var firstDay: String?
    var lastDay: String?
    var warnings: [String]
    var importedAt: Date
}

/// SQL for the transit tables: the feed's row and its files as imported.
struct TransitStore: Sendable {
    let store: SQLStore
    /// One timetable at a time, under this id.
    static let feedId = "main"

    private static let columns = "id, name, version, time_zone, stops, routes, trips, stop_times, first_day, last_day, warnings, imported_at"

    func current() async throws -> TransitFeedRow? {
        try await store.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM transit_feeds WHERE id = \(bind: Self.feedId)").first().map(Self.row)
    }

    func files(version: Int) async throws -> [String: Data]? {
        // Read in one statement with the version, so that an import meanwhile is not half seen.
        let rows = try await store.sql.raw("""
            SELECT f.name, f.content FROM transit_feed_files f JOIN transit_feeds t ON t.id = f.feed_id
            WHERE t.id = \(bind: Self.feedId) AND t.version = \(bind: version)
            """).all()
        guard !rows.isEmpty else { return nil }
        var out: [String: Data] = [:]
        for r in rows { out[try r.decode(column: "name", as: String.self)] = Data(try r.decode(column: "content", as: String.self).utf8) }
        return out
    }

    /// Writes the feed's row and files in one transaction, replacing what was there. Returns the
    /// new version.
    func replace(_ row: TransitFeedRow, files: [String: Data]) async throws -> Int {
        let warnings = String(decoding: try JSONEncoder().encode(row.warnings), as: UTF8.self)
        return try await store.write { sql in
            // Two imports at once: the database makes the second wait, then it updates.
            let version = try await sql.raw("""
                INSERT INTO transit_feeds (id, name, version, time_zone, stops, routes, trips, stop_times, first_day, last_day, warnings, imported_at)
                VALUES (\(bind: Self.feedId), \(bind: row.name), 1, \(bind: row.timeZone), \(bind: row.stops), \(bind: row.routes), \(bind: row.trips),
                        \(bind: row.stopTimes), \(bind: row.firstDay), \(bind: row.lastDay), \(bind: warnings), \(bind: row.importedAt.millis))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, version = transit_feeds.version + 1, time_zone = excluded.time_zone,
                    stops = excluded.stops, routes = excluded.routes, trips = excluded.trips, stop_times = excluded.stop_times,
                    first_day = excluded.first_day, last_day = excluded.last_day, warnings = excluded.warnings, imported_at = excluded.imported_at
                RETURNING version
                """).first().map { try $0.decode(column: "version", as: Int.self) } ?? 1
            try await sql.raw("DELETE FROM transit_feed_files WHERE feed_id = \(bind: Self.feedId)").run()
            for (name, data) in files.sorted(by: { $0.key < $1.key }) {
                try await sql.raw("""
                    INSERT INTO transit_feed_files (feed_id, name, content)
                    VALUES (\(bind: Self.feedId), \(bind: name), \(bind: String(decoding: data, as: UTF8.self)))
                    """).run()
            }
            return version
        }
    }

    private static func row(_ r: any SQLRow) throws -> TransitFeedRow {
        TransitFeedRow(
            id: try r.decode(column: "id", as: String.self), name: try r.decode(column: "name", as: String.self),
            version: try r.decode(column: "version", as: Int.self), timeZone: try r.decode(column: "time_zone", as: String.self),
            stops: try r.decode(column: "stops", as: Int.self), routes: try r.decode(column: "routes", as: Int.self),
            trips: try r.decode(column: "trips", as: Int.self), stopTimes: try r.decode(column: "stop_times", as: Int.self),
            firstDay: try r.decode(column: "first_day", as: String?.self), lastDay: try r.decode(column: "last_day", as: String?.self),
            warnings: try JSONDecoder().decode([String].self, from: Data(try r.decode(column: "warnings", as: String.self).utf8)),
            importedAt: Date(millis: try r.decode(column: "imported_at", as: Int64.self)))
    }
}
