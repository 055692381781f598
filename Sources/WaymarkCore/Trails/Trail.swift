import Foundation

/// A trail as its pages show it (TRL-1): where it starts, its path with elevation, and what a
/// hiker should know before going. Figures (length, gain, grade, tier) are derived from the path
/// by `measures`, never stored apart from it.
public struct Trail: Hashable, Sendable, Codable {
    /// How the path is walked: a loop back to the start, out and back along the same line, or
    /// from one end to the other.
    public enum Shape: String, Hashable, Sendable, Codable, CaseIterable {
        case loop, outAndBack, pointToPoint
    }

    public var id: String
    public var name: String
    /// The nearest town or park, for search and cards ("Big Bear Lake").
    public var area: String
    public var description: String
    public var shape: Shape
    /// As drawn on the map; for `outAndBack`, the way out only.
    public var path: [PathPoint]
    /// A grade the trail's managers publish; nil when the computed tier is shown.
    public var officialDifficulty: TrailDifficulty?
    public var accessible: Bool
    /// Hunting on or beside the trail, and when ("Deer season, mid-October to early November").
    public var huntingAlert: String?
    public var info: TrailInfo
    public var contacts: [RangerContact]
    public var guidelines: [SafetyGuideline]
    public var points: [PointOfInterest]
    public var amenities: [TrailAmenity]
    /// The trailhead picture's id, when there is one.
    public var pictureId: String?

    public init(id: String, name: String, area: String, description: String, shape: Shape, path: [PathPoint],
                officialDifficulty: TrailDifficulty? = nil, accessible: Bool = false, huntingAlert: String? = nil,
                info: TrailInfo = TrailInfo(), contacts: [RangerContact] = [], guidelines: [SafetyGuideline] = [],
                points: [PointOfInterest] = [], amenities: [TrailAmenity] = [], pictureId: String? = nil) {
        self.id = id; self.name = name; self.area = area; self.description = description; self.shape = shape
        self.path = path; self.officialDifficulty = officialDifficulty; self.accessible = accessible
        self.huntingAlert = huntingAlert; self.info = info; self.contacts = contacts; self.guidelines = guidelines
        self.points = points; self.amenities = amenities; self.pictureId = pictureId
    }

    public var trailhead: Coordinate { path.first?.coordinate ?? Coordinate(latitude: 0, longitude: 0) }

    /// The path as a hiker walks it: out and back again for `outAndBack`.
    public var walked: [GPXDocument.Point] {
        let out = path.map(\.gpxPoint)
        return shape == .outAndBack ? out + out.reversed().dropFirst() : out
    }

    public var measures: TrailMeasures { TrailMeasures(walked) }

    /// The official grade when there is one, otherwise the tier of the effort rating.
    public var difficulty: TrailDifficulty { officialDifficulty ?? measures.difficulty }

    /// The smallest box holding the path, for "search this area".
    public var bounds: (south: Double, west: Double, north: Double, east: Double) {
        let lats = path.map(\.latitude), lons = path.map(\.longitude)
        return (lats.min() ?? 0, lons.min() ?? 0, lats.max() ?? 0, lons.max() ?? 0)
    }

    /// The trail as GPX 1.1: the walked path as a track, its points of interest as waypoints.
    public func gpxDocument() -> GPXDocument {
        GPXDocument(name: name, description: description,
                    tracks: [.init(name: name, segments: [walked])],
                    waypoints: points.compactMap { p in p.position.map { GPXDocument.Point(coordinate: $0, name: p.name) } })
    }
}

/// One point of a path: position and, when known, elevation in metres. Coded as
/// `[latitude, longitude, elevation]`, as paths hold thousands of them.
public struct PathPoint: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.elevation = elevation
    }

    public init(_ p: GPXDocument.Point) {
        self.init(latitude: p.coordinate.latitude, longitude: p.coordinate.longitude, elevation: p.elevation)
    }

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        latitude = try c.decode(Double.self)
        longitude = try c.decode(Double.self)
        elevation = c.isAtEnd ? nil : try c.decodeIfPresent(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(latitude)
        try c.encode(longitude)
        if let elevation { try c.encode(elevation) }
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
    public var gpxPoint: GPXDocument.Point { GPXDocument.Point(coordinate: coordinate, elevation: elevation) }
}

/// The Additional Information screen: what it costs, when it is open, where to park.
public struct TrailInfo: Hashable, Sendable, Codable {
    public var admission: String?
    /// Other costs: parking, permits, passes.
    public var additionalFees: String?
    public var seasonalHours: [SeasonalHours]
    public var parking: String?

    public init(admission: String? = nil, additionalFees: String? = nil, seasonalHours: [SeasonalHours] = [], parking: String? = nil) {
        self.admission = admission; self.additionalFees = additionalFees; self.seasonalHours = seasonalHours; self.parking = parking
    }
}

public struct SeasonalHours: Hashable, Sendable, Codable {
    /// "April to October", "All year".
    public var season: String
    /// "6:00 to 20:00", "Closed: bald eagles winter here".
    public var hours: String

    public init(season: String, hours: String) { self.season = season; self.hours = hours }
}

/// The Emergency Contact Information screen: the local rangers.
public struct RangerContact: Hashable, Sendable, Codable {
    public var name: String
    public var phones: [String]

    public init(name: String, phones: [String]) { self.name = name; self.phones = phones }
}

/// One entry of the Safety Guidelines screen.
public struct SafetyGuideline: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case predator, dangerousPlant, ediblePlant, equipment
    }

    public var kind: Kind
    public var name: String
    public var description: String
    /// For predators: the signs that one is near.
    public var warningSigns: String?
    public var pictureId: String?

    public init(kind: Kind, name: String, description: String, warningSigns: String? = nil, pictureId: String? = nil) {
        self.kind = kind; self.name = name; self.description = description; self.warningSigns = warningSigns; self.pictureId = pictureId
    }
}

/// A point of interest on or beside the trail; some are a scavenger hunt's focal points.
public struct PointOfInterest: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case landmark, scenicOverlook, waterfall, plant, animal
    }

    public var id: String
    public var kind: Kind
    public var name: String
    public var history: String
    public var position: Coordinate?
    /// Part of the trail's scavenger hunt (easy and moderate trails only).
    public var focalPoint: Bool
    public var pictureId: String?

    public init(id: String, kind: Kind, name: String, history: String, position: Coordinate? = nil, focalPoint: Bool = false, pictureId: String? = nil) {
        self.id = id; self.kind = kind; self.name = name; self.history = history; self.position = position
        self.focalPoint = focalPoint; self.pictureId = pictureId
    }
}

/// The amenities the seed lists (its glossary), plus parking.
public enum TrailAmenity: String, Hashable, Sendable, Codable, CaseIterable {
    case restrooms, trailheadMap, waterFountains, firePits, trailMarkers, informationCenter, campsites,
         picnicTables, illuminated, parking
}
