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
    /// One-degree cells, row by row from the south pole: for the sparse parts of the world.
    private let coarseCells: [[Int32]]

    /// Degrees of latitude and longitude a cell spans.
    static let cellDegrees = 0.05

    struct Cell: Hashable { var row: Int, column: Int }

    public init(_ entries: [Entry]) {
        self.entries = entries
        var cells: [Cell: [Int32]] = [:]
        var coarse = [[Int32]](repeating: [], count: 180 * 360)
        for (i, e) in entries.enumerated() {
            cells[Self.cell(e.trailhead), default: []].append(Int32(i))
            let row = min(89, max(-90, Int(e.trailhead.latitude.rounded(.down))))
            let column = min(179, max(-180, Int(e.trailhead.longitude.rounded(.down))))
            coarse[(row + 90) * 360 + (column + 180)].append(Int32(i))
        }
        self.cells = cells
        coarseCells = coarse
    }

    static func cell(_ c: Coordinate) -> Cell {
        Cell(row: Int((c.latitude / cellDegrees).rounded(.down)), column: Int((c.longitude / cellDegrees).rounded(.down)))
    }

    /// The `limit` trailheads nearest to `point`, nearest first, with their distance in metres;
    /// ties by id, so answers are stable. Rings of fine cells first; where trails are sparse,
    /// rings of one-degree cells, which end once they have gone round the whole Earth.
    public func nearest(to point: Coordinate, limit: Int, filter: Filter = Filter()) -> [(entry: Entry, metres: Double)] {
        guard limit > 0, !entries.isEmpty else { return [] }
        let fine = Self.cell(point)
        if let found = ringSearch(point, limit: limit, filter: filter, degrees: Self.cellDegrees, centre: fine, maxRing: Self.fineRings,
                                  columnsAround: Int((360 / Self.cellDegrees).rounded()), members: { cells[$0] }) {
            return found.map { (entries[Int($0.0)], $0.1) }
        }
        let coarse = Cell(row: Int(point.latitude.rounded(.down)), column: Int(point.longitude.rounded(.down)))
        // Wide rings wrap round the Earth onto cells already seen: each cell is read once.
        var seen = [Bool](repeating: false, count: coarseCells.count)
        let found = ringSearch(point, limit: limit, filter: filter, degrees: 1, centre: coarse, maxRing: 181, columnsAround: 360,
                               members: { c in
                                   guard (-90..<90).contains(c.row) else { return nil }
                                   let k = (c.row + 90) * 360 + (c.column + 180)
                                   guard !seen[k] else { return nil }
                                   seen[k] = true
                                   return coarseCells[k].isEmpty ? nil : coarseCells[k]
                               }) ?? []
        return found.map { (entries[Int($0.0)], $0.1) }
    }

    /// Rings of fine cells tried before the coarse ones: about 65 km.
    static let fineRings = 12

    /// Nil when `maxRing` rings did not settle the answer (and did not cover the Earth).
    private func ringSearch(_ point: Coordinate, limit: Int, filter: Filter, degrees: Double, centre: Cell, maxRing: Int,
                            columnsAround: Int, members: (Cell) -> [Int32]?) -> [(Int32, Double)]? {
        var best: [(Int32, Double)] = []
        best.reserveCapacity(limit + 1)
        let half = columnsAround / 2
        var ring = 0
        while true {
            for row in (centre.row - ring)...(centre.row + ring) {
                let edge = row == centre.row - ring || row == centre.row + ring
                let step = edge || ring == 0 ? 1 : 2 * ring
                var column = centre.column - ring
                while column <= centre.column + ring {
                    let wrapped = ((column + half) % columnsAround + columnsAround) % columnsAround - half
                    if let list = members(Cell(row: row, column: wrapped)) {
                        for i in list {
                            let e = entries[Int(i)]
                            guard filter.admits(e) else { continue }
                            let d = Geo.distance(point, e.trailhead)
                            if best.count < limit || d < best[best.count - 1].1 || (d == best[best.count - 1].1 && e.id < entries[Int(best[best.count - 1].0)].id) {
                                insert((i, d), into: &best, limit: limit)
                            }
                        }
                    }
                    column += step
                }
            }
            if best.count == limit, let worst = best.last?.1, worst <= reach(ring: ring, degrees: degrees, around: point) { return best }
            // Past half the columns and every row, every cell has been seen.
            if ring >= columnsAround / 2 && ring * 2 >= Int((180 / degrees).rounded()) { return best }
            if ring >= maxRing { return nil }
            ring += 1
        }
    }

    /// How far any point in a cell beyond `ring` is, at least: the point lies in the centre cell,
    /// so unseen rows are `ring` cells of latitude away, and unseen columns lie beyond the
    /// meridian `ring` cells of longitude away, no nearer than that meridian's great circle (or
    /// the pole, over which the far side is reached).
    private func reach(ring: Int, degrees: Double, around point: Coordinate) -> Double {
        let gap = Double(ring) * degrees * .pi / 180
        let φ = abs(point.latitude) * .pi / 180
        let acrossMeridian = min(asin(min(1, cos(φ) * sin(min(gap, .pi / 2)))), .pi / 2 - φ)
        return Geo.earthRadius * min(gap, acrossMeridian)
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
