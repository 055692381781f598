import Foundation
import WaymarkCore

// Waymark's GTFS reader and RAPTOR planner on a city-sized feed, timed in-process (PLN-5).
//
//   transit-benchmark run --feed DIR --date YYYYMMDD [--queries 1000] [--seed 20261127] [--rides 6]
//                         [--reads 3] [--warmup 100] [--json FILE]
//   transit-benchmark milan --out DIR [--from YYYYMMDD] [--to YYYYMMDD]   (when the core has MilanTransit)
//
// `run` reads the feed's files with `GTFSReader` (timed, rows per second), lays out the day's
// `Timetable` (timed) and asks random earliest-arrival queries between the feed's stations at
// random times of the day, two ways:
//
// - by the reference's rules (`sameRules`), to compare arrival times with pyraptor query by
//   query: from a station to a station, every platform of the origin boarded at the time asked,
//   a change of platform within a station two minutes, no walks between stations;
// - as the app plans: from a point up to 250 m from the origin station to one near the
//   destination, the planner's own walking (to and from stops within 1 km, transfers on foot
//   within 400 m, the feed's transfers) and `JourneyQuery`'s default of 5 rides.
//
// It prints both sides' per-query times (p50, p90, p99, max) and writes the queries and
// Waymark's answers as JSON for the reference (`reference.py`) to answer the same.

@main
struct TransitBenchmark {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let command = arguments.isEmpty ? "" : arguments.removeFirst()
        let options = Options(arguments)
        switch command {
        case "run":
            try run(options)
        case "milan":
            try milan(options)
        default:
            print("usage: transit-benchmark run --feed DIR --date YYYYMMDD [--queries N] [--seed N] [--rides N] [--reads N] [--warmup N] [--json FILE]")
            print("       transit-benchmark milan --out DIR [--from YYYYMMDD] [--to YYYYMMDD]")
            exit(2)
        }
    }

    // MARK: run

    static func run(_ o: Options) throws {
        guard let folder = o.string("--feed"), let date = o.date("--date") else {
            fail("run needs --feed DIR and --date YYYYMMDD")
        }
        let queryCount = o.int("--queries", 1_000), seed = UInt64(o.int("--seed", 20_261_127))
        let rides = o.int("--rides", 6), reads = max(1, o.int("--reads", 3)), warmup = o.int("--warmup", 100)
        let clock = ContinuousClock()

        // The files, from disk (not timed against the reader).
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".txt") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
        let rows = files.values.reduce(0) { $0 + dataRows($1) }
        let bytes = files.values.reduce(0) { $0 + $1.count }
        let stopTimeRows = files["stop_times.txt"].map(dataRows) ?? 0

        // The reader, `reads` times; the median counts.
        var readTimes: [Double] = []
        var read: (feed: TransitFeed?, problems: [GTFSReader.Problem]) = (nil, [])
        for _ in 0..<reads {
            let started = clock.now
            read = GTFSReader.read(files: files)
            readTimes.append(seconds(clock.now - started))
        }
        guard let feed = read.feed else {
            fail("the feed was refused:\n" + read.problems.prefix(20).map(\.description).joined(separator: "\n"))
        }
        let readSeconds = median(readTimes)
        let warnings = read.problems.filter { $0.severity == .warning }.count
        print(String(format: "feed: %@ — %d stops, %d routes, %d trips, %d stop times; %.1f MB in %d files, %d rows",
                     folder, feed.stops.count, feed.routes.count, feed.trips.count, feed.stopTimes.count, Double(bytes) / 1e6, files.count, rows))
        print(String(format: "GTFSReader.read: %.2f s (median of %d: %@), %.0f rows/s, %.0f stop_times rows/s; %d warnings",
                     readSeconds, reads, readTimes.map { String(format: "%.2f", $0) }.joined(separator: ", "),
                     Double(rows) / readSeconds, Double(stopTimeRows) / readSeconds, warnings))

        // The day's timetables.
        var started = clock.now
        let app = Timetable(feed: feed, date: date)
        let appBuild = seconds(clock.now - started)
        let comparable = sameRules(feed)
        started = clock.now
        let same = Timetable(feed: comparable, date: date, walking: .init(transferRadius: 0))
        let sameBuild = seconds(clock.now - started)
        print(String(format: "Timetable(feed:date:) for %@: %.2f s (%d patterns, %d trips); with the reference's rules: %.2f s",
                     date.description, appBuild, app.patternCount, app.tripCount, sameBuild))

        // The queries: stations with a call on the day, random pairs, random times from 05:30 to 23:00.
        let places = stations(feed, date: date)
        guard places.count >= 2 else { fail("the feed has fewer than two stations served on \(date)") }
        var rng = SplitMix64(seed: seed)
        var queries: [Query] = []
        for id in 0..<queryCount {
            let a = Int.random(in: 0..<places.count, using: &rng)
            var b = Int.random(in: 0..<(places.count - 1), using: &rng)
            if b >= a { b += 1 }
            let departure = Int.random(in: (5 * 3600 + 1800)..<(23 * 3600), using: &rng)
            func near(_ p: Coordinate) -> Coordinate {
                let r = Double.random(in: 0...250, using: &rng), bearing = Double.random(in: 0..<(2 * .pi), using: &rng)
                return Geo.offset(p, east: r * cos(bearing), north: r * sin(bearing))
            }
            queries.append(Query(id: id, origin: places[a].id, destination: places[b].id, departure: departure,
                                 from: places[a].position, to: places[b].position, nearFrom: near(places[a].position), nearTo: near(places[b].position)))
        }
        func sameQuery(_ q: Query) -> JourneyQuery {
            JourneyQuery(from: q.from, to: q.to, departure: q.departure, maximumWalk: 0, maximumRides: rides)
        }
        func appQuery(_ q: Query) -> JourneyQuery { JourneyQuery(from: q.nearFrom, to: q.nearTo, departure: q.departure) }

        for q in queries.prefix(warmup) {
            _ = same.earliestArrival(sameQuery(q))
            _ = app.earliestArrival(appQuery(q))
        }
        var answers: [Answer] = []
        for q in queries {
            let s = sameQuery(q), a = appQuery(q)
            started = clock.now
            let journey = same.earliestArrival(s)
            let sameMs = seconds(clock.now - started) * 1000
            started = clock.now
            let appJourney = app.earliestArrival(a)
            let appMs = seconds(clock.now - started) * 1000
            let legs: [String] = journey?.legs.compactMap { leg in
                guard case .ride(let r) = leg else { return nil }
                return "\(r.route.name) \(r.from.parentStation ?? r.from.id)→\(r.to.parentStation ?? r.to.id) \(r.departure)-\(r.arrival)"
            } ?? []
            answers.append(Answer(id: q.id, origin: q.origin, destination: q.destination, departure: q.departure,
                                  arrival: journey?.arrival, rides: journey.map { _ in legs.count }, legs: legs, ms: sameMs,
                                  appArrival: appJourney?.arrival, appRides: appJourney.map { $0.legs.filter(\.isRide).count }, appMs: appMs))
        }

        let sameTimes = answers.map(\.ms), appTimes = answers.map(\.appMs)
        print(String(format: "%d queries (seed %llu, %d warm-up), %d stations", queries.count, seed, min(warmup, queries.count), places.count))
        print(summary("Waymark, the reference's rules (station to station, ≤ \(rides) rides)", sameTimes)
              + String(format: "; %d reached", answers.filter { $0.arrival != nil }.count))
        print(summary("Waymark, as the app plans (points near stations, walking, ≤ 5 rides)", appTimes)
              + String(format: "; %d reached", answers.filter { $0.appArrival != nil }.count))

        if let path = o.string("--json") {
            let report = Report(feed: folder, date: date.description, seed: seed, rides: rides, warmup: min(warmup, queries.count),
                                counts: .init(stops: feed.stops.count, stations: places.count, routes: feed.routes.count, trips: feed.trips.count,
                                              stopTimes: feed.stopTimes.count, patterns: app.patternCount, dayTrips: app.tripCount),
                                read: .init(seconds: readTimes, rows: rows, stopTimeRows: stopTimeRows, bytes: bytes, warnings: warnings),
                                timetable: .init(appSeconds: appBuild, sameRulesSeconds: sameBuild),
                                queries: answers)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: path))
            print("wrote \(path)")
        }
    }

    /// The feed as pyraptor models it, for Waymark's planner: a station's platforms at the
    /// station's own point (so a walk of 0 m reaches all of them, and none of another station),
    /// and a change between two of its platforms two minutes, whatever the feed says. With a
    /// transfer radius of 0 and walks of at most 0 m to and from stops, those changes are the
    /// only walks: the same rules as pyraptor's (TRANSFER_COST, transfers within a station only).
    static func sameRules(_ feed: TransitFeed) -> TransitFeed {
        var out = feed
        let position = Dictionary(feed.stops.map { ($0.id, $0.position) }, uniquingKeysWith: { a, _ in a })
        var platforms: [String: [String]] = [:]
        for (i, stop) in feed.stops.enumerated() {
            guard let parent = stop.parentStation, let at = position[parent] else { continue }
            out.stops[i].position = at
            platforms[parent, default: []].append(stop.id)
        }
        out.transfers = []
        for station in platforms.keys.sorted() {
            let ids = platforms[station]!
            for a in ids {
                for b in ids where b != a { out.transfers.append(.init(fromStopId: a, toStopId: b, minimumSeconds: 120)) }
            }
        }
        return out
    }

    struct Place { var id: String; var position: Coordinate }

    /// The stations that a trip running on the day calls at (a stop without a station is its own),
    /// in id order, at the station's point.
    static func stations(_ feed: TransitFeed, date: TransitFeed.ServiceDate) -> [Place] {
        let running = Set(Set(feed.trips.map(\.serviceId)).filter { feed.runs($0, on: date) })
        let trips = Set(feed.trips.filter { running.contains($0.serviceId) }.map(\.id))
        let called = Set(feed.stopTimes.lazy.filter { trips.contains($0.tripId) }.map(\.stopId))
        let byId = Dictionary(feed.stops.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var places: [String: Coordinate] = [:]
        for id in called {
            guard let stop = byId[id] else { continue }
            let station = stop.parentStation.flatMap { byId[$0] } ?? stop
            places[station.id] = station.position
        }
        return places.keys.sorted().map { Place(id: $0, position: places[$0]!) }
    }

    // MARK: milan

    static func milan(_ o: Options) throws {
        guard let out = o.string("--out") else { fail("milan needs --out DIR") }
        let from = o.date("--from") ?? .init(year: 2026, month: 1, day: 1), to = o.date("--to") ?? .init(year: 2026, month: 12, day: 31)
        let files = MilanTransit.files(validFrom: from, validTo: to)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: URL(fileURLWithPath: out).appendingPathComponent(name)) }
        print("wrote the demo Milan feed (\(files.count) files, valid \(from) to \(to)) to \(out)")
    }

    // MARK: Figures

    static func summary(_ name: String, _ ms: [Double]) -> String {
        String(format: "%@: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, mean %.2f ms", name,
               percentile(ms, 0.5), percentile(ms, 0.9), percentile(ms, 0.99), ms.max() ?? 0, ms.reduce(0, +) / Double(max(1, ms.count)))
    }

    static func percentile(_ xs: [Double], _ p: Double) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? .nan : s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    static func median(_ xs: [Double]) -> Double { percentile(xs, 0.5) }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

    /// Data rows of a CSV file: its lines, less the header (a last line without its line break counts).
    static func dataRows(_ data: Data) -> Int {
        var lines = 0
        data.withUnsafeBytes { (b: UnsafeRawBufferPointer) in
            for byte in b where byte == 0x0A { lines += 1 }
        }
        if let last = data.last, last != 0x0A { lines += 1 }
        return max(0, lines - 1)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(("transit-benchmark: " + message + "\n").utf8))
        exit(1)
    }
}

// MARK: - Types

struct Options {
    let arguments: [String]
    init(_ arguments: [String]) { self.arguments = arguments }

    func string(_ name: String) -> String? {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
        return arguments[i + 1]
    }

    func int(_ name: String, _ fallback: Int) -> Int { string(name).flatMap { Int($0) } ?? fallback }

    func date(_ name: String) -> TransitFeed.ServiceDate? {
        guard let text = string(name), text.count == 8, let n = Int(text) else { return nil }
        return .init(year: n / 10_000, month: n / 100 % 100, day: n % 100)
    }
}

struct Query {
    var id: Int
    var origin: String
    var destination: String
    var departure: Int
    var from: Coordinate
    var to: Coordinate
    var nearFrom: Coordinate
    var nearTo: Coordinate
}

struct Answer: Codable {
    var id: Int
    var origin: String
    var destination: String
    /// Seconds after the service day's start.
    var departure: Int
    /// By the reference's rules: the earliest arrival (nil: not reached), its rides and the time it took.
    var arrival: Int?
    var rides: Int?
    var legs: [String]
    var ms: Double
    /// As the app plans, from and to points near the stations.
    var appArrival: Int?
    var appRides: Int?
    var appMs: Double
}

struct Report: Codable {
    struct Counts: Codable { var stops, stations, routes, trips, stopTimes, patterns, dayTrips: Int }
    struct Read: Codable { var seconds: [Double]; var rows, stopTimeRows, bytes, warnings: Int }
    struct Build: Codable { var appSeconds, sameRulesSeconds: Double }
    var feed: String
    var date: String
    var seed: UInt64
    var rides: Int
    var warmup: Int
    var counts: Counts
    var read: Read
    var timetable: Build
    var queries: [Answer]
}

/// A small seeded generator (SplitMix64), so that a seed gives the same queries on every machine.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
