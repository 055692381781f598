import Foundation
import SwiftGraph
import WaymarkCore

// Routes between random rooms of a venue graph, timed in-process: Waymark's A* (and its
// step-free variant) beside SwiftGraph's Dijkstra on the same edges, which also checks every
// route's time against an independent implementation.

@main
struct RoutingBenchmark {
    static func main() throws {
        func argument(_ name: String, _ fallback: Int) -> Int {
            guard let i = CommandLine.arguments.firstIndex(of: name), i + 1 < CommandLine.arguments.count,
                  let v = Int(CommandLine.arguments[i + 1]) else { return fallback }
            return v
        }
        let queries = argument("--queries", 2_000)
        let libraryQueries = argument("--library-queries", 200)
        let floors = argument("--floors", 8)
        let csvFolder: String? = CommandLine.arguments.firstIndex(of: "--csv").map { CommandLine.arguments[$0 + 1] }

        let clock = ContinuousClock()
        func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15 }
        func percentile(_ xs: [Double], _ p: Double) -> Double {
            let s = xs.sorted()
            return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
        }

        // The San Bernardino demo with every building raised to `floors` floors: a graph over 10,000 nodes.
        var venue = DemoVenue.sanBernardino
        venue.buildings = venue.buildings.map { b in var b = b; b.floors = max(b.floors ?? 0, floors); return b }
        let archive = IMDFArchive(manifest: [:], features: venue.features())
        var started = clock.now
        let graph = WalkGraphBuilder().build(archive)
        let buildMs = ms(clock.now - started)
        print("venue graph: \(graph.nodeCount) nodes, \(graph.edgeCount) directed edges, built in \(String(format: "%.0f", buildMs)) ms")

        var seed: UInt64 = 42
        func random(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let rooms = graph.units.filter { $0.name != nil && $0.category != "nonpublic" }.map(\.node)
        let pairs = (0..<queries).map { _ in (rooms[random(rooms.count)], rooms[random(rooms.count)]) }
        started = clock.now
        let router = WalkRouter(graph: graph)
        print("router ready (8 landmarks: a Dijkstra from each) in \(String(format: "%.0f", ms(clock.now - started))) ms")

        var ours: [Double] = [], oursStepFree: [Double] = []
        var seconds: [Double] = []
        for (a, b) in pairs {
            started = clock.now
            let path = router.route(from: [.init(node: a)], to: [b], stepFree: false)
            ours.append(ms(clock.now - started))
            seconds.append(path?.seconds ?? .infinity)
            started = clock.now
            _ = router.route(from: [.init(node: a)], to: [b], stepFree: true)
            oursStepFree.append(ms(clock.now - started))
        }

        let library = WeightedGraph<Int32, Float>(vertices: (0..<graph.nodeCount).map { Int32($0) })
        for u in 0..<graph.nodeCount {
            for e in graph.edges(from: u) { library.addEdge(fromIndex: u, toIndex: Int(e.target), weight: e.seconds, directed: true) }
        }
        var theirs: [Double] = []
        var disagreements = 0
        for (k, (a, b)) in pairs.prefix(libraryQueries).enumerated() {
            started = clock.now
            let (distances, _) = library.dijkstra(root: a, startDistance: 0)
            theirs.append(ms(clock.now - started))
            let expected = distances[b].map(Double.init) ?? .infinity
            if abs(expected - seconds[k]) > 0.01 * max(1, expected) { disagreements += 1 }
        }

        func line(_ name: String, _ xs: [Double]) -> String {
            String(format: "%@: %d routes, p50 %.3f ms, p99 %.3f ms, mean %.3f ms", name, xs.count,
                   percentile(xs, 0.5), percentile(xs, 0.99), xs.reduce(0, +) / Double(xs.count))
        }
        print(line("Waymark A*", ours))
        print(line("Waymark A*, step-free", oursStepFree))
        print(line("SwiftGraph Dijkstra (all distances from the start)", theirs))
        print(String(format: "ratio SwiftGraph / Waymark: p50 %.1f×, p99 %.1f×", percentile(theirs, 0.5) / percentile(ours, 0.5),
                     percentile(theirs, 0.99) / percentile(ours, 0.99)))
        print("routes whose time SwiftGraph disagrees with: \(disagreements) of \(theirs.count)")

        // The same graph and routes as CSV, for comparing with routers outside Swift (pgRouting).
        if let csvFolder {
            var edges = "id,source,target,cost\n"
            var id = 0
            for u in 0..<graph.nodeCount {
                for e in graph.edges(from: u) { id += 1; edges += "\(id),\(u),\(e.target),\(e.seconds)\n" }
            }
            var routes = "source,target,seconds\n"
            for (k, (a, b)) in pairs.enumerated() { routes += "\(a),\(b),\(seconds[k])\n" }
            try edges.write(toFile: csvFolder + "/edges.csv", atomically: true, encoding: .utf8)
            try routes.write(toFile: csvFolder + "/routes.csv", atomically: true, encoding: .utf8)
            print("wrote \(csvFolder)/edges.csv and routes.csv")
        }
    }
}
