import Foundation
import SQLKit
import WaymarkCore

/// A trail as lists, the map and search need it, without its path or page.
struct TrailRow: Sendable, Hashable {
    var id: String
    var name: String
    var area: String
    var shape: Trail.Shape
    var difficulty: TrailDifficulty
    var official: Bool
    var accessible: Bool
    var huntingAlert: String?
    var trailhead: Coordinate
    var south: Double, west: Double, north: Double, east: Double
    var lengthMetres: Double
    var gainMetres: Double
    var features: Set<PointOfInterest.Kind>
    var pictureId: String?
    var version: Int
    var updatedAt: Date

    var indexEntry: TrailIndex.Entry {
        TrailIndex.Entry(id: id, trailhead: trailhead, south: south, west: west, north: north, east: east, difficulty: difficulty, features: features)
    }
}

/// Where a trail came from: the demo, a file, or an operator's edit.
enum TrailSource: String, Sendable { case demo, file, operator_ = "operator" }

/// SQL for the trail tables.
struct TrailStore: Sendable {
    let store: SQLStore

    private static let columns = """
        id, name, area, shape, difficulty, official, accessible, hunting_alert, trailhead_lat, trailhead_lon, south, west, north, east,
        length_metres, gain_metres, features, picture_id, version, updated_at
        """

    func catalogueVersion() async throws -> Int64 {
        try await store.sql.raw("SELECT version FROM trail_catalogue WHERE id = 1").first()?.decode(column: "version", as: Int64.self) ?? 0
    }

    func rows() async throws -> [TrailRow] {
        try await store.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM trails").all().map(Self.row)
    }

    func row(_ id: String) async throws -> TrailRow? {
        try await store.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM trails WHERE id = \(bind: id)").first().map(Self.row)
    }

    func trail(_ id: String) async throws -> (row: TrailRow, trail: Trail)? {
        guard let r = try await store.sql.raw("SELECT \(unsafeRaw: Self.columns), body FROM trails WHERE id = \(bind: id)").first() else { return nil }
        return (try Self.row(r), try JSONColumn.decode(Trail.self, try r.decode(column: "body", as: String.self)))
    }

    /// The simplified lines of these trails, by id.
    func lines(_ ids: [String]) async throws -> [String: [[Double]]] {
        guard !ids.isEmpty else { return [:] }
        var out: [String: [[Double]]] = [:]
        for chunk in ids.chunked(200) {
            let list = SQLList(chunk.map { SQLBind($0) })
            for r in try await store.sql.raw("SELECT id, line FROM trails WHERE id IN (\(list))").all() {
                out[try r.decode(column: "id", as: String.self)] = try JSONColumn.decode([[Double]].self, try r.decode(column: "line", as: String.self))
            }
        }
        return out
    }

    /// Adds or replaces trails in one transaction and raises the catalogue's version once.
    func save(_ trails: [Trail], source: TrailSource, now: Date) async throws {
        guard !trails.isEmpty else { return }
        let encoded = try trails.map { t -> (Trail, TrailMeasures, String, String) in
            let line = t.simplifiedLine().map { [($0.latitude * 1e6).rounded() / 1e6, ($0.longitude * 1e6).rounded() / 1e6] }
            return (t, t.measures, try JSONColumn.encode(line), try JSONColumn.encode(t))
        }
        try await store.write { sql in
            for (t, m, line, body) in encoded {
                let b = t.bounds
                let features = Set(t.points.map(\.kind)).map(\.rawValue).sorted().joined(separator: ",")
                try await sql.raw("""
                    INSERT INTO trails (id, name, area, shape, difficulty, official, accessible, hunting_alert, trailhead_lat, trailhead_lon,
                        south, west, north, east, length_metres, gain_metres, features, picture_id, line, body, source, version, created_at, updated_at)
                    VALUES (\(bind: t.id), \(bind: t.name), \(bind: t.area), \(bind: t.shape.rawValue), \(bind: t.difficulty.rawValue),
                        \(bind: t.officialDifficulty != nil), \(bind: t.accessible), \(bind: t.huntingAlert), \(bind: t.trailhead.latitude),
                        \(bind: t.trailhead.longitude), \(bind: b.south), \(bind: b.west), \(bind: b.north), \(bind: b.east), \(bind: m.metres),
                        \(bind: m.gain), \(bind: features), \(bind: t.pictureId), \(bind: line), \(bind: body), \(bind: source.rawValue), 1,
                        \(bind: now.millis), \(bind: now.millis))
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, area = excluded.area, shape = excluded.shape,
                        difficulty = excluded.difficulty, official = excluded.official, accessible = excluded.accessible,
                        hunting_alert = excluded.hunting_alert, trailhead_lat = excluded.trailhead_lat, trailhead_lon = excluded.trailhead_lon,
                        south = excluded.south, west = excluded.west, north = excluded.north, east = excluded.east,
                        length_metres = excluded.length_metres, gain_metres = excluded.gain_metres, features = excluded.features,
                        picture_id = excluded.picture_id, line = excluded.line, body = excluded.body, source = excluded.source,
                        version = trails.version + 1, updated_at = excluded.updated_at
                    """).run()
            }
            try await sql.raw("UPDATE trail_catalogue SET version = version + 1 WHERE id = 1").run()
        }
    }

    /// False when there was no such trail.
    func delete(_ id: String) async throws -> Bool {
        try await store.write { sql in
            guard try await sql.raw("DELETE FROM trails WHERE id = \(bind: id) RETURNING id").first() != nil else { return false }
            try await sql.raw("UPDATE trail_catalogue SET version = version + 1 WHERE id = 1").run()
            return true
        }
    }

    func count() async throws -> Int {
        try await store.sql.raw("SELECT COUNT(*) AS n FROM trails").first()?.decode(column: "n", as: Int.self) ?? 0
    }

    // MARK: Pictures

    func addPicture(id: String, contentType: String, bytes: Data, now: Date) async throws {
        try await store.write { sql in
            try await sql.raw("""
                INSERT INTO trail_pictures (id, content_type, bytes, created_at) VALUES (\(bind: id), \(bind: contentType), \(bind: bytes), \(bind: now.millis))
                ON CONFLICT (id) DO NOTHING
                """).run()
        }
    }

    func picture(_ id: String) async throws -> (contentType: String, bytes: Data)? {
        guard let r = try await store.sql.raw("SELECT content_type, bytes FROM trail_pictures WHERE id = \(bind: id)").first() else { return nil }
        return (try r.decode(column: "content_type", as: String.self), try r.decode(column: "bytes", as: Data.self))
    }

    func hasPicture(_ id: String) async throws -> Bool {
        try await store.sql.raw("SELECT id FROM trail_pictures WHERE id = \(bind: id)").first() != nil
    }

    // MARK: Favourites

    func favourites(userId: String) async throws -> [String] {
        try await store.sql.raw("SELECT trail_id FROM trail_favourites WHERE user_id = \(bind: userId) ORDER BY created_at DESC, trail_id")
            .all().map { try $0.decode(column: "trail_id", as: String.self) }
    }

    /// False when there is no such trail.
    func addFavourite(userId: String, trailId: String, now: Date) async throws -> Bool {
        try await store.write { sql in
            guard try await sql.raw("SELECT id FROM trails WHERE id = \(bind: trailId)").first() != nil else { return false }
            try await sql.raw("""
                INSERT INTO trail_favourites (user_id, trail_id, created_at) VALUES (\(bind: userId), \(bind: trailId), \(bind: now.millis))
                ON CONFLICT (user_id, trail_id) DO NOTHING
                """).run()
            return true
        }
    }

    func removeFavourite(userId: String, trailId: String) async throws {
        try await store.write { sql in
            try await sql.raw("DELETE FROM trail_favourites WHERE user_id = \(bind: userId) AND trail_id = \(bind: trailId)").run()
        }
    }

    private static func row(_ r: any SQLRow) throws -> TrailRow {
        TrailRow(
            id: try r.decode(column: "id", as: String.self), name: try r.decode(column: "name", as: String.self),
            area: try r.decode(column: "area", as: String.self),
            shape: Trail.Shape(rawValue: try r.decode(column: "shape", as: String.self)) ?? .pointToPoint,
            difficulty: TrailDifficulty(rawValue: try r.decode(column: "difficulty", as: String.self)) ?? .moderate,
            official: try r.decode(column: "official", as: Bool.self), accessible: try r.decode(column: "accessible", as: Bool.self),
            huntingAlert: try r.decode(column: "hunting_alert", as: String?.self),
            trailhead: Coordinate(latitude: try r.decode(column: "trailhead_lat", as: Double.self), longitude: try r.decode(column: "trailhead_lon", as: Double.self)),
            south: try r.decode(column: "south", as: Double.self), west: try r.decode(column: "west", as: Double.self),
            north: try r.decode(column: "north", as: Double.self), east: try r.decode(column: "east", as: Double.self),
            lengthMetres: try r.decode(column: "length_metres", as: Double.self), gainMetres: try r.decode(column: "gain_metres", as: Double.self),
            features: Set(try r.decode(column: "features", as: String.self).split(separator: ",").compactMap { PointOfInterest.Kind(rawValue: String($0)) }),
            pictureId: try r.decode(column: "picture_id", as: String?.self), version: try r.decode(column: "version", as: Int.self),
            updatedAt: Date(millis: try r.decode(column: "updated_at", as: Int64.self)))
    }
}
