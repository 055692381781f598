import Foundation

/// A route as a person follows it: steps that say where to walk and when the level changes.
public struct WalkRoute: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, Codable {
            case walk, stairs, elevator, escalator, ramp, outside, arrive
        }

        public var kind: Kind
        public var text: String
        public var metres: Double
        public var seconds: Double
        /// The level the step ends on (index into the graph's levels); nil outdoors.
        public var level: Int?
        /// For a level change, the level it starts on.
        public var fromLevel: Int?
        /// The line to draw, start to end.
        public var path: [Coordinate]
    }

    public var steps: [Step]
    public var seconds: Double
    public var metres: Double
    /// True when no step uses stairs, steps or escalators.
    public var isStepFree: Bool
    public var path: WalkRouter.Path
}

extension WalkRoute {
    /// Turns a path into steps. `destination` names the place for the last step ("JB-102");
    /// `startOutside`: the walk begins outdoors at `startPoint`, so reaching the first node is a
    /// step of its own ("Walk 40 m outside to Jack H. Brown Hall").
    public init(path: WalkRouter.Path, graph: WalkGraph, startPoint: Coordinate? = nil, startOutside: Bool = false, destination: String? = nil) {
        enum Group: Equatable { case inside(Int?), outside, vertical(WalkGraph.Mode) }
        func group(_ e: WalkGraph.Edge, from: Int) -> Group {
            if e.mode == .outside { return .outside }
            if e.mode.changesLevel, graph.nodes[from].level != graph.nodes[Int(e.target)].level { return .vertical(e.mode) }
            return .inside(graph.nodes[from].building)
        }

        var runs: [(group: Group, first: Int, last: Int)] = []  // edge index ranges
        for (k, e) in path.edges.enumerated() {
            let g = group(e, from: path.nodes[k])
            if let last = runs.last, last.group == g { runs[runs.count - 1].last = k } else { runs.append((g, k, k)) }
        }

        var steps: [Step] = []
        let walkIn = startOutside && startPoint != nil && path.start.metres > 0
        if walkIn, let startPoint, let first = path.nodes.first {
            let to = graph.nodes[first].building.map { graph.buildings[$0].name } ?? Self.place(first, graph)
            steps.append(.init(kind: .outside, text: "Walk \(Self.distance(path.start.metres)) outside" + (to.map { " to \($0)" } ?? ""),
                               metres: path.start.metres, seconds: path.start.seconds, level: nil, fromLevel: nil,
                               path: [startPoint, graph.coordinate(of: first)]))
        }
        for (r, run) in runs.enumerated() {
            let edges = path.edges[run.first...run.last]
            var metres = edges.reduce(0) { $0 + Double($1.metres) }
            var seconds = edges.reduce(0) { $0 + Double($1.seconds) }
            var points = path.nodes[run.first...(run.last + 1)].map { graph.coordinate(of: $0) }
            if r == 0, !walkIn, let startPoint {
                points.insert(startPoint, at: 0)
                metres += path.start.metres
                seconds += path.start.seconds
            }
            let endNode = path.nodes[run.last + 1], startNode = path.nodes[run.first]
            let next = r + 1 < runs.count ? runs[r + 1].group : nil
            switch run.group {
            case .vertical(let mode):
                let from = graph.nodes[startNode].level, to = graph.nodes[endNode].level
                let up = (to.map { graph.levels[$0].ordinal } ?? 0) > (from.map { graph.levels[$0].ordinal } ?? 0)
                let levelName = to.map { graph.levels[$0].name } ?? "the next level"
                let kind: Step.Kind = switch mode {
                case .stairs: .stairs
                case .elevator: .elevator
                case .escalator: .escalator
                default: .ramp
                }
                let how = switch kind {
                case .elevator: "Take the elevator \(up ? "up" : "down") to \(levelName)"
                case .escalator: "Take the escalator \(up ? "up" : "down") to \(levelName)"
                case .stairs: "Take the stairs \(up ? "up" : "down") to \(levelName)"
                default: "Take the ramp \(up ? "up" : "down") to \(levelName)"
                }
                steps.append(.init(kind: kind, text: how, metres: metres, seconds: seconds, level: to, fromLevel: from, path: points))
            case .outside:
                let toBuilding = graph.nodes[endNode].building.map { graph.buildings[$0].name }
                let fromBuilding = graph.nodes[startNode].building.map { graph.buildings[$0].name }
                var text = "Walk \(Self.distance(metres)) outside"
                if let toBuilding { text += " to \(toBuilding)" }
                if r > 0, let fromBuilding, fromBuilding != toBuilding { text = "Leave \(fromBuilding). " + text }
                steps.append(.init(kind: .outside, text: text, metres: metres, seconds: seconds, level: nil, fromLevel: nil, path: points))
            case .inside:
                let end: String
                switch next {
                case .vertical(let mode)?:
                    end = switch mode {
                    case .elevator: "the elevator"
                    case .escalator: "the escalator"
                    case .ramp: "the ramp"
                    default: "the stairs"
                    }
                case .outside?: end = "the exit"
                default: end = destination ?? Self.place(endNode, graph) ?? "your destination"
                }
                let level = graph.nodes[endNode].level
                var text = "Walk \(Self.distance(metres)) to \(end)"
                if r == 0 || runs[r - 1].group == .outside, let level {
                    let building = graph.levels[level].building.map { graph.buildings[$0].name }
                    text = (r > 0 || walkIn ? "Enter \(building ?? "the building")" : "In \(building ?? "the building")")
                        + ", \(graph.levels[level].name): " + text.prefix(1).lowercased() + text.dropFirst()
                }
                let hasSteps = edges.contains { !$0.mode.isStepFree }
                if hasSteps { text += " (a few steps on the way)" }
                steps.append(.init(kind: .walk, text: text, metres: metres, seconds: seconds, level: level, fromLevel: nil, path: points))
            }
        }
        if let last = path.nodes.last {
            let name = destination ?? Self.place(last, graph) ?? "your destination"
            let level = graph.nodes[last].level
            let on = level.map { ", \(graph.levels[$0].name)" } ?? ""
            steps.append(.init(kind: .arrive, text: "Arrive at \(name)\(on)", metres: 0, seconds: 0, level: level, fromLevel: nil,
                               path: [graph.coordinate(of: last)]))
        }
        self.init(steps: steps, seconds: path.seconds, metres: path.metres,
                  isStepFree: path.edges.allSatisfy(\.mode.isStepFree), path: path)
    }

    /// "35 m", "180 m", "1.2 km": close enough to walk by, not falsely exact.
    static func distance(_ metres: Double) -> String {
        if metres < 100 { return "\(max(5, Int((metres / 5).rounded()) * 5)) m" }
        if metres < 1000 { return "\(Int((metres / 10).rounded()) * 10) m" }
        return String(format: "%.1f km", metres / 1000)
    }

    /// What a node is called: a unit's name, a building's name, else its kind in words.
    static func place(_ node: Int, _ graph: WalkGraph) -> String? {
        let n = graph.nodes[node]
        if let u = n.unit {
            let unit = graph.units[u]
            if let name = unit.name { return name }
            if IMDFCategories.isRestroom(unit.category) { return "the restroom" }
            switch unit.category {
            case "walkway": return "the corridor"
            case "elevator": return "the elevator"
            case "stairs": return "the stairs"
            default: return "the room"
            }
        }
        if n.kind == .entrance, let b = n.building { return graph.buildings[b].name }
        return nil
    }
}
