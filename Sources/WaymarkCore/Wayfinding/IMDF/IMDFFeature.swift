import Foundation

/// The feature types of IMDF (OGC Community Standard 20-094), one file each in an archive.
public enum IMDFFeatureType: String, Sendable, Hashable, Codable, CaseIterable {
    case address, amenity, anchor, building, detail, fixture, footprint, geofence, kiosk, level
    case occupant, opening, relationship, section, unit, venue

    /// The geometries the standard allows for the type; nil means the geometry must be null.
    var allowedGeometries: Set<String>? {
        switch self {
        case .address, .building, .occupant: nil
        case .amenity, .anchor: ["Point"]
        case .detail: ["LineString", "MultiLineString"]
        case .opening: ["LineString"]
        case .kiosk: ["Polygon"]
        case .fixture, .footprint, .geofence, .level, .section, .unit, .venue: ["Polygon", "MultiPolygon"]
        case .relationship: ["Point", "LineString", "Polygon", "MultiPolygon"]
        }
    }

    /// Relationships may have no geometry, the others above must have one.
    var geometryOptional: Bool { self == .relationship }
}

/// One feature as the archive has it: its id, type, geometry and every property, including
/// those Waymark does not use, so that an export gives them back.
public struct IMDFFeature: Sendable, Hashable {
    public var id: String
    public var type: IMDFFeatureType
    public var geometry: Geometry?
    public var properties: [String: JSONValue]

    public init(id: String, type: IMDFFeatureType, geometry: Geometry?, properties: [String: JSONValue]) {
        self.id = id
        self.type = type
        self.geometry = geometry
        self.properties = properties
    }

    public var category: String? { properties["category"]?.string }

    /// A labels value ({"en": "Library"}) in the preferred language, else any language.
    public func label(_ key: String, language: String = "en") -> String? {
        switch properties[key] {
        case .object(let names)?:
            if let s = names[language]?.string, !s.isEmpty { return s }
            // A stable pick when the preferred language is missing.
            return names.keys.sorted().lazy.compactMap { names[$0]?.string }.first { !$0.isEmpty }
        case .string(let s)? where !s.isEmpty: return s  // not IMDF, but exports do it
        default: return nil
        }
    }

    public var name: String? { label("name") }
    public var altName: String? { label("alt_name") }
    public var shortName: String? { label("short_name") }

    /// A referenced feature id (`level_id`, `anchor_id`, …).
    public func reference(_ key: String) -> String? { properties[key]?.string }

    /// A list of referenced ids (`building_ids`, `unit_ids`).
    public func references(_ key: String) -> [String] {
        properties[key]?.array?.compactMap(\.string) ?? []
    }

    /// `display_point` when it is a valid GeoJSON point.
    public var displayPoint: Coordinate? {
        guard let v = properties["display_point"], case .point(let p)? = try? Geometry(json: v) else { return nil }
        return p
    }

    /// The feature as a GeoJSON Feature with IMDF's `feature_type`.
    public var json: JSONValue {
        .object([
            "id": .string(id), "type": .string("Feature"), "feature_type": .string(type.rawValue),
            "geometry": geometry?.json ?? .null, "properties": .object(properties),
        ])
    }
}
