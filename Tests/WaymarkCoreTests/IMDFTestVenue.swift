import Foundation
@testable import WaymarkCore

/// Small venues drawn in metres for the wayfinding tests, and the real Ulm export on disk.
enum IMDFTestVenue {
    static let origin = Coordinate(latitude: 34.1812, longitude: -117.3214)

    static var ulmFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/imdf-ulm")
    }

    static func ulmFiles() throws -> [(name: String, data: Data)] {
        try FileManager.default.contentsOfDirectory(atPath: ulmFolder.path).sorted().map {
            ($0, try Data(contentsOf: ulmFolder.appendingPathComponent($0)))
        }
    }

    static func ring(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Coordinate] {
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)].map { Geo.offset(origin, east: $0.0, north: $0.1) }
    }

    static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry { .polygon([ring(x0, y0, x1, y1)]) }

    static func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry {
        .lineString([Geo.offset(origin, east: x0, north: y0), Geo.offset(origin, east: x1, north: y1)])
    }

    static func name(_ s: String) -> JSONValue { .object(["en": .string(s)]) }

    /// A two-storey hall, 44 × 12 m: a corridor along the south side of each level, rooms and a
    /// restroom on the north side (JB-101 and JB-102 below, JB-201 and JB-202 above), stairs at
    /// the west end and an elevator at the east end on both levels, an entrance door in the middle of the south
    /// wall. No relationships, so the builder must infer the stairs and the elevator; doors only
    /// into JB-101 and JB-201, so the others are reached through inferred passages.
    static func hall(elevator: Bool = true, secondBuilding: Bool = false) -> [IMDFFeature] {
        var f: [IMDFFeature] = []
        let venueId = "venue-0000", buildingId = "b-jb"
        f.append(.init(id: venueId, type: .venue, geometry: rect(-50, -50, 150, 60),
                       properties: ["category": .string("university"), "name": name("Test campus"), "address_id": .null,
                                    "display_point": Geometry.point(origin).json]))
        f.append(.init(id: buildingId, type: .building, geometry: nil,
                       properties: ["category": .string("unspecified"), "name": name("Jack H. Brown Hall"), "address_id": .null]))
        f.append(.init(id: "fp-jb", type: .footprint, geometry: rect(0, 0, 44, 12),
                       properties: ["category": .string("ground"), "building_ids": .array([.string(buildingId)])]))
        for (ordinal, tag) in [(0, "1"), (1, "2")] {
            let level = "level-\(ordinal)"
            f.append(.init(id: level, type: .level, geometry: rect(0, 0, 44, 12),
                           properties: ["category": .string("unspecified"), "ordinal": .number(Double(ordinal)), "outdoor": .bool(false),
                                        "name": name(ordinal == 0 ? "Ground floor" : "Level 2"), "short_name": name("\(ordinal + 1)"),
                                        "building_ids": .array([.string(buildingId)])]))
            func unit(_ id: String, _ category: String, _ g: Geometry, _ label: String? = nil) {
                f.append(.init(id: id, type: .unit, geometry: g,
                               properties: ["category": .string(category), "level_id": .string(level),
                                            "name": label.map(name) ?? .null]))
            }
            unit("corridor-\(ordinal)", "walkway", rect(4, 0, 40, 4))
            unit("stairs-\(ordinal)", "stairs", rect(0, 0, 4, 6))
            if elevator { unit("elevator-\(ordinal)", "elevator", rect(40, 0, 44, 6)) }
            unit("room-\(tag)01", "classroom", rect(4, 4, 20, 12), "JB-\(tag)01")
            unit("room-\(tag)02", "office", rect(20, 4, 36, 12), "JB-\(tag)02")
            unit("restroom-\(ordinal)", "restroom.female", rect(36, 4, 40, 12), "Restroom")
            f.append(.init(id: "door-\(tag)01", type: .opening, geometry: line(11, 4, 13, 4),
                           properties: ["category": .string("pedestrian"), "level_id": .string(level)]))
        }
        f.append(.init(id: "door-entrance", type: .opening, geometry: line(19, 0, 21, 0),
                       properties: ["category": .string("pedestrian"), "level_id": .string("level-0")]))
        if secondBuilding {
            f.append(.init(id: "b-pl", type: .building, geometry: nil,
                           properties: ["category": .string("unspecified"), "name": name("John M. Pfau Library"),
                                        "display_point": Geometry.point(Geo.offset(origin, east: 120, north: 30)).json]))
            f.append(.init(id: "fp-pl", type: .footprint, geometry: rect(110, 20, 130, 40),
                           properties: ["category": .string("ground"), "building_ids": .array([.string("b-pl")])]))
        }
        return f
    }

    static func archive(_ features: [IMDFFeature]) -> IMDFArchive { IMDFArchive(manifest: ["version": .string("1.0.0")], features: features) }
}
