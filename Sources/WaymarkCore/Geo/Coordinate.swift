import Foundation

/// A WGS 84 position. Latitude first, as people say it; GeoJSON order is only used on the wire
/// where a format demands it.
public struct Coordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

public enum Geo {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let dφ = φ2 - φ1
        let dλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// The point `east` and `north` metres away from `origin`. Uses a local tangent plane, which
    /// is exact enough for the few hundred metres of a campus.
    public static func offset(_ origin: Coordinate, east: Double, north: Double) -> Coordinate {
        let dLat = north / earthRadius * 180 / .pi
        let dLon = east / (earthRadius * cos(origin.latitude * .pi / 180)) * 180 / .pi
        return Coordinate(latitude: origin.latitude + dLat, longitude: origin.longitude + dLon)
    }

    /// Inverse of `offset`: metres east and north of `origin`.
    public static func localMetres(of point: Coordinate, from origin: Coordinate) -> (east: Double, north: Double) {
        let north = (point.latitude - origin.latitude) * .pi / 180 * earthRadius
        let east = (point.longitude - origin.longitude) * .pi / 180 * earthRadius * cos(origin.latitude * .pi / 180)
        return (east, north)
    }

    /// Even-odd rule; the ring may or may not repeat its first point.
    public static func contains(_ ring: [Coordinate], _ p: Coordinate) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                let x = (b.longitude - a.longitude) * (p.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
                if p.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Area-weighted centroid of a simple polygon, computed in a local plane.
    public static func centroid(_ ring: [Coordinate]) -> Coordinate {
        guard let origin = ring.first else { return Coordinate(latitude: 0, longitude: 0) }
        let pts = ring.map { localMetres(of: $0, from: origin) }
        var area = 0.0, cx = 0.0, cy = 0.0
        for i in 0..<pts.count {
            let (x0, y0) = pts[i]
            let (x1, y1) = pts[(i + 1) % pts.count]
            let cross = x0 * y1 - x1 * y0
            area += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        }
        guard abs(area) > 1e-9 else {
            let n = Double(ring.count)
            return Coordinate(latitude: ring.map(\.latitude).reduce(0, +) / n,
                              longitude: ring.map(\.longitude).reduce(0, +) / n)
        }
        return offset(origin, east: cx / (3 * area), north: cy / (3 * area))
    }
}

/// An axis-aligned box in degrees.
public struct BoundingBox: Hashable, Sendable, Codable {
    public var south: Double, west: Double, north: Double, east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south; self.west = west; self.north = north; self.east = east
    }

    public init?(_ points: some Sequence<Coordinate>) {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var box = BoundingBox(south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
        while let p = it.next() { box.include(p) }
        self = box
    }

    public mutating func include(_ p: Coordinate) {
        south = min(south, p.latitude); north = max(north, p.latitude)
        west = min(west, p.longitude); east = max(east, p.longitude)
    }

    public func contains(_ p: Coordinate) -> Bool {
        (south...north).contains(p.latitude) && (west...east).contains(p.longitude)
    }
}
