import Foundation
import Testing
@testable import WaymarkCore

@Suite("IMDF archives read, checked and written (WAY-1, WAY-7)")
struct IMDFReaderTests {
    @Test("WAY-1 WAY-7 the real, messy Ulm export reads: every level, unit and door kept, its quirks named as numbered warnings")
    func ulm() throws {
        let result = IMDFReader().read(files: try IMDFTestVenue.ulmFiles())
        let archive = try #require(result.archive, "\(result.problems.numbered.joined(separator: "\n"))")
        #expect(archive.features(.venue).count == 1)
        #expect(archive.features(.building).count == 127)
        #expect(archive.features(.level).count == 6)
        #expect(archive.features(.unit).count == 554)
        #expect(archive.features(.opening).count == 188)
        // 67 amenities (parking garages, other buildings' entries) name no unit: IMDF places every
        // amenity in a unit, so they are left out, each named.
        #expect(archive.features(.amenity).count == 543)
        let errors = result.problems.filter { $0.severity == .error }
        #expect(errors.count == 67)
        #expect(errors.allSatisfy { $0.file == "amenity.json" && $0.rule.hasPrefix("unit_ids must name at least one unit") })
        // The doors carry level ids of another export run; each group lies on one level's walls.
        let placed = result.problems.filter { $0.rule.contains("so all were placed on it") }
        #expect(placed.count == 5)
        #expect(placed.contains { $0.featureId == "55 openings with level_id c22a70b1-fe45-4f42-90c9-65c8582297f5" && $0.rule.contains("level '3. OG'") })
        let door = try #require(archive.feature("3c771aaa-e5d8-4d86-8659-69b21372853c"))
        #expect(door.reference("level_id").flatMap { archive.feature($0) }?.name == "1. OG", "the OpenStreetMap tag says level 1")
        // `.json` instead of `.geojson` is said once per file, with the file's name.
        let renamed = result.problems.filter { $0.rule.contains("read as") }
        #expect(Set(renamed.map(\.file)) == ["address.json", "amenity.json", "building.json", "footprint.json", "level.json",
                                             "opening.json", "unit.json", "venue.json"])
        #expect(result.problems.numbered.first?.hasPrefix("1. warning: ") == true)
        #expect(archive.feature("25542e66-b2fe-466d-907b-6a8dc9fe0db9")?.name == "2. OG")
    }

    func read(_ features: [IMDFFeature], replacing type: IMDFFeatureType? = nil, with raw: String? = nil) throws -> IMDFReader.Result {
        var files = try IMDFTestVenue.archive(features).files()
        if let type, let raw {
            files.removeAll { $0.name == "\(type.rawValue).geojson" }
            files.append(("\(type.rawValue).geojson", Data(raw.utf8)))
        }
        return IMDFReader().read(files: files)
    }

    @Test("WAY-1 a feature that breaks a rule is left out and named: file, feature id and the rule")
    func brokenFeatures() throws {
        var features = IMDFTestVenue.hall()
        features.append(.init(id: "lost-unit", type: .unit, geometry: IMDFTestVenue.rect(0, 0, 1, 1),
                              properties: ["category": .string("room"), "level_id": .string("no-such-level")]))
        features.append(.init(id: "odd-unit", type: .unit, geometry: IMDFTestVenue.rect(0, 0, 1, 1),
                              properties: ["category": .string("broom-cupboard"), "level_id": .string("level-0")]))
        features.append(.init(id: "half-level", type: .level, geometry: IMDFTestVenue.rect(0, 0, 1, 1),
                              properties: ["ordinal": .number(1.5), "outdoor": .bool(false), "name": IMDFTestVenue.name("Mezzanine")]))
        let result = try read(features)
        let archive = try #require(result.archive)
        #expect(archive.feature("lost-unit") == nil)
        #expect(archive.feature("half-level") == nil)
        #expect(archive.feature("odd-unit") != nil, "an unknown category is a warning, not a loss")
        let lines = result.problems.map(\.description)
        #expect(lines.contains("error: unit.geojson, feature lost-unit: level_id no-such-level is not a level of this archive; the unit was left out"))
        #expect(lines.contains("error: level.geojson, feature half-level: ordinal must be an integer (0 is the ground level); the level was left out"))
        #expect(lines.contains("warning: unit.geojson, feature odd-unit: unit category broom-cupboard is not one of IMDF's; read as unspecified"))
    }

    @Test("WAY-1 geometry rules: an open ring, a position out of range and the wrong type are each named")
    func badGeometry() throws {
        let unit = #"{"type":"FeatureCollection","features":[%@]}"#
        let open = #"{"id":"u1","type":"Feature","feature_type":"unit","properties":{"category":"room","level_id":"level-0"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[1,0]]]}}"#
        let far = #"{"id":"u2","type":"Feature","feature_type":"unit","properties":{"category":"room","level_id":"level-0"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[0,100],[1,1],[0,0]]]}}"#
        let point = #"{"id":"u3","type":"Feature","feature_type":"unit","properties":{"category":"room","level_id":"level-0"},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        let good = #"{"id":"u4","type":"Feature","feature_type":"unit","properties":{"category":"room","level_id":"level-0"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[0,0.0001],[0.0001,0.0001],[0,0]]]}}"#
        let raw = unit.replacingOccurrences(of: "%@", with: [open, far, point, good].joined(separator: ","))
        let result = try read(IMDFTestVenue.hall(), replacing: .unit, with: raw)
        let lines = result.problems.map(\.description)
        #expect(lines.contains("error: unit.geojson, feature u1: geometry: a polygon ring does not end where it starts; left out"))
        #expect(lines.contains("error: unit.geojson, feature u2: geometry: a position is outside longitude −180…180, latitude −90…90; left out"))
        #expect(lines.contains("error: unit.geojson, feature u3: a unit must be a MultiPolygon or Polygon, not a Point; left out"))
        #expect(result.archive?.features(.unit).map(\.id) == ["u4"])
    }

    @Test("WAY-1 an archive without a venue, or whose unit file is not JSON, cannot be read; the problems say why")
    func fatal() throws {
        let noVenue = try read(IMDFTestVenue.hall().filter { $0.type != .venue })
        #expect(noVenue.archive == nil)
        #expect(noVenue.problems.map(\.description).contains("error: venue.geojson: the archive has nothing to show without it: holds no usable venue"))

        let broken = try read(IMDFTestVenue.hall(), replacing: .unit, with: #"{"type":"FeatureCollection","features":[{"id":"#)
        #expect(broken.archive == nil)
        let first = try #require(broken.problems.first { $0.file == "unit.geojson" })
        #expect(first.rule.hasPrefix("is not valid JSON"), "\(first)")
        #expect(first.rule.hasSuffix("every unit was left out"))
    }

    @Test("WAY-1 a repeated id and a feature_type that disagrees with its file are left out")
    func identity() throws {
        var features = IMDFTestVenue.hall()
        features.append(.init(id: "room-101", type: .opening, geometry: IMDFTestVenue.line(0, 0, 1, 0),
                              properties: ["category": .string("pedestrian"), "level_id": .string("level-0")]))
        let result = try read(features)
        #expect(result.problems.map(\.description).contains { $0.hasPrefix("error: opening.geojson, feature room-101: the id is already used in unit.geojson") })
        #expect(result.archive?.feature("room-101")?.type == .unit)
    }

    @Test("WAY-7 export writes an archive that reads back to the same features, properties the model does not use included")
    func roundTrip() throws {
        let first = IMDFReader().read(files: try IMDFTestVenue.ulmFiles())
        let archive = try #require(first.archive)
        let files = try archive.files()
        #expect(files.map(\.name).contains("unit.geojson"))
        #expect(files.map(\.name).contains("manifest.json"))
        let again = IMDFReader().read(files: files)
        let back = try #require(again.archive)
        #expect(again.problems.isEmpty, "\(again.problems.numbered.prefix(5))")
        for type in IMDFFeatureType.allCases {
            #expect(back.features(type) == archive.features(type), "\(type)")
        }
        // The second export is byte for byte the first.
        #expect(try back.files().map(\.data) == files.map(\.data))
    }
}

