import Foundation

/// Finds trails by place (TRL-2): the nearest trailheads to a point and the trails in a map's
/// view. Trailheads sit in a grid of cells about 5.5 km tall; a nearest search visits rings of
/// cells outwards and stops once no unvisited cell can hold anything closer than the k-th found.
public struct TrailIndex: Sendable {
    public struct Entry: Hashable, Sendable {
        public var id: String
        public var trailhead: Coordinate
        public var south: Double, west: Double, north: Double, east: Double
        public var difficulty: TrailDifficulty
        /// The kinds of its points of interest, for the map's filters.
        public var features: Set<PointOfInterest.Kind>

        public init(id: String, trailhead: Coordinate, south: Double, west: Double, north: Double, east: Double,
                    difficulty: TrailDifficulty, features: Set<PointOfInterest.Kind> = []) {
            self.id = id; self.trailhead = trailhead; self.south = south; self.west = west; self.north = north; self.east = east
            self.difficulty = difficulty; self.features = features
        }

        public init(_ trail: Trail) {
            let b = trail.bounds
            self.init(id: trail.id, trailhead: trail.trailhead, south: b.south, west: b.west, north: b.north, east: b.east,
                      difficulty: trail.difficulty, features: Set(trail.points.map(\.kind)))
        }
    }

    public struct Filter: Hashable, Sendable {
        public var difficulties: Set<TrailDifficulty>?
        /// Only trails with a point of each of these kinds.
        public var features: Set<PointOfInterest.Kind>

        public init(difficulties: Set<TrailDifficulty>? = nil, features: Set<PointOfInterest.Kind> = []) {
            self.difficulties = difficulties; self.features = features
        }

        public func admits(_ e: Entry) -> Bool {
            (difficulties?.contains(e.difficulty) ?? true) && features.isSubset(of: e.features)
        }
    }

    public let entries: [Entry]
    private let cells: [Cell: [Int32]]

    /// Degrees of latitude and longitude a cell spans.
    static let cellDegrees = 0.05

    struct Cell: Hashable { var row: Int, column: Int }

    public init(_ entries: [Entry]) {
        self.entries = entries
        var cells: [Cell: [Int32]] = [:]
        for (i, e) in entries.enumerated() { cells[Self.cell(e.trailhead), default: []].append(Int32(i)) }
        self.cells = cells
    }

    static func cell(_ c: Coordinate) -> Cell {
        Cell(row: Int((c.latitude / cellDegrees).rounded(.down)), column: Int((c.longitude / cellDegrees).rounded(.down)))
    }

    /// The `limit` trailheads nearest to `point`, nearest first, with their distance in metres;
    /// ties by id, so answers are stable.
    public func nearest(to point: Coordinate, limit: Int, filter: Filter = Filter()) -> [(entry: Entry, metres: Double)] {
        guard limit > 0, !cells.isEmpty else { return [] }
        let centre = Self.cell(point)
        var best: [(Int32, Double)] = []
        best.reserveCapacity(limit + 1)
        // A ring r cells out is at least this far: the narrower side of a cell, at the pole-most latitude searched.
        let columnsAround = Int((360 / Self.cellDegrees).rounded(.up))
        var ring = 0
        while true {
            let rowRange = (centre.row - ring)...(centre.row + ring)
            for row in rowRange {
                let edge = row == rowRange.lowerBound || row == rowRange.upperBound
                let step = edge ? 1 : 2 * ring
                var column = centre.column - ring
                while column <= centre.column + ring {
                    let wrapped = ((column % columnsAround) + columnsAround + columnsAround / 2) % columnsAround - columnsAround / 2
                    if let members = cells[Cell(row: row, column: wrapped)] {
                        for i in members where filter.admits(entries[Int(i)]) {
                            let d = Geo.distance(point, entries[Int(i)].trailhead)
                            if best.count < limit || d < best[best.count - 1].1 || (d == best[best.count - 1].1 && entries[Int(i)].id < entries[Int(best[best.count - 1].0)].id) {
                                insert((i, d), into: &best, limit: limit)
                            }
                        }
                    }
                    column += max(step, 1)
                }
            }
            if best.count == limit, let worst = best.last?.1, worst <= reach(ring: ring, around: point) { break }
            if ring >= Self.ringsBeforeScan { return scan(point, limit: limit, filter: filter) }
            ring += 1
        }
        return best.map { (entries[Int($0.0)], $0.1) }
    }

    /// Past this many rings (about 350 km) the cells are mostly empty: one pass over every entry is cheaper.
    static let ringsBeforeScan = 64

    private func scan(_ point: Coordinate, limit: Int, filter: Filter) -> [(entry: Entry, metres: Double)] {
        var all: [(Int32, Double)] = []
        for (i, e) in entries.enumerated() where filter.admits(e) { all.append((Int32(i), Geo.distance(point, e.trailhead))) }
        all.sort { $0.1 != $1.1 ? $0.1 < $1.1 : entries[Int($0.0)].id < entries[Int($1.0)].id }
        return all.prefix(limit).map { (entries[Int($0.0)], $0.1) }
    }

    /// How far any point in a cell beyond `ring` is, at least.
    private func reach(ring: Int, around point: Coordinate) -> Double {
        let latMetres = Self.cellDegrees * .pi / 180 * Geo.earthRadius
        let poleward = min(89.9, abs(point.latitude) + Double(ring + 1) * Self.cellDegrees)
        let lonMetres = latMetres * cos(poleward * .pi / 180)
        return Double(ring) * min(latMetres, lonMetres)
    }

    private func insert(_ item: (Int32, Double), into best: inout [(Int32, Double)], limit: Int) {
        var k = best.endIndex
        while k > 0 && (best[k - 1].1 > item.1 || (best[k - 1].1 == item.1 && entries[Int(best[k - 1].0)].id > entries[Int(item.0)].id)) { k -= 1 }
        best.insert(item, at: k)
        if best.count > limit { best.removeLast() }
    }

    /// Trails whose path crosses the box, the ones starting nearest its centre first.
    public func within(south: Double, west: Double, north: Double, east: Double, limit: Int, filter: Filter = Filter()) -> [Entry] {
        let centre = Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
        let crosses = east < west
        var found: [(Entry, Double)] = []
        for e in entries where filter.admits(e) && e.north >= south && e.south <= north {
            if crosses ? (e.east >= west || e.west <= east) : (e.east >= west && e.west <= east) {
                found.append((e, Geo.distance(centre, e.trailhead)))
            }
        }
        found.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id < $1.0.id }
        return found.prefix(limit).map(\.0)
    }
}
