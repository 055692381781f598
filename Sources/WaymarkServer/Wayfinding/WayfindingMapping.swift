import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

/// Core values as the contract's types.
enum WayfindingMapping {
    static func coordinate(_ c: Coordinate) -> Components.Schemas.Coordinate { .init(latitude: c.latitude, longitude: c.longitude) }

    static func bounds(_ b: BoundingBox) -> Components.Schemas.Bounds { .init(south: b.south, west: b.west, north: b.north, east: b.east) }

    static func summary(_ row: VenueRow) -> Components.Schemas.VenueSummary {
        .init(id: row.id, name: row.name, version: row.version, center: coordinate(row.center), bounds: bounds(row.bounds),
              buildings: row.buildings, people: row.people)
    }

    /// A GeoJSON geometry: its `type`, and `coordinates` (or `geometries`) as they are.
    static func geometry(_ g: Geometry) throws -> Components.Schemas.GeoJSONGeometry {
        guard case .object(var fields) = g.json, let type = fields.removeValue(forKey: "type")?.string else {
            return .init(_type: g.typeName)
        }
        return .init(_type: type, additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: fields.mapValues(plain)))
    }

    /// A JSON value as the plain values OpenAPIRuntime's containers take.
    static func plain(_ v: JSONValue) -> (any Sendable)? {
        switch v {
        case .null: nil
        case .bool(let b): b
        case .number(let n): n
        case .string(let s): s
        case .array(let a): a.map(plain)
        case .object(let o): o.mapValues(plain)
        }
    }

    static func level(_ f: IMDFFeature) -> Components.Schemas.Level {
        let ordinal = Int(f.properties["ordinal"]?.number ?? 0)
        return .init(id: f.id, ordinal: ordinal, name: f.name ?? f.shortName ?? "Level \(ordinal)", shortName: f.shortName)
    }

    static func venue(_ row: VenueRow, _ map: VenueMap) throws -> Components.Schemas.Venue {
        let archive = map.archive
        var levelsOf: [String: [IMDFFeature]] = [:]
        var grounds: [IMDFFeature] = []
        for l in archive.features(.level) {
            let owners = l.references("building_ids")
            if owners.isEmpty { grounds.append(l) }
            for b in owners { levelsOf[b, default: []].append(l) }
        }
        var footprintOf: [String: Geometry] = [:]
        for f in archive.features(.footprint) where f.category == "ground" || f.category == nil {
            for b in f.references("building_ids") where footprintOf[b] == nil { footprintOf[b] = f.geometry }
        }
        let buildings: [Components.Schemas.Building] = try archive.features(.building).compactMap { b in
            let footprint = footprintOf[b.id]
            let position = b.displayPoint ?? footprint.flatMap { BoundingBox($0.coordinates) }.map {
                Coordinate(latitude: ($0.south + $0.north) / 2, longitude: ($0.west + $0.east) / 2)
            }
            guard let position else { return nil }
            let levels = (levelsOf[b.id] ?? []).map(level).sorted { $0.ordinal < $1.ordinal }
            return .init(id: b.id, name: b.name ?? b.altName ?? "Building", code: b.name == nil ? nil : b.altName,
                         position: coordinate(position), footprint: try footprint.map(geometry), levels: levels)
        }
        return .init(id: row.id, name: row.name, version: row.version, center: coordinate(row.center), bounds: bounds(row.bounds),
                     outline: try archive.venue?.geometry.map(geometry), buildings: buildings,
                     grounds: grounds.map(level).sorted { $0.ordinal < $1.ordinal })
    }

    /// The features drawn on one level's plan; nil when the venue has no such level.
    static func levelMap(_ venueId: String, _ levelId: String, _ map: VenueMap) throws -> Components.Schemas.LevelMap? {
        let archive = map.archive
        guard archive.feature(levelId)?.type == .level else { return nil }
        var unitsHere = Set<String>()
        var out: [Components.Schemas.MapFeature] = []
        func add(_ f: IMDFFeature, _ type: Components.Schemas.MapFeatureProperties.FeatureTypePayload, geometry g: Geometry?, unit: String? = nil) throws {
            guard let g else { return }
            let accessible = f.properties["accessibility"]?.array?.contains { $0.string == "wheelchair" }
            out.append(.init(_type: .feature, id: f.id, geometry: try geometry(g), properties: .init(
                featureType: type, category: f.category, name: f.name, altName: f.altName, unitId: unit,
                labelPoint: f.displayPoint.map(coordinate), accessible: accessible == true ? true : nil)))
        }
        for u in archive.features(.unit) where u.reference("level_id") == levelId {
            unitsHere.insert(u.id)
            try add(u, .unit, geometry: u.geometry)
        }
        for type in [IMDFFeatureType.fixture, .section, .kiosk, .opening] {
            let kind: Components.Schemas.MapFeatureProperties.FeatureTypePayload = switch type {
            case .fixture: .fixture
            case .section: .section
            case .kiosk: .kiosk
            default: .opening
            }
            for f in archive.features(type) where f.reference("level_id") == levelId { try add(f, kind, geometry: f.geometry) }
        }
        for a in archive.features(.amenity) {
            guard let unit = a.references("unit_ids").first(where: unitsHere.contains) else { continue }
            try add(a, .amenity, geometry: a.geometry, unit: unit)
        }
        for o in archive.features(.occupant) {
            guard let anchor = o.reference("anchor_id").flatMap(archive.feature), let unit = anchor.reference("unit_id"),
                  unitsHere.contains(unit) else { continue }
            try add(o, .occupant, geometry: anchor.geometry, unit: unit)
        }
        return .init(_type: .featureCollection, venueId: venueId, levelId: levelId, features: out)
    }

    static func place(_ e: PlaceSearch.Entry, venueId: String, _ map: VenueMap) -> Components.Schemas.Place {
        let spot = map.location(of: e.id)
        let kind: Components.Schemas.Place.KindPayload = switch e.kind {
        case .room: .room
        case .building: .building
        case .person: .person
        case .service: .service
        case .amenity: .amenity
        }
        return .init(id: e.id, kind: kind, title: e.title, subtitle: e.subtitle, venueId: venueId,
                     buildingId: spot?.building, levelId: spot?.level, position: spot.map { coordinate($0.position) })
    }

    static func person(_ p: StaffMember, venueId: String, _ map: VenueMap) -> Components.Schemas.Person {
        let unit = map.office(of: p.id)
        let spot = map.location(of: p.id)
        return .init(id: p.id, name: p.name, title: p.title, department: p.department, email: p.email, officeHours: p.officeHours,
                     venueId: venueId, building: p.building, room: p.room, unitId: unit, levelId: spot?.level,
                     position: spot.map { coordinate($0.position) })
    }

    static func route(_ r: WalkRoute, venueId: String, destination: String?, _ map: VenueMap) -> Components.Schemas.Route {
        let g = map.graph
        func levelId(_ i: Int?) -> String? { i.map { g.levels[$0].id } }
        let steps: [Components.Schemas.RouteStep] = r.steps.map { s in
            let kind: Components.Schemas.RouteStep.KindPayload = switch s.kind {
            case .walk: .walk
            case .stairs: .stairs
            case .elevator: .elevator
            case .escalator: .escalator
            case .ramp: .ramp
            case .outside: .outside
            case .arrive: .arrive
            }
            let building = s.level.flatMap { g.levels[$0].building }.map { g.buildings[$0].id }
            return .init(kind: kind, text: s.text, metres: s.metres, seconds: s.seconds, levelId: levelId(s.level),
                         fromLevelId: levelId(s.fromLevel), buildingId: building, path: s.path.map(coordinate))
        }
        let last = r.path.nodes.last.flatMap { g.nodes[$0].featureId }
        return .init(venueId: venueId, seconds: r.seconds, metres: r.metres, stepFree: r.isStepFree,
                     destination: destination ?? last.flatMap(map.name(of:)) ?? "your destination", steps: steps)
    }
}
