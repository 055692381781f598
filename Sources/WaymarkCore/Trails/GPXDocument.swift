import Foundation

/// A GPX file's tracks, routes and waypoints (TRL-1): what an importer turns into trails and
/// what a trail or a hike is exported as. Versions 1.0 and 1.1 read; 1.1 written.
public struct GPXDocument: Hashable, Sendable {
    public var name: String?
    public var description: String?
    public var tracks: [Track]
    public var routes: [Route]
    public var waypoints: [Point]

    public init(name: String? = nil, description: String? = nil, tracks: [Track] = [], routes: [Route] = [], waypoints: [Point] = []) {
        self.name = name
        self.description = description
        self.tracks = tracks
        self.routes = routes
        self.waypoints = waypoints
    }

    /// A recorded path: one or more segments (a new one where the receiver lost its fix).
    public struct Track: Hashable, Sendable {
        public var name: String?
        public var description: String?
        public var segments: [[Point]]

        public init(name: String? = nil, description: String? = nil, segments: [[Point]]) {
            self.name = name
            self.description = description
            self.segments = segments
        }

        public var points: [Point] { segments.flatMap { $0 } }
    }

    /// A planned path: points to pass in order.
    public struct Route: Hashable, Sendable {
        public var name: String?
        public var description: String?
        public var points: [Point]

        public init(name: String? = nil, description: String? = nil, points: [Point]) {
            self.name = name
            self.description = description
            self.points = points
        }
    }

    public struct Point: Hashable, Sendable {
        public var coordinate: Coordinate
        /// Metres above mean sea level, as the file says; nil when it says nothing.
        public var elevation: Double?
        public var time: Date?
        public var name: String?

        public init(coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil, name: String? = nil) {
            self.coordinate = coordinate
            self.elevation = elevation
            self.time = time
            self.name = name
        }
    }
}

/// Why a GPX file was refused: the rule broken and, where there is one, the line.
public struct GPXError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var rule: String

    public init(line: Int?, _ rule: String) {
        self.line = line
        self.rule = rule
    }

    public var description: String { line.map { "line \($0): \(rule)" } ?? rule }
}
