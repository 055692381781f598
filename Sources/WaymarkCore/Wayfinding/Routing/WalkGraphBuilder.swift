import Foundation

/// Derives a venue's walkable network from its IMDF features:
/// - a node inside every unit a person can enter, and one at every door (opening);
/// - doors join the units they touch; a unit's doors join one another across it;
/// - where an export has no door, touching units are joined by an inferred passage: corridors
///   always, a doorless room to the corridors it touches (or, with none, to any room it touches);
/// - vertical connections from relationship features, or, for a building that has none, inferred
///   from stairs, elevator, escalator and ramp units that overlap on adjacent levels;
/// - entrances (doors on the ground level's outline, `entry` amenities) joined outdoors to the
///   nearest entrances of other buildings.
public struct WalkGraphBuilder: Sendable {
    public struct Options: Sendable {
        /// How far a door may be from a unit's wall and still open into it.
        public var doorTolerance = 0.75
        /// How close two units' walls must be to count as touching.
        public var touchTolerance = 0.5
        /// How long a shared wall must be to be walked through (a door's width).
        public var minimumPassage = 0.8
        /// How far a door may be from the building's outline to count as an entrance.
        public var entranceTolerance = 1.5
        /// Outdoor links from each entrance to the nearest entrances of other buildings.
        public var outdoorNeighbours = 5
        public var outdoorReach = 600.0
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    private struct UnitShape {
        var rings: [[PlanarPoint]]
        var box: PlanarBox
        var category: String
        var node: Int
        var doors: [Int] = []
        var solid: Bool
        var passage: Bool { IMDFCategories.passage.contains(category) }
    }

    private struct State {
        var nodes: [WalkGraph.Node] = []
        var adjacency: [[WalkGraph.Edge]] = []
        var nodeByFeature: [String: Int] = [:]

        mutating func add(_ node: WalkGraph.Node) -> Int {
            nodes.append(node)
            adjacency.append([])
            return nodes.count - 1
        }

        mutating func link(_ a: Int, _ b: Int, seconds: Double, metres: Double, mode: WalkGraph.Mode, bothWays: Bool = true) {
            guard a != b else { return }
            adjacency[a].append(.init(target: Int32(b), seconds: Float(seconds), metres: Float(metres), mode: mode))
            if bothWays {
                adjacency[b].append(.init(target: Int32(a), seconds: Float(seconds), metres: Float(metres), mode: mode))
            }
        }

        mutating func walk(_ a: Int, _ b: Int, mode: WalkGraph.Mode = .walk, extra: Double = 0) {
            let d = nodes[a].point.distance(to: nodes[b].point)
            link(a, b, seconds: d / WalkingPace.metresPerSecond + extra, metres: d, mode: mode)
        }
    }

    public func build(_ archive: IMDFArchive) -> WalkGraph {
        // The plane touches the middle of what is indoors, so that distances there are exact.
        let drawn = archive.features(.level).isEmpty ? archive.features(.venue) : archive.features(.level)
        let box = BoundingBox(drawn.flatMap { $0.geometry?.coordinates ?? [] })
        let origin = box.map { Coordinate(latitude: ($0.south + $0.north) / 2, longitude: ($0.west + $0.east) / 2) }
            ?? archive.venue?.displayPoint ?? Coordinate(latitude: 0, longitude: 0)
        let projection = PlanarProjection(origin: origin)
        func rings(_ g: Geometry?) -> [[PlanarPoint]] { g?.outerRings.map { $0.map(projection.point) } ?? [] }

        var s = State()

        // Buildings and their footprints.
        var buildings: [WalkGraph.Building] = []
        var buildingIndex: [String: Int] = [:]
        for b in archive.features(.building) {
            buildingIndex[b.id] = buildings.count
            buildings.append(.init(id: b.id, name: b.name ?? b.altName ?? "Building \(buildings.count + 1)"))
        }
        var footprints = [[[PlanarPoint]]](repeating: [], count: buildings.count)
        for f in archive.features(.footprint) {
            for id in f.references("building_ids") { if let i = buildingIndex[id] { footprints[i] += rings(f.geometry) } }
        }

        // Levels.
        var levels: [WalkGraph.Level] = []
        var levelIndex: [String: Int] = [:]
        var outlines: [[[PlanarPoint]]] = []
        for l in archive.features(.level) {
            let ordinal = Int(l.properties["ordinal"]?.number ?? 0)
            let building = l.references("building_ids").lazy.compactMap { buildingIndex[$0] }.first
            levelIndex[l.id] = levels.count
            levels.append(.init(id: l.id, ordinal: ordinal, name: l.name ?? l.shortName ?? "Level \(ordinal)",
                                shortName: l.shortName, building: building, outdoor: l.properties["outdoor"]?.bool == true))
            outlines.append(rings(l.geometry))
        }

        // Units: a node inside each one a person can enter.
        var units: [WalkGraph.Unit] = []
        var shapes: [UnitShape] = []
        var unitIndex: [String: Int] = [:]
        var grids = [PlanarGrid](repeating: PlanarGrid(cell: 8), count: levels.count)
        var unitsOnLevel = [[Int]](repeating: [], count: levels.count)
        for u in archive.features(.unit) {
            guard let level = u.reference("level_id").flatMap({ levelIndex[$0] }) else { continue }
            let unitRings = rings(u.geometry).filter { $0.count >= 4 }
            guard let largest = unitRings.max(by: { PlanarBox($0).area < PlanarBox($1).area }) else { continue }
            let raw = u.category ?? "unspecified"
            let category = IMDFCategories.unit.contains(raw) ? raw : "unspecified"
            let solid = IMDFCategories.solid.contains(category)
            var inside = Planar.interiorPoint(largest)
            if let p = u.displayPoint.map(projection.point), unitRings.contains(where: { Planar.contains($0, p) }) { inside = p }
            let node = s.add(.init(kind: .unit, point: inside, level: level, building: levels[level].building,
                                   featureId: u.id, unit: units.count, isEntrance: false))
            s.nodeByFeature[u.id] = node
            unitIndex[u.id] = shapes.count
            let box = PlanarBox(unitRings.flatMap { $0 })
            grids[level].insert(shapes.count, box)
            unitsOnLevel[level].append(shapes.count)
            shapes.append(.init(rings: unitRings, box: box, category: category, node: node, solid: solid))
            units.append(.init(id: u.id, name: u.name ?? u.altName, category: category, level: level, node: node))
        }

        // Doors.
        var openingCategory: [Int: String] = [:]
        for o in archive.features(.opening) {
            guard let level = o.reference("level_id").flatMap({ levelIndex[$0] }),
                  case .lineString(let line)? = o.geometry else { continue }
            let p = Planar.midpoint(line.map(projection.point))
            let node = s.add(.init(kind: .opening, point: p, level: level, building: levels[level].building,
                                   featureId: o.id, unit: nil, isEntrance: false))
            s.nodeByFeature[o.id] = node
            openingCategory[node] = o.category ?? "pedestrian"
            let probe = PlanarBox([p]).expanded(by: options.doorTolerance)
            for i in grids[level].candidates(probe) where !shapes[i].solid && shapes[i].box.expanded(by: options.doorTolerance).intersects(probe) {
                let touches = shapes[i].rings.contains { Planar.contains($0, p) || Planar.boundaryDistance(p, $0) <= options.doorTolerance }
                if touches { shapes[i].doors.append(node) }
            }
        }

        // Passages where touching units have no door between them. A unit whose doors open into
        // nothing else counts as doorless too (the export lacks what is behind them).
        var unitsPerDoor: [Int: Int] = [:]
        for shape in shapes { for d in shape.doors { unitsPerDoor[d, default: 0] += 1 } }
        let doorless = shapes.map { shape in shape.doors.allSatisfy { unitsPerDoor[$0, default: 0] < 2 } }
        for level in levels.indices {
            var touching: [Int: [(other: Int, point: PlanarPoint)]] = [:]
            for i in unitsOnLevel[level] where !shapes[i].solid {
                let box = shapes[i].box.expanded(by: options.touchTolerance)
                for j in grids[level].candidates(box) where j > i && !shapes[j].solid && box.intersects(shapes[j].box) {
                    var wall: PlanarPoint?
                    for r1 in shapes[i].rings where wall == nil {
                        for r2 in shapes[j].rings where wall == nil {
                            wall = Planar.sharedWall(r1, r2, tolerance: options.touchTolerance, minimumLength: options.minimumPassage)
                        }
                    }
                    guard let mid = wall else { continue }
                    touching[i, default: []].append((j, mid))
                    touching[j, default: []].append((i, mid))
                }
            }
            var joined = Set<[Int]>()
            func join(_ i: Int, _ j: Int, at p: PlanarPoint) {
                guard joined.insert([min(i, j), max(i, j)]).inserted else { return }
                let node = s.add(.init(kind: .passage, point: p, level: level, building: levels[level].building,
                                       featureId: nil, unit: nil, isEntrance: false))
                shapes[i].doors.append(node)
                shapes[j].doors.append(node)
            }
            for i in unitsOnLevel[level] {
                guard let list = touching[i] else { continue }
                for (j, p) in list where shapes[i].passage && shapes[j].passage { join(i, j, at: p) }
                guard doorless[i] else { continue }
                // Through a corridor if one is beside it, else through a neighbouring room (never a shaft).
                let passages = list.filter { shapes[$0.other].passage }
                let rooms = list.filter { !IMDFCategories.vertical.contains(shapes[$0.other].category) }
                for (j, p) in passages.isEmpty ? rooms : passages { join(i, j, at: p) }
            }
        }

        // Across each unit: its node to each door, and door to door.
        for shape in shapes where !shape.solid {
            // Crossing a stairwell's landing is level; only a `steps` unit has steps on one level.
            let mode: WalkGraph.Mode = shape.category == "steps" ? .steps : .walk
            let boarding = shape.category == "elevator" ? WalkingPace.elevatorBoarding : 0
            for d in shape.doors { s.walk(shape.node, d, mode: mode, extra: boarding) }
            let doors = shape.doors
            guard doors.count > 1, shape.category != "elevator" else { continue }
            // A corridor with many doors: each to its nearest six keeps the graph small and walks
            // along it door by door, a few per cent longer than the straight line at most.
            var pairs = Set<[Int]>()
            for (k, a) in doors.enumerated() {
                let others = doors.count <= 8 ? Array(doors[(k + 1)...])
                    : Array(doors.filter { $0 != a }.sorted { s.nodes[a].point.distance(to: s.nodes[$0].point) < s.nodes[a].point.distance(to: s.nodes[$1].point) }.prefix(6))
                for b in others where pairs.insert([min(a, b), max(a, b)]).inserted { s.walk(a, b, mode: mode) }
            }
        }

        // Vertical connections: the archive's relationships first.
        var connectedBuildings = Set<Int?>()
        for r in archive.features(.relationship) {
            guard let category = r.category else { continue }
            let mode: WalkGraph.Mode
            switch category {
            case "stairs": mode = .stairs
            case "elevator": mode = .elevator
            case "escalator": mode = .escalator
            case "ramp": mode = .ramp
            case "traversal", "movingwalkway": mode = .walk
            default: continue
            }
            var chain: [Int] = []
            let refs = [r.properties["origin"]] + (r.properties["intermediary"]?.array ?? []).map { Optional($0) } + [r.properties["destination"]]
            for ref in refs { if let id = ref?["id"]?.string, let n = s.nodeByFeature[id] { chain.append(n) } }
            let oneWay = r.properties["direction"]?.string == "directed"
            for (a, b) in zip(chain, chain.dropFirst()) {
                s.link(a, b, seconds: verticalSeconds(s.nodes[a], s.nodes[b], mode: mode, levels: levels),
                       metres: s.nodes[a].point.distance(to: s.nodes[b].point), mode: mode, bothWays: !oneWay)
                if mode.changesLevel { connectedBuildings.insert(s.nodes[a].level.flatMap { levels[$0].building }) }
            }
        }
        // Then inferred ones for buildings whose export has none.
        let byBuilding = Dictionary(grouping: levels.indices.filter { !levels[$0].outdoor }, by: { levels[$0].building })
        for (building, levelList) in byBuilding where !connectedBuildings.contains(building) {
            let ordinals = Set(levelList.map { levels[$0].ordinal }).sorted()
            for (lower, upper) in zip(ordinals, ordinals.dropFirst()) {
                let below = levelList.filter { levels[$0].ordinal == lower }.flatMap { unitsOnLevel[$0] }
                let above = levelList.filter { levels[$0].ordinal == upper }.flatMap { unitsOnLevel[$0] }
                for i in below {
                    guard let mode = Self.verticalMode(shapes[i].category) else { continue }
                    for j in above where shapes[j].category == shapes[i].category && Self.overlap(shapes[i], shapes[j]) {
                        let a = shapes[i].node, b = shapes[j].node
                        s.link(a, b, seconds: verticalSeconds(s.nodes[a], s.nodes[b], mode: mode, levels: levels),
                               metres: s.nodes[a].point.distance(to: s.nodes[b].point), mode: mode)
                    }
                }
            }
        }

        // Entrances.
        var entrances: [Int] = []
        for (building, levelList) in byBuilding {
            let ordinals = Set(levelList.map { levels[$0].ordinal })
            let entryOrdinal = ordinals.contains(0) ? 0 : (ordinals.filter { $0 > 0 }.min() ?? ordinals.max() ?? 0)
            let entryLevels = Set(levelList.filter { levels[$0].ordinal == entryOrdinal })
            let edges = entryLevels.flatMap { outlines[$0] } + (building.map { footprints[$0] } ?? [])
            var found: [Int] = []
            for (node, category) in openingCategory where entryLevels.contains(s.nodes[node].level ?? -1) {
                guard !["emergencyexit", "service", "automobile"].contains(category) else { continue }
                let p = s.nodes[node].point
                if edges.contains(where: { Planar.boundaryDistance(p, $0) <= options.entranceTolerance }) { found.append(node) }
            }
            for a in archive.features(.amenity) where a.category == "entry" {
                guard case .point(let c)? = a.geometry else { continue }
                let p = projection.point(c)
                let unitNodes = a.references("unit_ids").compactMap { unitIndex[$0] }.filter { entryLevels.contains(units[$0].level) }
                guard let first = unitNodes.first else { continue }
                let level = units[first].level
                let near = openingCategory.keys.filter { s.nodes[$0].level == level && s.nodes[$0].point.distance(to: p) <= 3 }
                    .min { s.nodes[$0].point.distance(to: p) < s.nodes[$1].point.distance(to: p) }
                if let near { found.append(near); continue }
                let node = s.add(.init(kind: .passage, point: p, level: level, building: building, featureId: a.id, unit: nil, isEntrance: false))
                for u in unitNodes { s.walk(node, shapes[u].node) }
                found.append(node)
            }
            if found.isEmpty {
                // No door on the outline: the unit closest to it, a corridor if there is one.
                let candidates = entryLevels.flatMap { unitsOnLevel[$0] }.filter { !shapes[$0].solid }
                let preferred = candidates.filter { shapes[$0].passage }
                let pool = preferred.isEmpty ? candidates : preferred
                func gap(_ i: Int) -> Double {
                    let p = s.nodes[shapes[i].node].point
                    return edges.map { Planar.boundaryDistance(p, $0) }.min() ?? 0
                }
                if let best = pool.min(by: { gap($0) < gap($1) }) { found.append(shapes[best].node) }
            }
            for n in Set(found) { s.nodes[n].isEntrance = true; entrances.append(n) }
        }
        // Places on the grounds (an assembly area, bike racks) are reached outside, like entrances.
        for level in levels.indices where levels[level].outdoor {
            for i in unitsOnLevel[level] where !shapes[i].solid {
                s.nodes[shapes[i].node].isEntrance = true
                entrances.append(shapes[i].node)
            }
        }
        // Buildings without indoor data are still places to walk to.
        let indoor = Set(levels.compactMap(\.building))
        for (i, b) in archive.features(.building).enumerated() where !indoor.contains(i) {
            let point = b.displayPoint.map(projection.point) ?? footprints[i].first.map(Planar.interiorPoint)
            guard let point else { continue }
            let node = s.add(.init(kind: .entrance, point: point, level: nil, building: i, featureId: b.id, unit: nil, isEntrance: true))
            s.nodeByFeature[b.id] = node
            entrances.append(node)
        }
        linkOutdoors(entrances.sorted(), &s)

        // Compressed rows.
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(s.nodes.count + 1)
        var edges: [WalkGraph.Edge] = []
        edges.reserveCapacity(s.adjacency.reduce(0) { $0 + $1.count })
        for list in s.adjacency {
            edges += list
            offsets.append(Int32(edges.count))
        }
        return WalkGraph(projection: projection, nodes: s.nodes, levels: levels, buildings: buildings, units: units,
                         offsets: offsets, edges: edges, nodeByFeature: s.nodeByFeature)
    }

    /// Outdoor paths: each entrance to the nearest entrances of other buildings (and to the other
    /// doors of its own building near it), then the nearest pair between any parts still apart,
    /// so that every building can be walked to.
    private func linkOutdoors(_ entrances: [Int], _ s: inout State) {
        guard entrances.count > 1 else { return }
        var parent = Array(0..<entrances.count)
        func find(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
        var linked = Set<[Int]>()
        func outside(_ i: Int, _ j: Int) {
            guard linked.insert([min(i, j), max(i, j)]).inserted else { return }
            let a = entrances[i], b = entrances[j]
            let d = s.nodes[a].point.distance(to: s.nodes[b].point) * WalkingPace.outdoorDetour
            s.link(a, b, seconds: d / WalkingPace.metresPerSecond, metres: d, mode: .outside)
            parent[find(i)] = find(j)
        }
        var grid = PlanarGrid(cell: 100)
        for (i, n) in entrances.enumerated() { grid.insert(i, PlanarBox([s.nodes[n].point])) }
        for (i, n) in entrances.enumerated() {
            let p = s.nodes[n].point
            let near = grid.candidates(PlanarBox([p]).expanded(by: options.outdoorReach))
                .map { (j: $0, d: p.distance(to: s.nodes[entrances[$0]].point)) }
                .filter { $0.j != i && $0.d <= options.outdoorReach }
                .sorted { $0.d < $1.d }
            let sameBuilding = near.filter { s.nodes[entrances[$0.j]].building == s.nodes[n].building && $0.d <= 150 }
            let others = near.filter { s.nodes[entrances[$0.j]].building != s.nodes[n].building }.prefix(options.outdoorNeighbours)
            for c in sameBuilding + others { outside(i, c.j) }
        }
        // Join what is still apart, nearest pair first.
        while true {
            let roots = Set(entrances.indices.map(find))
            guard roots.count > 1 else { break }
            let groups = Dictionary(grouping: entrances.indices, by: find)
            guard let smallest = groups.values.min(by: { $0.count < $1.count }) else { break }
            var best: (i: Int, j: Int, d: Double)?
            for i in smallest {
                for j in entrances.indices where find(j) != find(i) {
                    let d = s.nodes[entrances[i]].point.distance(to: s.nodes[entrances[j]].point)
                    if best == nil || d < best!.d { best = (i, j, d) }
                }
            }
            guard let best else { break }
            outside(best.i, best.j)
        }
    }

    private func verticalSeconds(_ a: WalkGraph.Node, _ b: WalkGraph.Node, mode: WalkGraph.Mode, levels: [WalkGraph.Level]) -> Double {
        let flat = a.point.distance(to: b.point) / WalkingPace.metresPerSecond
        let floors = Double(abs((a.level.map { levels[$0].ordinal } ?? 0) - (b.level.map { levels[$0].ordinal } ?? 0)))
        let perLevel: Double = switch mode {
        case .stairs: WalkingPace.stairsPerLevel
        case .escalator: WalkingPace.escalatorPerLevel
        case .elevator: WalkingPace.elevatorPerLevel
        case .ramp: WalkingPace.rampPerLevel
        // A skybridge that changes level still costs at least an elevator's floor (the router's estimate relies on it).
        default: WalkingPace.elevatorPerLevel
        }
        return flat + perLevel * floors
    }

    private static func verticalMode(_ category: String) -> WalkGraph.Mode? {
        switch category {
        case "stairs": .stairs
        case "elevator": .elevator
        case "escalator": .escalator
        case "ramp": .ramp
        default: nil
        }
    }

    /// Two shafts on adjacent levels are one when their boxes overlap by a quarter of the smaller,
    /// or one's interior point lies inside the other (exports draw the same stairwell slightly
    /// differently on each floor).
    private static func overlap(_ a: UnitShape, _ b: UnitShape) -> Bool {
        let shared = a.box.overlapArea(b.box)
        if shared >= 0.25 * min(a.box.area, b.box.area), shared > 0 { return true }
        let pa = Planar.centroid(a.rings[0]), pb = Planar.centroid(b.rings[0])
        return b.rings.contains { Planar.contains($0, pa) } || a.rings.contains { Planar.contains($0, pb) }
    }
}
