import Foundation
import Testing
import WaymarkCore

@Suite("Transit journeys (RAPTOR)")
struct RaptorTests {
    static let day = TransitFeed.ServiceDate(year: 2026, month: 11, day: 26)

    /// A small random network in a 3 km square: stops, routes through some of them, and trips
    /// at vehicle speed with a stop's dwell, some stops letting nobody on or off.
    static func randomFeed(seed: UInt64, stops: Int = 24, routes: Int = 7) -> TransitFeed {
        var rng = SplitMix64(seed: seed)
        let origin = Coordinate(latitude: 45.46, longitude: 9.19)
        var feed = TransitFeed()
        feed.agencies = [.init(id: "A", name: "Test", url: "https://example.org", timeZone: "Europe/Rome")]
        feed.calendars = [.init(serviceId: "ALL", weekdays: Set(1...7), start: .init(year: 2026, month: 1, day: 1), end: .init(year: 2026, month: 12, day: 31))]
        feed.stops = (0..<stops).map { i in
            .init(id: "S\(i)", name: "Stop \(i)", position: Geo.offset(origin, east: Double.random(in: 0...3000, using: &rng), north: Double.random(in: 0...3000, using: &rng)))
        }
        for r in 0..<routes {
            feed.routes.append(.init(id: "R\(r)", shortName: "\(r + 1)", longName: "Line \(r + 1)", mode: .bus))
            let calls = Array((0..<stops).shuffled(using: &rng).prefix(Int(Double.random(in: 3...8, using: &rng))))
            for trip in 0..<Int(Double.random(in: 2...6, using: &rng)) {
                let id = "R\(r)-\(trip)"
                feed.trips.append(.init(id: id, routeId: "R\(r)", serviceId: "ALL", headsign: "Stop \(calls.last!)"))
                var time = 7 * 3600 + Int(Double.random(in: 0...7200, using: &rng))
                for (n, s) in calls.enumerated() {
                    if n > 0 { time += Int(Geo.distance(feed.stops[calls[n - 1]].position, feed.stops[s].position) / Double.random(in: 5...10, using: &rng)) + 20 }
                    feed.stopTimes.append(.init(tripId: id, sequence: n + 1, stopId: "S\(s)", arrival: time, departure: time + 20,
                                                noPickup: Double.random(in: 0...1, using: &rng) < 0.1, noDropOff: Double.random(in: 0...1, using: &rng) < 0.1))
                    time += 20
                }
            }
        }
        return feed
    }

    /// The earliest arrival by the Connection Scan Algorithm over every ride of the day, with
    /// the same walking rules: to the first stop and from the last within the limit, and one
    /// walk to a stop within the transfer radius after each ride. Rides are not counted.
    static func bruteForce(_ feed: TransitFeed, _ q: JourneyQuery, walking w: Timetable.Walking = .init()) -> Int {
        struct Connection { var trip: String; var from: Int; var to: Int; var departure: Int; var arrival: Int; var boards: Bool; var alights: Bool }
        let index = Dictionary(uniqueKeysWithValues: feed.stops.enumerated().map { ($1.id, $0) })
        var connections: [Connection] = []
        for (trip, calls) in Dictionary(grouping: feed.stopTimes, by: \.tripId) {
            let sorted = calls.sorted { $0.sequence < $1.sequence }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                connections.append(.init(trip: trip, from: index[a.stopId]!, to: index[b.stopId]!, departure: a.departure, arrival: b.arrival,
                                         boards: !a.noPickup, alights: !b.noDropOff))
            }
        }
        connections.sort { $0.departure < $1.departure }
        let n = feed.stops.count
        var any = Array(repeating: Int.max, count: n), ride = Array(repeating: Int.max, count: n)
        for s in 0..<n {
            let m = Geo.distance(q.from, feed.stops[s].position)
            if m <= q.maximumWalk { any[s] = q.departure + w.seconds(m) }
        }
        // A trip is ridden from where it was first boarded: whether it may be left at a stop
        // depends on that stop, whether it may be boarded on the stop the ride starts from.
        var onTrip = Set<String>()
        for c in connections {
            if !onTrip.contains(c.trip), c.boards, any[c.from] <= c.departure { onTrip.insert(c.trip) }
            guard onTrip.contains(c.trip), c.alights, c.arrival < ride[c.to] else { continue }
            ride[c.to] = c.arrival
            any[c.to] = min(any[c.to], c.arrival)
            for s in 0..<n where s != c.to {
                let m = Geo.distance(feed.stops[c.to].position, feed.stops[s].position)
                if m <= w.transferRadius { any[s] = min(any[s], c.arrival + w.seconds(m)) }
            }
        }
        var best = Geo.distance(q.from, q.to) <= q.maximumWalk ? q.departure + w.seconds(Geo.distance(q.from, q.to)) : Int.max
        // The last walk starts where a ride ended: two walks in a row would be one shorter walk.
        for s in 0..<n where ride[s] != Int.max {
            let m = Geo.distance(feed.stops[s].position, q.to)
            if m <= q.maximumWalk { best = min(best, ride[s] + w.seconds(m)) }
        }
        return best
    }

    @Test("PLN-5 the earliest arrival is the brute-force one on random networks; the journeys trade rides for time and hang together")
    func pln5AgainstBruteForce() throws {
        var compared = 0, reachedByRide = 0
        for seed in UInt64(1)...40 {
            let feed = Self.randomFeed(seed: seed)
            let timetable = Timetable(feed: feed, date: Self.day)
            var rng = SplitMix64(seed: seed &* 7919)
            for _ in 0..<15 {
                let from = feed.stops[Int.random(in: 0..<feed.stops.count, using: &rng)].position
                let to = feed.stops[Int.random(in: 0..<feed.stops.count, using: &rng)].position
                let q = JourneyQuery(from: Geo.offset(from, east: 60, north: 0), to: Geo.offset(to, east: 0, north: 80),
                                     departure: 7 * 3600 + Int(Double.random(in: 0...5400, using: &rng)), maximumWalk: 600, maximumRides: 12)
                let expected = Self.bruteForce(feed, q)
                let journeys = timetable.journeys(q)
                #expect((journeys.last?.arrival ?? Int.max) == expected, "seed \(seed): \(journeys.map { $0.arrival }) vs \(expected)")
                compared += 1
                if journeys.last?.legs.contains { $0.isRide } == true { reachedByRide += 1 }
                // Fewer rides come first, each later journey arriving strictly earlier.
                for (a, b) in zip(journeys, journeys.dropFirst()) { #expect(a.legs.filter { $0.isRide }.count < b.legs.filter { $0.isRide }.count && a.arrival > b.arrival) }
                for j in journeys { Self.checkConsistent(j, q) }
            }
        }
        #expect(compared == 600 && reachedByRide > 100, "the random networks must make rides worth taking: \(reachedByRide)")
    }

    @Test("PLN-7 the latest departure arriving by a deadline is the one a minute-by-minute search finds")
    func pln7LatestDeparture() throws {
        var found = 0
        for seed in UInt64(1)...12 {
            let feed = Self.randomFeed(seed: seed)
            let timetable = Timetable(feed: feed, date: Self.day)
            var rng = SplitMix64(seed: seed &* 104_729)
            for _ in 0..<8 {
                let from = feed.stops[Int.random(in: 0..<feed.stops.count, using: &rng)].position
                let to = feed.stops[Int.random(in: 0..<feed.stops.count, using: &rng)].position
                let a = Geo.offset(from, east: 60, north: 0), b = Geo.offset(to, east: 0, north: 80)
                let deadline = 8 * 3600 + Int(Double.random(in: 0...3600, using: &rng)), earliest = 7 * 3600
                // Every departure minute: the last journey that still makes it.
                var expected: Int?
                for leave in stride(from: earliest, through: deadline, by: 60) {
                    let q = JourneyQuery(from: a, to: b, departure: leave, maximumWalk: 600)
                    if let j = timetable.earliestArrival(q), j.arrival <= deadline, j.legs.contains(where: \.isRide) {
                        expected = max(expected ?? 0, j.departure)
                    }
                }
                let j = timetable.latestDeparture(from: a, to: b, arrivingBy: deadline, earliest: earliest, maximumWalk: 600)
                if let j, j.legs.contains(where: \.isRide) {
                    found += 1
                    #expect(j.arrival <= deadline)
                    // The minute grid may miss the exact second of a later departure, never find a later one.
                    #expect(j.departure >= (expected ?? 0) && j.departure < (expected ?? 0) + 60, "seed \(seed): \(j.departure) vs \(String(describing: expected))")
                } else if let j {
                    #expect(j.arrival == deadline, "a walk leaves just in time")
                } else {
                    #expect(expected == nil)
                }
            }
        }
        #expect(found > 20, "the cases must include rides: \(found)")
    }

    /// Legs follow each other in time and place, a walk never follows a walk, and each ride runs forward.
    static func checkConsistent(_ j: Journey, _ q: JourneyQuery) {
        #expect(j.departure >= q.departure && j.legs.first?.departure == j.departure)
        #expect(j.legs.last?.arrival == j.arrival)
        // Set off as late as still catches the first ride: no wait before it.
        if let first = j.legs.firstIndex(where: \.isRide) {
            #expect((first == 0 ? j.departure : j.legs[first - 1].arrival) == j.legs[first].departure)
        } else {
            #expect(j.departure == q.departure)
        }
        for (a, b) in zip(j.legs, j.legs.dropFirst()) {
            #expect(a.arrival <= b.departure, "\(a) then \(b)")
            if case .walk = a, case .walk = b { Issue.record("two walks in a row: \(j.legs)") }
            if case .ride(let r) = a, case .ride(let s) = b { #expect(r.to.id == s.from.id, "a ride starts where the last ended") }
            if case .ride(let r) = a, case .walk(let w) = b { #expect(w.from?.id == r.to.id) }
            if case .walk(let w) = a, case .ride(let r) = b { #expect(w.to?.id == r.from.id) }
        }
        for case .ride(let r) in j.legs { #expect(r.departure < r.arrival && r.stopCount >= 1) }
    }

    @Test("PLN-5 a trip repeated by frequencies runs every headway; yesterday's trips after midnight run today before dawn; a day without service has no rides")
    func pln5FrequenciesAndMidnight() throws {
        let a = Coordinate(latitude: 45.46, longitude: 9.19), b = Geo.offset(a, east: 3000, north: 0)
        var feed = TransitFeed(stops: [.init(id: "A", name: "Alpha", position: a), .init(id: "B", name: "Beta", position: b)],
                               routes: [.init(id: "M", shortName: "M9", longName: "Metro 9", mode: .metro)],
                               trips: [.init(id: "T", routeId: "M", serviceId: "WD", headsign: "Beta"), .init(id: "N", routeId: "M", serviceId: "WD", headsign: "Beta")],
                               stopTimes: [.init(tripId: "T", sequence: 1, stopId: "A", arrival: 6 * 3600, departure: 6 * 3600),
                                           .init(tripId: "T", sequence: 2, stopId: "B", arrival: 6 * 3600 + 300, departure: 6 * 3600 + 300),
                                           .init(tripId: "N", sequence: 1, stopId: "A", arrival: 25 * 3600, departure: 25 * 3600),
                                           .init(tripId: "N", sequence: 2, stopId: "B", arrival: 25 * 3600 + 300, departure: 25 * 3600 + 300)],
                               calendars: [.init(serviceId: "WD", weekdays: Set(1...5), start: .init(year: 2026, month: 1, day: 1), end: .init(year: 2026, month: 12, day: 31))],
                               frequencies: [.init(tripId: "T", start: 6 * 3600, end: 8 * 3600, headway: 600)])
        feed.calendarDates = [.init(serviceId: "WD", date: .init(year: 2026, month: 11, day: 27), added: false)]
        let thursday = Timetable(feed: feed, date: Self.day)
        let q = JourneyQuery(from: a, to: b, departure: 7 * 3600 + 1, maximumWalk: 200)
        let ride = try #require(thursday.earliestArrival(q)?.legs.compactMap { if case .ride(let r) = $0 { r } else { nil } }.first)
        #expect(ride.departure == 7 * 3600 + 600 && ride.arrival == 7 * 3600 + 900 && ride.route.name == "M9" && ride.from.name == "Alpha")
        #expect(thursday.tripCount == 12 + 2, "12 runs from 6:00 to 7:50, Wednesday's trip at 1:00 and Thursday's own at 25:00")
        let early = try #require(thursday.earliestArrival(JourneyQuery(from: a, to: b, departure: 1800, maximumWalk: 200)))
        #expect(early.arrival == 3600 + 300, "Wednesday's trip leaves at 25:00, 1:00 on Thursday")
        // Friday the 27th is a holiday (removed), and on Saturday the service does not run.
        let friday = Timetable(feed: feed, date: .init(year: 2026, month: 11, day: 27))
        #expect(friday.earliestArrival(q) == nil && friday.tripCount == 1, "only Thursday's trip after midnight")
        let saturday = Timetable(feed: feed, date: .init(year: 2026, month: 11, day: 28))
        #expect(saturday.tripCount == 0)
    }

    @Test("PLN-5 a frequency window that runs past midnight still runs the next morning; a timed change of platform stays a leg")
    func pln5FrequencyPastMidnightAndPlatformChange() throws {
        let a = Coordinate(latitude: 45.46, longitude: 9.19), b = Geo.offset(a, east: 3000, north: 0)
        let b2 = Geo.offset(b, east: 0, north: 0.5), c = Geo.offset(b, east: 3000, north: 0)
        var feed = TransitFeed(stops: [.init(id: "A", name: "Alpha", position: a), .init(id: "B1", name: "Beta M1", position: b),
                                       .init(id: "B2", name: "Beta M2", position: b2), .init(id: "C", name: "Gamma", position: c)],
                               routes: [.init(id: "M1", shortName: "M1", longName: "", mode: .metro), .init(id: "M2", shortName: "M2", longName: "", mode: .metro)],
                               trips: [.init(id: "L", routeId: "M1", serviceId: "ALL"), .init(id: "K", routeId: "M2", serviceId: "ALL")],
                               stopTimes: [.init(tripId: "L", sequence: 1, stopId: "A", arrival: 0, departure: 0),
                                           .init(tripId: "L", sequence: 2, stopId: "B1", arrival: 300, departure: 300),
                                           .init(tripId: "K", sequence: 1, stopId: "B2", arrival: 0, departure: 0),
                                           .init(tripId: "K", sequence: 2, stopId: "C", arrival: 300, departure: 300)],
                               calendars: [.init(serviceId: "ALL", weekdays: Set(1...7), start: .init(year: 2026, month: 1, day: 1), end: .init(year: 2026, month: 12, day: 31))],
                               frequencies: [.init(tripId: "L", start: 23 * 3600 + 1800, end: 24 * 3600 + 2700, headway: 1800),
                                             .init(tripId: "K", start: 5 * 3600, end: 26 * 3600, headway: 600)])
        feed.transfers = [.init(fromStopId: "B1", toStopId: "B2", minimumSeconds: 240)]
        let thursday = Timetable(feed: feed, date: Self.day)
        // Wednesday's window runs 23:30, 24:00 and 24:30: the last is Thursday's 00:30.
        let q = JourneyQuery(from: a, to: c, departure: 600, maximumWalk: 100)
        let j = try #require(thursday.earliestArrival(q))
        let rides = j.legs.compactMap { if case .ride(let r) = $0 { r } else { nil } }
        #expect(rides.map(\.route.name) == ["M1", "M2"] && rides.first?.departure == 1800)
        // Four minutes to change platforms, shown as a walk of its own although they are half a metre apart.
        let change = j.legs.compactMap { if case .walk(let w) = $0, w.from != nil, w.to != nil { w } else { nil } }.first
        #expect(change?.from?.id == "B1" && change?.to?.id == "B2" && change.map { $0.arrival - $0.departure } == 240)
        #expect(rides.last?.departure == 2400, "the 00:40 M2, the first after the change")
        Self.checkConsistent(j, q)
    }

    @Test("PLN-5 on the GTFS reference's sample feed, the shuttle to the airport runs every half hour on the day asked")
    func pln5SampleFeed() throws {
        let feed = try #require(GTFSReader.read(files: try GTFSReaderTests.sampleFeed()).feed)
        let stop = { (id: String) in feed.stops.first { $0.id == id }!.position }
        let monday = Timetable(feed: feed, date: .init(year: 2008, month: 6, day: 2))
        let q = JourneyQuery(from: stop("STAGECOACH"), to: stop("BEATTY_AIRPORT"), departure: 6 * 3600 + 600, maximumWalk: 300)
        let journey = try #require(monday.earliestArrival(q))
        let ride = try #require(journey.legs.compactMap { if case .ride(let r) = $0 { r } else { nil } }.first)
        #expect(ride.departure == 6 * 3600 + 1800 && ride.arrival == 6 * 3600 + 3000 && ride.from.name.hasPrefix("Stagecoach") && ride.to.id == "BEATTY_AIRPORT")
        #expect(journey.arrival == ride.arrival, "no walk at either end: the stops are the places")
        // The feed's service ended in 2010.
        #expect(Timetable(feed: feed, date: .init(year: 2011, month: 6, day: 6)).earliestArrival(q) == nil)
    }
}
