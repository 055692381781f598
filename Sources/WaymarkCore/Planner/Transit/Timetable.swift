import Foundation

/// One service day of a `TransitFeed`, laid out for the journey planner (PLN-5): the day's trips
/// (frequencies expanded, and the previous day's trips still running after midnight) grouped
/// into patterns of trips that call at the same stops in the same order, let people on and off
/// at the same ones and never overtake one another, so the earliest trip to catch is found by
/// binary search and is the best one to catch; and the walks between
/// nearby stops. Times are seconds after the day's start (GTFS's "noon minus 12 hours").
public struct Timetable: Sendable {
    public let stops: [TransitFeed.Stop]
    public let routes: [String: TransitFeed.Route]
    let stopIndex: [String: Int]
    var patterns: [Pattern] = []
    /// For each stop, the patterns calling there and the stop's position in each.
    var patternsAt: [[(pattern: Int, position: Int)]]
    /// For each stop, the stops a transfer walk reaches and its seconds.
    var walks: [[(to: Int, seconds: Int)]]
    public let walking: Walking

    /// How people walk to, from and between stops.
    public struct Walking: Sendable, Hashable {
        /// Metres per second on the way, 1.3 (a usual pace, about 4.7 km/h).
        public var speed: Double
        /// Streets are not straight: the way is this much longer than the line.
        public var detour: Double
        /// Stops this close (in a straight line) count as a transfer on foot.
        public var transferRadius: Double

        public init(speed: Double = 1.3, detour: Double = 1.25, transferRadius: Double = 400) {
            self.speed = speed; self.detour = detour; self.transferRadius = transferRadius
        }

        public func seconds(_ metres: Double) -> Int { Int((metres * detour / speed).rounded(.up)) }
    }

    struct Pattern {
        var routeId: String
        var stops: [Int]
        var trips: [TripTimes]
    }

    struct TripTimes {
        var tripId: String
        var headsign: String?
        var arrivals: [Int]
        var departures: [Int]
        var boards: [Bool]
        var alights: [Bool]
    }

    public init(feed: TransitFeed, date: TransitFeed.ServiceDate, walking: Walking = Walking()) {
        self.walking = walking
        stops = feed.stops
        var index: [String: Int] = [:]
        for (i, s) in feed.stops.enumerated() { index[s.id] = i }
        stopIndex = index
        routes = Dictionary(feed.routes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        patternsAt = Array(repeating: [], count: feed.stops.count)
        walks = Array(repeating: [], count: feed.stops.count)

        // The day's trips, and yesterday's that run past midnight, moved a day earlier.
        let yesterday = Self.dayBefore(date)
        // Services are few and trips many: each service is looked up once per day.
        let services = Set(feed.trips.map(\.serviceId))
        let today = services.filter { feed.runs($0, on: date) }, before = services.filter { feed.runs($0, on: yesterday) }
        var running: [String: Int] = [:]  // trip id → shift in seconds
        for t in feed.trips where today.contains(t.serviceId) { running[t.id] = 0 }
        var lateYesterday: Set<String> = []
        for t in feed.trips where before.contains(t.serviceId) { lateYesterday.insert(t.id) }
        let byTrip = Dictionary(grouping: feed.stopTimes, by: \.tripId)
        let frequencies = Dictionary(grouping: feed.frequencies, by: \.tripId)
        let tripsById = Dictionary(feed.trips.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

        var grouped: [[Int]: [(routeId: String, times: TripTimes)]] = [:]
        func add(_ trip: TransitFeed.Trip, _ calls: [TransitFeed.StopTime], shift: Int, suffix: String) {
            let stopsOfTrip = calls.compactMap { index[$0.stopId] }
            guard stopsOfTrip.count == calls.count, calls.count > 1 else { return }
            let times = TripTimes(tripId: trip.id + suffix, headsign: trip.headsign,
                                  arrivals: calls.map { $0.arrival + shift }, departures: calls.map { $0.departure + shift },
                                  boards: calls.map { !$0.noPickup }, alights: calls.map { !$0.noDropOff })
            grouped[stopsOfTrip, default: []].append((trip.routeId, times))
        }
        func expand(_ trip: TransitFeed.Trip, shift: Int) {
            guard let calls = byTrip[trip.id]?.sorted(by: { $0.sequence < $1.sequence }), let first = calls.first else { return }
            if let windows = frequencies[trip.id] {
                // The trip's own times give the shape; each run starts at a headway step.
                for w in windows {
                    var start = w.start
                    while start < w.end {
                        let moved = calls.map { c in
                            var c = c
                            c.arrival += start - first.departure; c.departure += start - first.departure
                            return c
                        }
                        add(trip, moved, shift: shift, suffix: "@\(start)")
                        start += max(1, w.headway)
                    }
                }
            } else {
                add(trip, calls, shift: shift, suffix: "")
            }
        }
        for (id, shift) in running { if let t = tripsById[id] { expand(t, shift: shift) } }
        for id in lateYesterday {
            guard let t = tripsById[id], let calls = byTrip[id], let first = calls.map(\.departure).min(), let last = calls.map(\.arrival).max() else { continue }
            // A frequency window's last run ends its trip's length after the window's end.
            let end = frequencies[id].map { $0.map(\.end).max()! + last - first } ?? last
            if end >= 86_400 { expand(t, shift: -86_400) }
        }

        // Patterns: same stops, trips sorted by departure, split where a trip would overtake.
        for key in grouped.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let trips = grouped[key]!.sorted { ($0.times.departures[0], $0.times.tripId) < ($1.times.departures[0], $1.times.tripId) }
            var lanes: [Pattern] = []
            for (routeId, t) in trips {
                // Same boarding and alighting rules too: then the earliest trip caught is never
                // worse than a later one of the pattern.
                if let lane = lanes.firstIndex(where: { p in
                    p.routeId == routeId && p.trips.last!.boards == t.boards && p.trips.last!.alights == t.alights
                        && zip(p.trips.last!.arrivals, t.arrivals).allSatisfy { $0 <= $1 }
                        && zip(p.trips.last!.departures, t.departures).allSatisfy { $0 <= $1 }
                }) {
                    lanes[lane].trips.append(t)
                } else {
                    lanes.append(Pattern(routeId: routeId, stops: key, trips: [t]))
                }
            }
            for lane in lanes {
                let p = patterns.count
                patterns.append(lane)
                for (position, stop) in lane.stops.enumerated() { patternsAt[stop].append((p, position)) }
            }
        }

        // Walks between stops: the feed's transfers, and any two stops near each other.
        var forbidden: Set<[Int]> = []
        var given: [[Int]: Int] = [:]
        for t in feed.transfers {
            guard let a = index[t.fromStopId], let b = index[t.toStopId], a != b else { continue }
            if t.forbidden { forbidden.insert([a, b]) } else if let s = t.minimumSeconds { given[[a, b]] = s }
        }
        let grid = StopGrid(stops.map(\.position), cell: walking.transferRadius)
        for a in stops.indices {
            for b in grid.near(stops[a].position, within: walking.transferRadius) where b != a && !forbidden.contains([a, b]) {
                let seconds = given[[a, b]] ?? walking.seconds(Geo.distance(stops[a].position, stops[b].position))
                walks[a].append((b, seconds))
            }
        }
        for (pair, seconds) in given where !walks[pair[0]].contains(where: { $0.to == pair[1] }) { walks[pair[0]].append((pair[1], seconds)) }
    }

    static func dayBefore(_ d: TransitFeed.ServiceDate) -> TransitFeed.ServiceDate {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        let date = c.date(byAdding: .day, value: -1, to: c.date(from: DateComponents(year: d.year, month: d.month, day: d.day))!)!
        let parts = c.dateComponents([.year, .month, .day], from: date)
        return .init(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// The stops within `metres` of a point (in a straight line), nearest first.
    func stops(near point: Coordinate, within metres: Double) -> [(stop: Int, metres: Double)] {
        stops.indices.lazy.map { ($0, Geo.distance(point, self.stops[$0].position)) }.filter { $0.1 <= metres }.sorted { $0.1 < $1.1 }
    }

    public var patternCount: Int { patterns.count }
    public var tripCount: Int { patterns.reduce(0) { $0 + $1.trips.count } }
}

/// Stops in square cells of a given size, to find the ones near a point without looking at all.
struct StopGrid {
    private var cells: [Int64: [Int]] = [:]
    private let positions: [Coordinate]
    private let cellDegrees: Double

    init(_ positions: [Coordinate], cell metres: Double) {
        self.positions = positions
        cellDegrees = max(metres, 1) / 111_000
        for (i, p) in positions.enumerated() { cells[key(p), default: []].append(i) }
    }

    private func key(_ p: Coordinate) -> Int64 { key(Int64((p.latitude / cellDegrees).rounded(.down)), Int64((p.longitude / cellDegrees).rounded(.down))) }
    private func key(_ row: Int64, _ column: Int64) -> Int64 { row &* 1_000_003 &+ column }

    /// Indices of the positions within `metres` of `p`.
    func near(_ p: Coordinate, within metres: Double) -> [Int] {
        let row = Int64((p.latitude / cellDegrees).rounded(.down)), column = Int64((p.longitude / cellDegrees).rounded(.down))
        // A degree of longitude is shorter away from the equator: look that many more cells east and west.
        let wide = Int64((1 / max(cos(p.latitude * .pi / 180), 0.01)).rounded(.up))
        var out: [Int] = []
        for r in (row - 1)...(row + 1) {
            for c in (column - wide)...(column + wide) {
                for i in cells[key(r, c)] ?? [] where Geo.distance(p, positions[i]) <= metres { out.append(i) }
            }
        }
        return out
    }
}
