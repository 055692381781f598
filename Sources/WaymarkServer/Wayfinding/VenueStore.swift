import Foundation
import SQLKit
import WaymarkCore

/// A venue as its row says: what lists and ETags need without loading its features.
struct VenueRow: Sendable, Hashable {
    var id: String
    var name: String
    var siteId: String?
    var version: Int
    var center: Coordinate
    var bounds: BoundingBox
    var buildings: Int
    var people: Int
    var warnings: [String]
    var importedAt: Date
}

/// SQL for the venue tables: rows, the archive's files, the directory.
struct VenueStore: Sendable {
    let store: SQLStore

    private static let columns = "id, name, site_id, version, center_lat, center_lon, south, west, north, east, buildings, people, warnings, imported_at"

    func list() async throws -> [VenueRow] {
        try await store.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM venues ORDER BY name, id").all().map(Self.row)
    }

    func venue(_ id: String) async throws -> VenueRow? {
        try await store.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM venues WHERE id = \(bind: id)").first().map(Self.row)
    }

    func files(_ id: String) async throws -> [(name: String, data: Data)] {
        try await store.sql.raw("SELECT name, content FROM venue_files WHERE venue_id = \(bind: id) ORDER BY name").all().map {
            (try $0.decode(column: "name", as: String.self), Data(try $0.decode(column: "content", as: String.self).utf8))
        }
    }

    func staff(_ id: String) async throws -> [StaffMember] {
        try await store.sql.raw("""
            SELECT name, title, department, building, room, email, office_hours FROM venue_staff
            WHERE venue_id = \(bind: id) ORDER BY position
            """).all().map {
            StaffMember(name: try $0.decode(column: "name", as: String.self), title: try $0.decode(column: "title", as: String?.self),
                        department: try $0.decode(column: "department", as: String?.self),
                        building: try $0.decode(column: "building", as: String.self), room: try $0.decode(column: "room", as: String.self),
                        email: try $0.decode(column: "email", as: String?.self), officeHours: try $0.decode(column: "office_hours", as: String?.self))
        }
    }

    /// Writes the venue and its files in one transaction, replacing what was there; the
    /// directory stays. Returns the new version.
    func replaceVenue(_ row: VenueRow, files: [(name: String, data: Data)]) async throws -> Int {
        let warnings = String(decoding: try JSONEncoder().encode(row.warnings), as: UTF8.self)
        let texts = files.map { ($0.name, String(decoding: $0.data, as: UTF8.self)) }
        return try await store.write { sql in
            // The database decides between two imports of one venue: the second waits, then updates.
            let version = try await sql.raw("""
                INSERT INTO venues (id, name, site_id, version, center_lat, center_lon, south, west, north, east, buildings, people, warnings, imported_at)
                VALUES (\(bind: row.id), \(bind: row.name), \(bind: row.siteId), 1, \(bind: row.center.latitude), \(bind: row.center.longitude),
                        \(bind: row.bounds.south), \(bind: row.bounds.west), \(bind: row.bounds.north), \(bind: row.bounds.east),
                        \(bind: row.buildings), 0, \(bind: warnings), \(bind: row.importedAt.millis))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, site_id = excluded.site_id, version = venues.version + 1,
                    center_lat = excluded.center_lat, center_lon = excluded.center_lon, south = excluded.south, west = excluded.west,
                    north = excluded.north, east = excluded.east, buildings = excluded.buildings, warnings = excluded.warnings,
                    imported_at = excluded.imported_at
                RETURNING version
                """).first().map { try $0.decode(column: "version", as: Int.self) } ?? 1
            try await sql.raw("DELETE FROM venue_files WHERE venue_id = \(bind: row.id)").run()
            for (name, content) in texts {
                try await sql.raw("INSERT INTO venue_files (venue_id, name, content) VALUES (\(bind: row.id), \(bind: name), \(bind: content))").run()
            }
            return version
        }
    }

    /// Replaces the venue's directory; nil when there is no such venue.
    func replaceStaff(_ venueId: String, _ staff: [StaffMember]) async throws -> Int? {
        try await store.write { sql in
            guard let version = try await sql.raw("""
                UPDATE venues SET version = version + 1, people = \(bind: staff.count) WHERE id = \(bind: venueId) RETURNING version
                """).first().map({ try $0.decode(column: "version", as: Int.self) }) else { return nil }
            try await sql.raw("DELETE FROM venue_staff WHERE venue_id = \(bind: venueId)").run()
            for (c, chunk) in staff.chunked(200).enumerated() {
                let rows: [SQLQueryString] = chunk.enumerated().map { (i, p) in
                    "(\(bind: venueId), \(bind: p.id), \(bind: c * 200 + i), \(bind: p.name), \(bind: p.title), \(bind: p.department), \(bind: p.building), \(bind: p.room), \(bind: p.email), \(bind: p.officeHours))"
                }
                try await sql.raw("""
                    INSERT INTO venue_staff (venue_id, id, position, name, title, department, building, room, email, office_hours)
                    VALUES \(rows.joined(separator: ", "))
                    """).run()
            }
            return version
        }
    }

    private static func row(_ r: any SQLRow) throws -> VenueRow {
        let warnings = try JSONDecoder().decode([String].self, from: Data(try r.decode(column: "warnings", as: String.self).utf8))
        return VenueRow(
            id: try r.decode(column: "id", as: String.self), name: try r.decode(column: "name", as: String.self),
            siteId: try r.decode(column: "site_id", as: String?.self), version: try r.decode(column: "version", as: Int.self),
            center: Coordinate(latitude: try r.decode(column: "center_lat", as: Double.self), longitude: try r.decode(column: "center_lon", as: Double.self)),
            bounds: BoundingBox(south: try r.decode(column: "south", as: Double.self), west: try r.decode(column: "west", as: Double.self),
                                north: try r.decode(column: "north", as: Double.self), east: try r.decode(column: "east", as: Double.self)),
            buildings: try r.decode(column: "buildings", as: Int.self), people: try r.decode(column: "people", as: Int.self),
            warnings: warnings, importedAt: Date(millis: try r.decode(column: "imported_at", as: Int64.self)))
    }
}
