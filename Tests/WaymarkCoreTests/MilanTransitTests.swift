import Foundation
import Testing
import WaymarkCore

/// PLN-5: the demo's generated GTFS feed for Milan reads cleanly and plans real-looking journeys.
@Suite("Planner: the Milan demo transit feed (PLN-5)")
struct MilanTransitTests {
    static let from = TransitFeed.ServiceDate(year: 2026, month: 1, day: 1)
    static let to = TransitFeed.ServiceDate(year: 2026, month: 12, day: 31)
    static let files = MilanTransit.files(validFrom: from, validTo: to)
    static let feed = MilanTransit.feed(validFrom: from, validTo: to)

    static let tuesday = TransitFeed.ServiceDate(year: 2026, month: 3, day: 10)
    static let saturday = TransitFeed.ServiceDate(year: 2026, month: 3, day: 14)
    static let sunday = TransitFeed.ServiceDate(year: 2026, month: 3, day: 15)

    static func rides(_ j: Journey) -> [Journey.Ride] { j.legs.compactMap { if case .ride(let r) = $0 { r } else { nil } } }

    @Test("PLN-5: the generated Milan feed reads without a single problem, every file of it")
    func pln5MilanFeedReadsWithoutProblems() throws {
        let read = GTFSReader.read(files: Self.files)
        #expect(read.problems.isEmpty, "\(read.problems.prefix(10))")
        let feed = try #require(read.feed)
        #expect(Set(Self.files.keys) == ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
                                         "calendar_dates.txt", "frequencies.txt", "transfers.txt", "feed_info.txt"])
        #expect(feed.agencies.count == 2 && feed.agencies.allSatisfy { $0.timeZone == "Europe/Rome" && $0.name.contains("demo") })
        let route = { (name: String) in feed.routes.first { $0.name == name } }
        #expect(route("M1")?.mode == .metro && route("M1")?.colour == "E3001B")
        #expect(route("M2")?.mode == .metro && route("M2")?.colour == "00A04F")
        #expect(route("M3")?.mode == .metro && route("33")?.mode == .tram && route("19")?.mode == .tram)
        #expect(route("92")?.mode == .bus && route("S3")?.mode == .rail && route("S1")?.mode == .rail)
        // Both ways of writing a timetable are there: trips written out, and frequencies with exact times and without.
        #expect(feed.frequencies.contains { $0.exactTimes } && feed.frequencies.contains { !$0.exactTimes })
        let repeated = Set(feed.frequencies.map(\.tripId))
        #expect(feed.trips.filter { !repeated.contains($0.id) }.count > 1_000)
        #expect(feed.stopTimes.count < 250_000 && feed.stopTimes.count > 10_000)
        // Interchanges are stations with a platform per line.
        #expect(feed.stops.filter { $0.parentStation == "MM_LORETO" }.count == 2)
        // Bus 92 gives times at its main stops only (timepoint 0 elsewhere); the reader times the rest by distance.
        let text = String(decoding: try #require(Self.files["stop_times.txt"]), as: UTF8.self)
        #expect(text.split(separator: "\n").filter { $0.hasSuffix(",,,SF_COSENZ,3,0") }.count == 3, "bus 92's outbound trip of each day type leaves Via Durando / Via Cosenz untimed")
        for trip in feed.trips where trip.routeId == "B92" {
            let calls = feed.stopTimes.filter { $0.tripId == trip.id }
            #expect(calls.count == 7 && zip(calls, calls.dropFirst()).allSatisfy { $0.departure < $1.arrival }, "\(trip.id)")
        }
        // WAYMARK_WRITE_MILAN_GTFS=<folder> writes the files out, for checking them with other GTFS tools.
        if let folder = ProcessInfo.processInfo.environment["WAYMARK_WRITE_MILAN_GTFS"], !folder.isEmpty {
            let url = URL(fileURLWithPath: folder, isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, data) in Self.files { try data.write(to: url.appendingPathComponent(name)) }
        }
    }

    @Test("PLN-5: the same dates give the same bytes; other dates change only the calendar and the feed's dates")
    func pln5MilanFeedIsDeterministic() {
        let again = MilanTransit.files(validFrom: Self.from, validTo: Self.to)
        #expect(again == Self.files)
        let other = MilanTransit.files(validFrom: .init(year: 2027, month: 9, day: 1), validTo: .init(year: 2027, month: 10, day: 31))
        #expect(other["stop_times.txt"] == Self.files["stop_times.txt"] && other["stops.txt"] == Self.files["stops.txt"])
        #expect(other["calendar.txt"] != Self.files["calendar.txt"] && other["feed_info.txt"] != Self.files["feed_info.txt"])
        #expect(other["calendar_dates.txt"] == nil, "no public holiday in September and October")
    }

    @Test("PLN-5: the gazetteer's Milan stations and campus stops are stops of the feed, by name and position, and lines call there")
    func pln5MilanPlacesStationsAreStops() {
        let feed = Self.feed
        let places = MilanPlaces.all.filter { $0.kind == .station }
        #expect(places.count >= 11)
        let called = Set(feed.stopTimes.map(\.stopId))
        for place in places {
            let position = Coordinate(latitude: place.latitude, longitude: place.longitude)
            let named = feed.stops.filter { $0.name == place.name }
            #expect(!named.isEmpty, "no stop named \(place.name)")
            // A shared station is where the gazetteer has it; its platforms, under their own streets, a little way off.
            #expect(named.contains { Geo.distance($0.position, position) < 1 }, "\(place.name) is not where the gazetteer has it")
            #expect(named.allSatisfy { Geo.distance($0.position, position) < 300 }, "\(place.name)")
            #expect(named.contains { called.contains($0.id) }, "no trip calls at \(place.name)")
        }
        for name in ["Piola M2", "Lambrate FS M2", "Lima M1", "Loreto M1 M2", "Udine M2", "Centrale M2 M3", "Cadorna M1 M2", "Duomo M1 M3",
                     "Piazza Leonardo da Vinci (Politecnico)", "Bovisa (Politecnico)", "Via Durando / Via Cosenz"] {
            #expect(feed.stops.contains { $0.name == name }, "\(name)")
        }
        // M1 and M2 meet at Loreto and Cadorna: the lines' own platforms there.
        let routesAt = { (stopId: String) in Set(feed.stopTimes.filter { $0.stopId == stopId }.compactMap { c in feed.trips.first { $0.id == c.tripId }?.routeId }) }
        #expect(routesAt("MM_LORETO_M1") == ["M1"] && routesAt("MM_LORETO_M2") == ["M2"])
    }

    @Test("PLN-5: on a weekday at 08:30, Politecnico's Leonardo campus to its Bovisa La Masa campus is a ride or more within the hour")
    func pln5LeonardoToBovisaWithinTheHour() throws {
        let timetable = Timetable(feed: Self.feed, date: Self.tuesday)
        let leonardo = Coordinate(latitude: 45.4781, longitude: 9.2272), laMasa = Coordinate(latitude: 45.5030, longitude: 9.1560)
        let q = JourneyQuery(from: leonardo, to: laMasa, departure: 8 * 3600 + 1800)
        let journey = try #require(timetable.earliestArrival(q))
        let rides = Self.rides(journey)
        #expect(!rides.isEmpty)
        #expect(journey.arrival - q.departure <= 3600, "\(journey.arrival - q.departure) s: \(rides.map { "\($0.route.name) \($0.from.name) → \($0.to.name)" })")
        #expect(journey.arrival - q.departure >= 15 * 60, "8 km across the city cannot take less than a quarter of an hour")
        RaptorTests.checkConsistent(journey, q)
    }

    @Test("PLN-5: from Duomo to Lambrate the quickest way is by metro, ending on M2")
    func pln5DuomoToLambrateByMetro() throws {
        let timetable = Timetable(feed: Self.feed, date: Self.tuesday)
        let stop = { (name: String) in Self.feed.stops.first { $0.name == name }!.position }
        let q = JourneyQuery(from: stop("Duomo M1 M3"), to: stop("Lambrate FS M2"), departure: 10 * 3600)
        let journey = try #require(timetable.earliestArrival(q))
        let rides = Self.rides(journey)
        #expect(rides.count >= 2 && rides.allSatisfy { $0.route.mode == .metro }, "\(rides.map(\.route.name))")
        #expect(rides.last?.route.name == "M2" && rides.last?.to.name == "Lambrate FS M2")
        #expect(journey.arrival - q.departure <= 30 * 60)
        RaptorTests.checkConsistent(journey, q)
    }

    @Test("PLN-5: weekdays run more trips than Saturdays and Saturdays more than Sundays; a public holiday runs the Sunday service")
    func pln5WeekdayMoreThanSunday() {
        let feed = Self.feed
        let weekday = Timetable(feed: feed, date: Self.tuesday).tripCount
        let saturday = Timetable(feed: feed, date: Self.saturday).tripCount
        let sunday = Timetable(feed: feed, date: Self.sunday).tripCount
        #expect(weekday > saturday && saturday > sunday && sunday > 500, "\(weekday) \(saturday) \(sunday)")
        // 8 December 2026 (the Immaculate Conception) is a Tuesday.
        let holiday = TransitFeed.ServiceDate(year: 2026, month: 12, day: 8)
        #expect(!feed.runs("WD", on: holiday) && feed.runs("SU", on: holiday) && feed.runs("WD", on: Self.tuesday))
        #expect(Timetable(feed: feed, date: holiday).tripCount < weekday)
        // Easter Monday, 6 April 2026.
        #expect(feed.runs("SU", on: .init(year: 2026, month: 4, day: 6)) && !feed.runs("WD", on: .init(year: 2026, month: 4, day: 6)))
    }

    @Test("PLN-5: Friday's last metros run after midnight (times past 24:00) and are caught early on Saturday")
    func pln5FridayNightAfterMidnight() throws {
        let feed = Self.feed
        let weekdayTrips = Set(feed.trips.filter { $0.serviceId == "WD" }.map(\.id))
        #expect(feed.stopTimes.contains { $0.departure >= 86_400 && weekdayTrips.contains($0.tripId) })
        let timetable = Timetable(feed: feed, date: Self.saturday)
        let stop = { (name: String) in feed.stops.first { $0.name == name }!.position }
        // Saturday's own service starts at 05:40; at 00:05 only Friday's trips are still running.
        let q = JourneyQuery(from: stop("Duomo M1 M3"), to: stop("Loreto M1 M2"), departure: 5 * 60)
        let journey = try #require(timetable.earliestArrival(q))
        let ride = try #require(Self.rides(journey).first)
        #expect(ride.route.name == "M1" && ride.departure < 3600 && journey.arrival < 3600, "\(ride)")
        #expect(feed.trips.first { $0.id == ride.tripId }?.serviceId == "WD", "a Friday trip: \(ride.tripId)")
    }
}
