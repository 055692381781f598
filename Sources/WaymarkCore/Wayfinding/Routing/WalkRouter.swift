import Foundation

/// Shortest walks on a `WalkGraph` by time: A* towards one destination, Dijkstra towards the
/// nearest of many ("nearest restroom"). Step-free searches skip stairs, steps and escalators.
public struct WalkRouter: Sendable {
    public let graph: WalkGraph
    /// Seconds from a few landmarks to every node, node-major (`landmarks[v * landmarkCount + l]`)
    /// so that one node's distances sit together. By the triangle inequality,
    /// `d(L, t) − d(L, v)` never exceeds `d(v, t)`, which makes a far tighter estimate than a
    /// straight line across a campus of stairs and detours (A* with landmarks, "ALT").
    private let landmarks: [Float]
    private let landmarkCount: Int
    /// What the estimate reads of each node, as plain numbers: a node is a struct with strings,
    /// and copying one in the search's inner loop cost reference counting on every push.
    private let xs: [Float], ys: [Float]
    private let ordinals: [Int32]
    /// The node's building, -1 outdoors.
    private let buildingOf: [Int32]

    public init(graph: WalkGraph, landmarks count: Int = 8) {
        self.graph = graph
        let n = graph.nodeCount
        xs = graph.nodes.map { Float($0.point.x) }
        ys = graph.nodes.map { Float($0.point.y) }
        ordinals = graph.nodes.map { $0.level.map { Int32(graph.levels[$0].ordinal) } ?? 0 }
        buildingOf = graph.nodes.map { $0.level.flatMap { graph.levels[$0].building }.map(Int32.init) ?? -1 }
        var chosen: [[Float]] = []
        if n > 1, count > 0 {
            // Each next landmark is the node farthest from those chosen (reachable ones only).
            var nearest = [Float](repeating: .infinity, count: n)
            var next = Self.allDistances(graph, from: 0).enumerated().filter { $0.element.isFinite }.max { $0.element < $1.element }?.offset ?? 0
            for _ in 0..<min(count, n) {
                let d = Self.allDistances(graph, from: next)
                chosen.append(d)
                for i in nearest.indices { nearest[i] = min(nearest[i], d[i]) }
                guard let far = nearest.enumerated().filter({ $0.element.isFinite && $0.element > 0 }).max(by: { $0.element < $1.element }) else { break }
                next = far.offset
            }
        }
        landmarkCount = chosen.count
        var flat = [Float](repeating: .infinity, count: n * chosen.count)
        for (l, d) in chosen.enumerated() { for v in 0..<n { flat[v * chosen.count + l] = d[v] } }
        landmarks = flat
    }

    /// Dijkstra from one node to all (seconds; infinity where unreachable).
    static func allDistances(_ graph: WalkGraph, from source: Int) -> [Float] {
        var cost = [Float](repeating: .infinity, count: graph.nodeCount)
        var heap = MinHeap()
        cost[source] = 0
        heap.push(0, Int32(source))
        while let (c, node) = heap.pop() {
            let u = Int(node)
            if c > cost[u] { continue }
            for e in graph.edges(from: u) {
                let v = Int(e.target), next = c + e.seconds
                if next < cost[v] { cost[v] = next; heap.push(next, e.target) }
            }
        }
        return cost
    }

    /// Where a walk starts: a node, and the seconds already spent reaching it (for a start that
    /// is a position between nodes).
    public struct Start: Sendable, Hashable {
        public var node: Int
        public var seconds: Double
        public var metres: Double
        public init(node: Int, seconds: Double = 0, metres: Double = 0) {
            self.node = node; self.seconds = seconds; self.metres = metres
        }
    }

    public struct Path: Sendable, Hashable {
        public var nodes: [Int]
        /// `edges[i]` leads from `nodes[i]` to `nodes[i + 1]`.
        public var edges: [WalkGraph.Edge]
        public var start: Start
        public var seconds: Double
        public var metres: Double
    }

    /// The quickest path from any start to any target, or nil when none exists (for a step-free
    /// search: none without stairs, steps or escalators).
    public func route(from starts: [Start], to targets: Set<Int>, stepFree: Bool) -> Path? {
        let n = graph.nodeCount
        guard !starts.isEmpty, !targets.isEmpty, n > 0 else { return nil }
        let targetList = Array(targets)
        // With one or a few targets A* aims at them; with many, the estimate costs more than it saves.
        let aimIds = targetList.count <= 8 ? targetList : []
        let pace = Float(WalkingPace.metresPerSecond)
        let perLevel = Float(WalkingPace.elevatorPerLevel)
        let count = landmarkCount
        let (xs, ys, ordinals, buildingOf, landmarks) = (self.xs, self.ys, self.ordinals, self.buildingOf, self.landmarks)
        func estimate(_ v: Int) -> Float {
            var best = Float.infinity
            for t in aimIds {
                let dx = xs[v] - xs[t], dy = ys[v] - ys[t]
                var h = (dx * dx + dy * dy).squareRoot() / pace
                if buildingOf[v] >= 0, buildingOf[v] == buildingOf[t] { h += Float(abs(ordinals[v] - ordinals[t])) * perLevel }
                let bv = v * count, bt = t * count
                for l in 0..<count {
                    let dv = landmarks[bv + l], dt = landmarks[bt + l]
                    // Slightly under the bound, so that float rounding never makes it overestimate.
                    if dv.isFinite && dt.isFinite { h = max(h, (dt - dv) * 0.999) }
                }
                best = min(best, h)
            }
            return aimIds.isEmpty ? 0 : best
        }

        var cost = [Float](repeating: .infinity, count: n)
        var via = [Int32](repeating: -1, count: n)
        var viaEdge = [Int32](repeating: -1, count: n)
        var origin = [Int32](repeating: -1, count: n)
        var heap = MinHeap()
        for (k, s) in starts.enumerated() where s.node >= 0 && s.node < n {
            let c = Float(s.seconds)
            if c < cost[s.node] {
                cost[s.node] = c
                origin[s.node] = Int32(k)
                heap.push(c + estimate(s.node), Int32(s.node))
            }
        }
        var isTarget = [Bool](repeating: false, count: n)
        for t in targetList where t >= 0 && t < n { isTarget[t] = true }
        var closed = [Bool](repeating: false, count: n)
        let offsets = graph.offsets
        let edges = graph.edges
        var found = -1
        while let (_, node) = heap.pop() {
            let u = Int(node)
            if closed[u] { continue }
            closed[u] = true
            if isTarget[u] { found = u; break }
            let base = cost[u]
            for e in Int(offsets[u])..<Int(offsets[u + 1]) {
                let edge = edges[e]
                if stepFree && !edge.mode.isStepFree { continue }
                let v = Int(edge.target)
                let c = base + edge.seconds
                if c < cost[v] {
                    cost[v] = c
                    via[v] = Int32(u)
                    viaEdge[v] = Int32(e)
                    origin[v] = origin[u]
                    heap.push(c + estimate(v), edge.target)
                }
            }
        }
        guard found >= 0 else { return nil }
        var nodes = [found]
        var pathEdges: [WalkGraph.Edge] = []
        var at = found
        while via[at] >= 0 {
            pathEdges.append(edges[Int(viaEdge[at])])
            at = Int(via[at])
            nodes.append(at)
        }
        nodes.reverse()
        pathEdges.reverse()
        let start = starts[Int(origin[found])]
        let metres = start.metres + pathEdges.reduce(0) { $0 + Double($1.metres) }
        return Path(nodes: nodes, edges: pathEdges, start: start, seconds: Double(cost[found]), metres: metres)
    }
}

/// A binary min-heap of (priority, node), small and allocation-light for the router.
struct MinHeap {
    private var items: [(Float, Int32)] = []

    init() { items.reserveCapacity(256) }

    mutating func push(_ priority: Float, _ node: Int32) {
        items.append((priority, node))
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if items[p].0 <= items[i].0 { break }
            items.swapAt(p, i)
            i = p
        }
    }

    mutating func pop() -> (Float, Int32)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            let n = items.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n && items[l].0 < items[m].0 { m = l }
                if r < n && items[r].0 < items[m].0 { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
