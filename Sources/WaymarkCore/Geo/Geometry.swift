import Foundation

/// A GeoJSON geometry (RFC 7946) with positions as `Coordinate`s.
public enum Geometry: Sendable, Hashable {
    case point(Coordinate)
    case multiPoint([Coordinate])
    case lineString([Coordinate])
    case multiLineString([[Coordinate]])
    /// Outer ring first, then holes.
    case polygon([[Coordinate]])
    case multiPolygon([[[Coordinate]]])

    public var typeName: String {
        switch self {
        case .point: "Point"
        case .multiPoint: "MultiPoint"
        case .lineString: "LineString"
        case .multiLineString: "MultiLineString"
        case .polygon: "Polygon"
        case .multiPolygon: "MultiPolygon"
        }
    }

    /// Every position, in order.
    public var coordinates: [Coordinate] {
        switch self {
        case .point(let p): [p]
        case .multiPoint(let ps), .lineString(let ps): ps
        case .multiLineString(let ls): ls.flatMap { $0 }
        case .polygon(let rings): rings.flatMap { $0 }
        case .multiPolygon(let polys): polys.flatMap { $0.flatMap { $0 } }
        }
    }

    /// The outer rings of a polygon or multipolygon (holes are ignored for walking: a courtyard
    /// inside a corridor ring is rare and a route across it is only a little wrong).
    public var outerRings: [[Coordinate]] {
        switch self {
        case .polygon(let rings): rings.first.map { [$0] } ?? []
        case .multiPolygon(let polys): polys.compactMap(\.first)
        default: []
        }
    }

    public var isAreal: Bool {
        switch self { case .polygon, .multiPolygon: true; default: false }
    }
}

extension Geometry {
    /// Reads a GeoJSON geometry object; the error says what is wrong in words a data editor
    /// understands.
    public init(json: JSONValue) throws(GeometryError) {
        guard let type = json["type"]?.string else { throw .init("has no geometry type") }
        guard let coords = json["coordinates"] else { throw .init("\(type) has no coordinates") }
        func position(_ v: JSONValue) throws(GeometryError) -> Coordinate {
            guard let a = v.array, a.count >= 2, let lon = a[0].number, let lat = a[1].number else {
                throw .init("a position is not [longitude, latitude]")
            }
            let c = Coordinate(latitude: lat, longitude: lon)
            guard c.isValid else { throw .init("a position is outside longitude −180…180, latitude −90…90") }
            return c
        }
        func positions(_ v: JSONValue) throws(GeometryError) -> [Coordinate] {
            guard let a = v.array else { throw .init("\(type) coordinates are not a list of positions") }
            var out: [Coordinate] = []
            out.reserveCapacity(a.count)
            for p in a { out.append(try position(p)) }
            return out
        }
        func ring(_ v: JSONValue) throws(GeometryError) -> [Coordinate] {
            let r = try positions(v)
            guard r.count >= 4 else { throw .init("a polygon ring has fewer than 4 positions") }
            guard r.first == r.last else { throw .init("a polygon ring does not end where it starts") }
            return r
        }
        func rings(_ v: JSONValue) throws(GeometryError) -> [[Coordinate]] {
            guard let a = v.array, !a.isEmpty else { throw .init("a polygon has no rings") }
            var out: [[Coordinate]] = []
            for r in a { out.append(try ring(r)) }
            return out
        }
        switch type {
        case "Point": self = .point(try position(coords))
        case "MultiPoint": self = .multiPoint(try positions(coords))
        case "LineString":
            let line = try positions(coords)
            guard line.count >= 2 else { throw .init("a line has fewer than 2 positions") }
            self = .lineString(line)
        case "MultiLineString":
            guard let a = coords.array else { throw .init("MultiLineString coordinates are not a list of lines") }
            var lines: [[Coordinate]] = []
            for l in a { lines.append(try positions(l)) }
            self = .multiLineString(lines)
        case "Polygon": self = .polygon(try rings(coords))
        case "MultiPolygon":
            guard let a = coords.array, !a.isEmpty else { throw .init("MultiPolygon has no polygons") }
            var polys: [[[Coordinate]]] = []
            for p in a { polys.append(try rings(p)) }
            self = .multiPolygon(polys)
        default: throw .init("geometry type \(type) is not one GeoJSON knows")
        }
    }

    public var json: JSONValue {
        func pos(_ c: Coordinate) -> JSONValue { .array([.number(c.longitude), .number(c.latitude)]) }
        func line(_ l: [Coordinate]) -> JSONValue { .array(l.map(pos)) }
        let coords: JSONValue = switch self {
        case .point(let p): pos(p)
        case .multiPoint(let ps), .lineString(let ps): line(ps)
        case .multiLineString(let ls): .array(ls.map(line))
        case .polygon(let rings): .array(rings.map(line))
        case .multiPolygon(let polys): .array(polys.map { .array($0.map(line)) })
        }
        return .object(["type": .string(typeName), "coordinates": coords])
    }
}

public struct GeometryError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
