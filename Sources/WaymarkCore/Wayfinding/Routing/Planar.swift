import Foundation

/// A point in metres east (x) and north (y) of a venue's origin: a campus is small enough for a
/// flat plane, and metres make tolerances ("a door within 0.75 m of a wall") readable.
public struct PlanarPoint: Sendable, Hashable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public func distance(to o: PlanarPoint) -> Double { ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y)).squareRoot() }
}

/// An axis-aligned box in metres.
struct PlanarBox: Sendable {
    var minX, minY, maxX, maxY: Double

    init(_ points: [PlanarPoint]) {
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
    }

    func expanded(by d: Double) -> PlanarBox {
        var b = self
        b.minX -= d; b.minY -= d; b.maxX += d; b.maxY += d
        return b
    }

    func intersects(_ o: PlanarBox) -> Bool { minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY }

    var area: Double { max(0, maxX - minX) * max(0, maxY - minY) }

    func overlapArea(_ o: PlanarBox) -> Double {
        max(0, min(maxX, o.maxX) - max(minX, o.minX)) * max(0, min(maxY, o.maxY) - max(minY, o.minY))
    }
}

enum Planar {
    /// Distance from `p` to the segment a–b, and the closest point on it.
    static func closest(_ p: PlanarPoint, _ a: PlanarPoint, _ b: PlanarPoint) -> (distance: Double, point: PlanarPoint) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let q = PlanarPoint(x: a.x + t * dx, y: a.y + t * dy)
        return (p.distance(to: q), q)
    }

    /// Distance from `p` to a ring's boundary.
    static func boundaryDistance(_ p: PlanarPoint, _ ring: [PlanarPoint]) -> Double {
        var best = Double.infinity
        for i in 0..<max(0, ring.count - 1) { best = min(best, closest(p, ring[i], ring[i + 1]).distance) }
        return best
    }

    /// Even-odd rule over a closed ring.
    static func contains(_ ring: [PlanarPoint], _ p: PlanarPoint) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Where two rings share a wall: the middle of the stretch along which they lie within
    /// `tolerance` of each other, or nil when they only meet at a corner (shorter than
    /// `minimumLength`, narrower than a door).
    static func sharedWall(_ r1: [PlanarPoint], _ r2: [PlanarPoint], tolerance: Double, minimumLength: Double) -> PlanarPoint? {
        var near: [PlanarPoint] = []
        func collect(_ from: [PlanarPoint], _ onto: [PlanarPoint]) {
            for p in from.dropLast() {
                var best = (distance: Double.infinity, point: p)
                for j in 0..<max(0, onto.count - 1) {
                    let c = closest(p, onto[j], onto[j + 1])
                    if c.distance < best.distance { best = c }
                }
                if best.distance <= tolerance { near.append(best.point) }
            }
        }
        collect(r1, r2)
        collect(r2, r1)
        guard near.count >= 2 else { return nil }
        var far = (a: near[0], b: near[0], d: 0.0)
        for i in near.indices { for j in near.indices where j > i {
            let d = near[i].distance(to: near[j])
            if d > far.d { far = (near[i], near[j], d) }
        } }
        guard far.d >= minimumLength else { return nil }
        let mid = PlanarPoint(x: (far.a.x + far.b.x) / 2, y: (far.a.y + far.b.y) / 2)
        // For a wall that bends, the middle of the two ends may lie off it: take the wall's point nearest.
        var best = (distance: Double.infinity, point: mid)
        for j in 0..<max(0, r1.count - 1) {
            let c = closest(mid, r1[j], r1[j + 1])
            if c.distance < best.distance { best = c }
        }
        return best.point
    }

    /// A point certainly inside the ring: the centroid when it is inside, else the middle of the
    /// widest inside stretch of the horizontal line through the centroid (an L-shaped corridor's
    /// centroid can lie outside it).
    static func interiorPoint(_ ring: [PlanarPoint]) -> PlanarPoint {
        let c = centroid(ring)
        if contains(ring, c) { return c }
        var xs: [Double] = []
        for i in 0..<max(0, ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            if (a.y > c.y) != (b.y > c.y) { xs.append(a.x + (c.y - a.y) * (b.x - a.x) / (b.y - a.y)) }
        }
        xs.sort()
        var best: (Double, Double)?
        var i = 0
        while i + 1 < xs.count {
            if best == nil || xs[i + 1] - xs[i] > best!.1 - best!.0 { best = (xs[i], xs[i + 1]) }
            i += 2
        }
        if let best { return PlanarPoint(x: (best.0 + best.1) / 2, y: c.y) }
        return ring.first ?? c
    }

    /// The point halfway along a polyline.
    static func midpoint(_ line: [PlanarPoint]) -> PlanarPoint {
        guard line.count > 1 else { return line.first ?? .init(x: 0, y: 0) }
        let lengths = zip(line, line.dropFirst()).map { $0.distance(to: $1) }
        var half = lengths.reduce(0, +) / 2
        for (k, len) in lengths.enumerated() {
            if half <= len, len > 0 {
                let t = half / len
                return .init(x: line[k].x + t * (line[k + 1].x - line[k].x), y: line[k].y + t * (line[k + 1].y - line[k].y))
            }
            half -= len
        }
        return line[line.count - 1]
    }

    static func centroid(_ ring: [PlanarPoint]) -> PlanarPoint {
        var area = 0.0, cx = 0.0, cy = 0.0
        let n = ring.count
        guard n > 0 else { return .init(x: 0, y: 0) }
        let o = ring[0]
        for i in 0..<n {
            let p0 = ring[i], p1 = ring[(i + 1) % n]
            let x0 = p0.x - o.x, y0 = p0.y - o.y, x1 = p1.x - o.x, y1 = p1.y - o.y
            let cross = x0 * y1 - x1 * y0
            area += cross; cx += (x0 + x1) * cross; cy += (y0 + y1) * cross
        }
        guard abs(area) > 1e-9 else {
            return .init(x: ring.map(\.x).reduce(0, +) / Double(n), y: ring.map(\.y).reduce(0, +) / Double(n))
        }
        return .init(x: o.x + cx / (3 * area), y: o.y + cy / (3 * area))
    }
}

/// Projects WGS 84 positions onto a venue's plane and back.
public struct PlanarProjection: Sendable {
    public let origin: Coordinate
    public init(origin: Coordinate) { self.origin = origin }

    public func point(_ c: Coordinate) -> PlanarPoint {
        let m = Geo.localMetres(of: c, from: origin)
        return PlanarPoint(x: m.east, y: m.north)
    }

    public func coordinate(_ p: PlanarPoint) -> Coordinate { Geo.offset(origin, east: p.x, north: p.y) }
}

/// Finds the boxes near a box without comparing every pair: each box is listed in every grid
/// cell it covers.
struct PlanarGrid: Sendable {
    private let cell: Double
    private var cells: [Int64: [Int]] = [:]

    init(cell: Double) { self.cell = cell }

    private func key(_ i: Int, _ j: Int) -> Int64 { Int64(i) << 32 | Int64(UInt32(bitPattern: Int32(j))) }

    private func range(_ box: PlanarBox) -> (ClosedRange<Int>, ClosedRange<Int>) {
        let i0 = Int((box.minX / cell).rounded(.down)), i1 = Int((box.maxX / cell).rounded(.down))
        let j0 = Int((box.minY / cell).rounded(.down)), j1 = Int((box.maxY / cell).rounded(.down))
        return (i0...max(i0, i1), j0...max(j0, j1))
    }

    mutating func insert(_ index: Int, _ box: PlanarBox) {
        let (xs, ys) = range(box)
        for i in xs { for j in ys { cells[key(i, j), default: []].append(index) } }
    }

    /// Every index whose box shares a cell with `box`, each once, in ascending order.
    func candidates(_ box: PlanarBox) -> [Int] {
        let (xs, ys) = range(box)
        var found = Set<Int>()
        for i in xs { for j in ys { if let list = cells[key(i, j)] { found.formUnion(list) } } }
        return found.sorted()
    }
}
