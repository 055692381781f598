import Foundation

/// One venue ready to answer questions: its features, walkable graph, router, search index and
/// directory, built once per version of the venue and shared by every request.
public struct VenueMap: Sendable {
    public let archive: IMDFArchive
    public let staff: [StaffMember]
    public let graph: WalkGraph
    public let router: WalkRouter
    public let search: PlaceSearch
    /// The venue's id: the campus its search entries belong to.
    public let campus: String
    public let levelIndex: [String: Int]
    private let staffById: [String: StaffMember]
    private let entryById: [String: PlaceSearch.Entry]
    private let staffUnit: [String: String]

    public init(archive: IMDFArchive, staff: [StaffMember], campus: String) {
        let graph = WalkGraphBuilder().build(archive)
        self.init(archive: archive, graph: graph, router: WalkRouter(graph: graph), staff: staff, campus: campus)
    }

    /// The same venue with another directory: the graph and its landmarks are kept.
    public func with(staff: [StaffMember]) -> VenueMap {
        VenueMap(archive: archive, graph: graph, router: router, staff: staff, campus: campus)
    }

    private init(archive: IMDFArchive, graph: WalkGraph, router: WalkRouter, staff: [StaffMember], campus: String) {
        self.archive = archive
        self.staff = staff
        self.campus = campus
        self.graph = graph
        self.router = router
        search = PlaceSearch(PlaceSearch.Entry.places(of: archive, campus: campus) + PlaceSearch.Entry.people(staff, campus: campus))
        levelIndex = Dictionary(graph.levels.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        staffById = Dictionary(staff.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        entryById = Dictionary(search.entries.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rooms = RoomIndex(archive)
        staffUnit = Dictionary(staff.compactMap { p in rooms.unit(of: p).map { (p.id, $0.id) } }, uniquingKeysWith: { a, _ in a })
    }

    public func person(_ id: String) -> StaffMember? { staffById[id] }
    /// A place search can find, by its id.
    public func place(_ id: String) -> PlaceSearch.Entry? { entryById[id] }
    /// The unit a person's office is in, when the directory's room is on the map.
    public func office(of personId: String) -> String? { staffUnit[personId] }

    /// Kinds of place a person asks for the nearest of.
    public enum Amenity: String, Sendable, CaseIterable, Codable {
        case restroom, elevator, stairs, entrance, bikeParking, evacuationPoint, ticketMachine, information

        func matches(_ category: String) -> Bool {
            switch self {
            case .restroom: IMDFCategories.isRestroom(category)
            case .elevator: category == "elevator"
            case .stairs: category == "stairs"
            case .entrance: false
            case .bikeParking: category == "parking.bicycle"
            case .evacuationPoint: category == "emergencyshelter" || category == "assemblypoint"
            case .ticketMachine: category == "ticketing" || category == "parkingmeter"
            case .information: category == "information"
            }
        }

        /// In words, for "the nearest …".
        public var words: String {
            switch self {
            case .restroom: "restroom"
            case .elevator: "elevator"
            case .stairs: "stairs"
            case .entrance: "entrance"
            case .bikeParking: "bike racks"
            case .evacuationPoint: "evacuation point"
            case .ticketMachine: "ticket machine"
            case .information: "information desk"
            }
        }
    }

    public enum Origin: Sendable, Hashable {
        /// A room, door, building, service, amenity or person (their office), by id.
        case place(String)
        /// A position; `level` is a level id, nil outdoors.
        case position(Coordinate, level: String?)
    }

    public enum Destination: Sendable, Hashable {
        case place(String)
        case nearest(Amenity)
    }

    public enum RouteError: Error, Sendable, Hashable {
        case unknownPlace(String)
        case unknownLevel(String)
        /// The place exists but nothing walkable leads to it (a person whose room is not on the
        /// map, a feature outside every unit).
        case notOnMap(String)
        case noneOfKind(Amenity)
        case noRoute
        /// A route exists, but only with stairs, steps or escalators.
        case noStepFreeRoute
    }

    /// The quickest walk; with `stepFree`, one without stairs, steps or escalators.
    public func route(from origin: Origin, to destination: Destination, stepFree: Bool) throws(RouteError) -> WalkRoute {
        let starts: [WalkRouter.Start]
        var startPoint: Coordinate?
        var outside = false
        switch origin {
        case .place(let id):
            starts = try nodes(for: id).map { WalkRouter.Start(node: $0) }
        case .position(let c, let levelId):
            var level: Int?
            if let levelId {
                guard let l = levelIndex[levelId] else { throw .unknownLevel(levelId) }
                level = l
            }
            starts = self.starts(near: c, level: level)
            startPoint = c
            outside = level == nil
        }
        let targets: Set<Int>
        var name: String?
        switch destination {
        case .place(let id):
            targets = try nodes(for: id)
            name = self.name(of: id)
        case .nearest(let kind):
            let places = self.places(of: kind)
            if places.isEmpty { throw .noneOfKind(kind) }
            targets = Set(places.keys)
            guard !starts.isEmpty else { throw .noRoute }
            if let path = router.route(from: starts, to: targets, stepFree: stepFree) {
                // The place asked for ("Bike racks by …"), not the unit it stands in.
                let found = path.nodes.last.flatMap { places[$0] } ?? nil
                return WalkRoute(path: path, graph: graph, startPoint: startPoint, startOutside: outside, destination: found)
            }
        }
        guard !starts.isEmpty else { throw .noRoute }
        if let path = router.route(from: starts, to: targets, stepFree: stepFree) {
            return WalkRoute(path: path, graph: graph, startPoint: startPoint, startOutside: outside, destination: name)
        }
        if stepFree, router.route(from: starts, to: targets, stepFree: false) != nil { throw .noStepFreeRoute }
        throw .noRoute
    }

    /// The nodes a place is reached at.
    public func nodes(for id: String) throws(RouteError) -> Set<Int> {
        if let member = staffById[id] {
            guard let unit = staffUnit[member.id], let node = graph.nodeByFeature[unit] else { throw .notOnMap(id) }
            return [node]
        }
        guard let feature = archive.feature(id) else { throw .unknownPlace(id) }
        var out = Set<Int>()
        switch feature.type {
        case .unit, .opening:
            if let n = graph.nodeByFeature[id] { out.insert(n) }
        case .building:
            if let n = graph.nodeByFeature[id] { out.insert(n) }
            if let b = graph.buildings.firstIndex(where: { $0.id == id }) {
                out.formUnion(graph.entrances.filter { graph.nodes[$0].building == b && graph.nodes[$0].level != nil })
            }
        case .occupant, .kiosk:
            // Both stand at an anchor, which names its unit.
            if let anchor = feature.reference("anchor_id").flatMap(archive.feature), let unit = anchor.reference("unit_id"),
               let n = graph.nodeByFeature[unit] { out.insert(n) }
        case .anchor:
            if let unit = feature.reference("unit_id"), let n = graph.nodeByFeature[unit] { out.insert(n) }
        case .amenity:
            out.formUnion(feature.references("unit_ids").compactMap { graph.nodeByFeature[$0] })
        default:
            break
        }
        if out.isEmpty { throw .notOnMap(id) }
        return out
    }

    /// Every place of a kind, by the node it is reached at, with its name: units of its
    /// category, and the units amenities of it stand in (named after the amenity).
    public func places(of kind: Amenity) -> [Int: String?] {
        if kind == .entrance {
            let doors = graph.entrances.filter { graph.nodes[$0].level.map { !graph.levels[$0].outdoor } ?? false }
            return Dictionary(doors.map { ($0, nil) }, uniquingKeysWith: { a, _ in a })
        }
        var out: [Int: String?] = [:]
        for u in graph.units where kind.matches(u.category) { out[u.node] = u.name }
        for a in archive.features(.amenity) where kind.matches(a.category ?? "") {
            for n in a.references("unit_ids").compactMap({ graph.nodeByFeature[$0] }) where out[n] == nil || a.name != nil {
                out[n] = a.name
            }
        }
        return out
    }

    /// What the last step calls a place: a person by name and room, a service by name.
    public func name(of id: String) -> String? {
        if let p = staffById[id] {
            let room = staffUnit[p.id].flatMap { archive.feature($0)?.name }
            return room.map { "\($0) (\(p.name))" } ?? p.name
        }
        guard let f = archive.feature(id) else { return nil }
        if f.type == .occupant, let name = f.name {
            let room = f.reference("anchor_id").flatMap(archive.feature)?.reference("unit_id").flatMap { archive.feature($0)?.name }
            return room.map { "\(name), \($0)" } ?? name
        }
        return f.name ?? f.altName
    }

    /// Where a place is drawn: a point, and the level and building it is on (none for a
    /// building itself or a place outdoors).
    public struct Location: Sendable, Hashable {
        public var position: Coordinate
        public var level: String?
        public var building: String?
    }

    public func location(of id: String) -> Location? {
        if let unit = staffUnit[id] { return location(of: unit) }
        guard let f = archive.feature(id) else { return nil }
        if f.type == .building {
            let point = f.displayPoint ?? graph.nodeByFeature[id].map(graph.coordinate(of:))
            return point.map { Location(position: $0, level: nil, building: id) }
        }
        guard let node = (try? nodes(for: id))?.min() else { return nil }
        var point = f.displayPoint ?? graph.coordinate(of: node)
        if case .point(let c)? = f.geometry { point = c }
        if f.type == .occupant, case .point(let c)? = f.reference("anchor_id").flatMap(archive.feature)?.geometry { point = c }
        let level = graph.nodes[node].level
        return Location(position: point, level: level.map { graph.levels[$0].id },
                        building: level.flatMap { graph.levels[$0].building }.map { graph.buildings[$0].id })
    }

    /// Where a walk from a position begins: the few nearest nodes on its level (outdoors, the
    /// nearest entrances and grounds), each reached in a straight line.
    public func starts(near c: Coordinate, level: Int?, count: Int = 4) -> [WalkRouter.Start] {
        let p = graph.projection.point(c)
        var scored: [(node: Int, d: Double)] = []
        for (i, n) in graph.nodes.enumerated() {
            let onLevel = level.map { n.level == $0 } ?? (n.isEntrance || n.level.map { graph.levels[$0].outdoor } ?? true)
            guard onLevel else { continue }
            scored.append((i, n.point.distance(to: p)))
        }
        scored.sort { $0.d < $1.d }
        let detour = level == nil ? WalkingPace.outdoorDetour : 1
        return scored.prefix(count).map { s in
            let metres = s.d * detour
            return WalkRouter.Start(node: s.node, seconds: metres / WalkingPace.metresPerSecond, metres: metres)
        }
    }
}
