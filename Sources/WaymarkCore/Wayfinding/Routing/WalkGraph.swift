import Foundation

/// The walkable network of a venue: units, doors, vertical connections and outdoor paths, derived
/// from its IMDF features (`WalkGraphBuilder`). Edges cost seconds; adjacency is stored as one
/// flat array (compressed rows) so a search touches little memory.
public struct WalkGraph: Sendable {
    public enum Mode: UInt8, Sendable, Hashable, Codable {
        /// Inside, on one level.
        case walk
        /// A few steps on one level (an IMDF `steps` unit).
        case steps
        case stairs, elevator, escalator, ramp
        /// Between buildings, or around one.
        case outside

        public var isStepFree: Bool { self != .stairs && self != .steps && self != .escalator }
        public var changesLevel: Bool { self == .stairs || self == .elevator || self == .escalator || self == .ramp }
    }

    public enum NodeKind: UInt8, Sendable, Hashable {
        /// A unit's interior point: where a room is reached.
        case unit
        /// A door from the archive.
        case opening
        /// A passage inferred where two units touch without a door between them.
        case passage
        /// A building's way in for a building without indoor data.
        case entrance
    }

    public struct Node: Sendable, Hashable {
        public var kind: NodeKind
        public var point: PlanarPoint
        /// Index into `levels`, nil outdoors.
        public var level: Int?
        /// Index into `buildings`.
        public var building: Int?
        /// The unit, opening or building the node stands for.
        public var featureId: String?
        /// Index into `units` for unit nodes.
        public var unit: Int?
        public var isEntrance: Bool
    }

    public struct Edge: Sendable, Hashable {
        public var target: Int32
        public var seconds: Float
        public var metres: Float
        public var mode: Mode
    }

    public struct Level: Sendable, Hashable {
        public var id: String
        public var ordinal: Int
        public var name: String
        public var shortName: String?
        public var building: Int?
        /// Grounds between buildings (IMDF `outdoor`): its places are reached on foot outside.
        public var outdoor: Bool
    }

    public struct Building: Sendable, Hashable {
        public var id: String
        public var name: String
    }

    public struct Unit: Sendable, Hashable {
        public var id: String
        public var name: String?
        public var category: String
        public var level: Int
        public var node: Int
    }

    public let projection: PlanarProjection
    public internal(set) var nodes: [Node]
    public internal(set) var levels: [Level]
    public internal(set) var buildings: [Building]
    public internal(set) var units: [Unit]
    /// `edges[offsets[n]..<offsets[n + 1]]` leave node n.
    public internal(set) var offsets: [Int32]
    public internal(set) var edges: [Edge]
    public internal(set) var nodeByFeature: [String: Int]

    public var nodeCount: Int { nodes.count }
    public var edgeCount: Int { edges.count }

    public func edges(from node: Int) -> ArraySlice<Edge> { edges[Int(offsets[node])..<Int(offsets[node + 1])] }

    public func coordinate(of node: Int) -> Coordinate { projection.coordinate(nodes[node].point) }

    /// Nodes marked as a way into a building.
    public var entrances: [Int] { nodes.indices.filter { nodes[$0].isEntrance } }
}

/// Walking speeds and the time a level change takes, in one place so that routes and their
/// stated times agree.
public enum WalkingPace {
    /// 4.7 km/h, a common planning figure for walking indoors.
    public static let metresPerSecond = 1.3
    /// Paths between buildings are rarely straight; straight lines are lengthened by this.
    public static let outdoorDetour = 1.2
    public static let stairsPerLevel = 15.0
    public static let escalatorPerLevel = 20.0
    public static let elevatorPerLevel = 6.0
    /// Waiting for and leaving an elevator, counted when stepping in and out.
    public static let elevatorBoarding = 10.0
    public static let rampPerLevel = 25.0
}
