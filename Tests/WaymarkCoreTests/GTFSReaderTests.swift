import Foundation
import Testing
@testable import WaymarkCore

/// PLN-5: a GTFS static feed is read and checked; every problem names the file, the row and the rule.
@Suite("Planner: GTFS feeds (PLN-5)")
struct GTFSReaderTests {
    /// The GTFS reference's own sample feed (see Fixtures/gtfs-sample/SOURCE.txt).
    static func sampleFeed() throws -> [String: Data] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gtfs-sample")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".txt") && name != "SOURCE.txt" {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// A small valid feed: tram 33 along four stops in a line, on weekdays of 2025.
    static let small: [String: String] = [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            A,Azienda Trasporti,https://example.org,Europe/Rome

            """,
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            S1,One,45.0,9.0
            S2,Two,45.0,9.01
            S3,Three,45.0,9.03
            S4,Four,45.0,9.04

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R,A,33,,0

            """,
        "trips.txt": """
            route_id,service_id,trip_id
            R,WD,T1
            R,WD,T2

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,8:00:00,8:00:00,S1,1
            T1,8:05:00,8:05:00,S2,2
            T1,8:10:00,8:10:00,S3,3
            T2,9:00:00,9:00:00,S3,1
            T2,9:10:00,9:10:00,S1,2

            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WD,1,1,1,1,1,0,0,20250101,20251231

            """,
    ]

    static func read(_ files: [String: String]) -> (feed: TransitFeed?, problems: [GTFSReader.Problem]) {
        GTFSReader.read(files: files.mapValues { Data($0.utf8) })
    }

    /// The small feed with one file's text changed.
    static func small(_ file: String, _ change: (String) -> String) -> [String: String] {
        var files = small
        files[file] = change(files[file]!)
        return files
    }

    // MARK: The sample feed

    @Test("PLN-5: the spec's sample feed imports exactly, without a problem")
    func pln5SampleFeedCounts() throws {
        let (feed, problems) = GTFSReader.read(files: try Self.sampleFeed())
        #expect(problems.isEmpty, "\(problems)")
        let f = try #require(feed)
        #expect(f.agencies.count == 1)
        #expect(f.stops.count == 9)
        #expect(f.routes.count == 5)
        #expect(f.trips.count == 11)
        #expect(f.stopTimes.count == 28)
        #expect(f.calendars.count == 2)
        #expect(f.calendarDates.count == 1)
        #expect(f.frequencies.count == 11)
        #expect(f.transfers.isEmpty)
    }

    @Test("PLN-5: the sample feed's values read as written")
    func pln5SampleFeedValues() throws {
        let f = try #require(GTFSReader.read(files: try Self.sampleFeed()).feed)
        #expect(f.agencies[0] == TransitFeed.Agency(id: "DTA", name: "Demo Transit Authority", url: "http://google.com", timeZone: "America/Los_Angeles"))
        let resort = try #require(f.stops.first { $0.id == "FUR_CREEK_RES" })
        #expect(resort.name == "Furnace Creek Resort (Demo)")
        #expect(resort.position == Coordinate(latitude: 36.425288, longitude: -117.133162))
        #expect(resort.parentStation == nil)
        let shuttle = try #require(f.routes.first { $0.id == "STBA" })
        #expect(shuttle.shortName == "30" && shuttle.longName == "Stagecoach - Airport Shuttle")
        #expect(shuttle.mode == .bus && shuttle.agencyId == "DTA" && shuttle.colour == nil)
        #expect(f.trips.first { $0.id == "AB1" } == TransitFeed.Trip(id: "AB1", routeId: "AB", serviceId: "FULLW", headsign: "to Bullfrog"))
        #expect(f.trips.first { $0.id == "CITY1" }?.headsign == nil)
        // 6:05:00 and 6:07:00 at North Ave / N A Ave on CITY1.
        let nanaa = try #require(f.stopTimes.first { $0.tripId == "CITY1" && $0.stopId == "NANAA" })
        #expect(nanaa.sequence == 2 && nanaa.arrival == 6 * 3600 + 5 * 60 && nanaa.departure == 6 * 3600 + 7 * 60)
        #expect(!nanaa.noPickup && !nanaa.noDropOff)
        let peak = try #require(f.frequencies.first { $0.tripId == "CITY1" && $0.start == 8 * 3600 })
        #expect(peak.headway == 600 && peak.end == 9 * 3600 + 59 * 60 + 59 && !peak.exactTimes)
        #expect(f.frequencies.first { $0.tripId == "STBA" } == TransitFeed.Frequency(tripId: "STBA", start: 6 * 3600, end: 22 * 3600, headway: 1800))
        let weekend = try #require(f.calendars.first { $0.serviceId == "WE" })
        #expect(weekend.weekdays == [6, 7])
        #expect(weekend.start == TransitFeed.ServiceDate(year: 2007, month: 1, day: 1) && weekend.end == TransitFeed.ServiceDate(year: 2010, month: 12, day: 31))
    }

    @Test("PLN-5: the sample feed's removed date stops the daily service that Monday only")
    func pln5SampleFeedCalendarDates() throws {
        let f = try #require(GTFSReader.read(files: try Self.sampleFeed()).feed)
        #expect(f.calendarDates == [TransitFeed.ServiceException(serviceId: "FULLW", date: .init(year: 2007, month: 6, day: 4), added: false)])
        #expect(!f.runs("FULLW", on: .init(year: 2007, month: 6, day: 4)))
        #expect(f.runs("FULLW", on: .init(year: 2007, month: 6, day: 5)))
        #expect(f.runs("FULLW", on: .init(year: 2007, month: 6, day: 3)))
        #expect(!f.runs("WE", on: .init(year: 2007, month: 6, day: 4)))
        #expect(f.runs("WE", on: .init(year: 2007, month: 6, day: 9)))
        #expect(!f.runs("FULLW", on: .init(year: 2011, month: 1, day: 3)))
    }

    @Test("PLN-5: trips come sorted by id and stop times by trip in that order, then by stop_sequence")
    func pln5StopTimesOrder() throws {
        // The sample feed's rows, shuffled within and between trips.
        var files = try Self.sampleFeed()
        let text = String(decoding: files["stop_times.txt"]!, as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines.removeFirst()
        files["stop_times.txt"] = Data(([header] + lines.reversed()).joined(separator: "\n").utf8)
        let f = try #require(GTFSReader.read(files: files).feed)
        #expect(f.trips.map(\.id) == ["AAMV1", "AAMV2", "AAMV3", "AAMV4", "AB1", "AB2", "BFC1", "BFC2", "CITY1", "CITY2", "STBA"])
        var tripOrder: [String] = []
        for st in f.stopTimes where tripOrder.last != st.tripId { tripOrder.append(st.tripId) }
        #expect(tripOrder == f.trips.map(\.id))
        for (a, b) in zip(f.stopTimes, f.stopTimes.dropFirst()) where a.tripId == b.tripId { #expect(a.sequence < b.sequence) }
        #expect(f.stopTimes.filter { $0.tripId == "CITY2" }.map(\.stopId) == ["EMSI", "DADAN", "NADAV", "NANAA", "STAGECOACH"])
    }

    // MARK: Broken feeds

    struct Broken: Sendable, CustomTestStringConvertible {
        var label: String
        var files: [String: String]
        var file: String
        var row: Int?
        var field: String?
        var rule: String
        var testDescription: String { label }
    }

    static let broken: [Broken] = [
        Broken(label: "missing required file", files: small.filter { $0.key != "trips.txt" },
               file: "trips.txt", row: nil, field: nil, rule: "the feed has no trips.txt; it is required"),
        Broken(label: "no calendar of either kind", files: small.filter { $0.key != "calendar.txt" },
               file: "calendar.txt", row: nil, field: nil, rule: "neither calendar.txt nor calendar_dates.txt"),
        Broken(label: "missing column", files: small("stops.txt") { $0.replacingOccurrences(of: ",stop_lat,", with: ",latitude,") },
               file: "stops.txt", row: 1, field: "stop_lat", rule: "the required column stop_lat is missing"),
        Broken(label: "duplicate id", files: small("stops.txt") { $0 + "S2,Two again,45.1,9.1\n" },
               file: "stops.txt", row: 6, field: "stop_id", rule: "stop_id 'S2' appears twice (first on row 3)"),
        Broken(label: "unknown stop", files: small("stop_times.txt") { $0.replacingOccurrences(of: "S3,1", with: "S9,1") },
               file: "stop_times.txt", row: 5, field: "stop_id", rule: "'S9' is not in stops.txt"),
        Broken(label: "unknown route", files: small("trips.txt") { $0.replacingOccurrences(of: "R,WD,T2", with: "X,WD,T2") },
               file: "trips.txt", row: 3, field: "route_id", rule: "route_id 'X' is not in routes.txt"),
        Broken(label: "unknown service", files: small("trips.txt") { $0.replacingOccurrences(of: "R,WD,T2", with: "R,SUN,T2") },
               file: "trips.txt", row: 3, field: "service_id", rule: "'SUN' is in neither calendar.txt nor calendar_dates.txt"),
        Broken(label: "unknown trip", files: small("stop_times.txt") { $0 + "T7,9:20:00,9:20:00,S2,3\n" },
               file: "stop_times.txt", row: 7, field: "trip_id", rule: "trip_id 'T7' is not in trips.txt"),
        Broken(label: "bad time", files: small("stop_times.txt") { $0.replacingOccurrences(of: "T1,8:05:00,", with: "T1,25:61:00,") },
               file: "stop_times.txt", row: 3, field: "arrival_time", rule: "'25:61:00' is not a time (H:MM:SS)"),
        Broken(label: "bad date", files: small("calendar.txt") { $0.replacingOccurrences(of: "20251231", with: "20250230") },
               file: "calendar.txt", row: 2, field: "end_date", rule: "'20250230' is not a date (YYYYMMDD)"),
        Broken(label: "decreasing times", files: small("stop_times.txt") { $0.replacingOccurrences(of: "8:10:00,8:10:00", with: "8:04:00,8:04:00") },
               file: "stop_times.txt", row: 4, field: "arrival_time", rule: "arrival_time 8:04:00 is before the departure at 8:05:00"),
        Broken(label: "arrival before the departure from the stop before",
               files: small("stop_times.txt") { $0.replacingOccurrences(of: "8:05:00,8:05:00", with: "8:05:00,8:11:00") },
               file: "stop_times.txt", row: 4, field: "arrival_time", rule: "arrival_time 8:10:00 is before the departure at 8:11:00"),
        Broken(label: "departure before arrival", files: small("stop_times.txt") { $0.replacingOccurrences(of: "8:05:00,8:05:00", with: "8:06:00,8:05:30") },
               file: "stop_times.txt", row: 3, field: "departure_time", rule: "departure_time 8:05:30 is before arrival_time 8:06:00"),
        Broken(label: "latitude out of range", files: small("stops.txt") { $0.replacingOccurrences(of: "S3,Three,45.0", with: "S3,Three,95.0") },
               file: "stops.txt", row: 4, field: "stop_lat", rule: "'95.0' is not a latitude (-90 to 90)"),
        Broken(label: "last stop without a time", files: small("stop_times.txt") { $0.replacingOccurrences(of: "T1,8:10:00,8:10:00", with: "T1,,") },
               file: "stop_times.txt", row: 4, field: "arrival_time", rule: "a trip's first and last stops need both times"),
        Broken(label: "repeated stop_sequence", files: small("stop_times.txt") { $0.replacingOccurrences(of: "S3,3", with: "S3,2") },
               file: "stop_times.txt", row: 4, field: "stop_sequence", rule: "stop_sequence 2 appears twice in trip 'T1' (first on row 3)"),
        Broken(label: "route type that does not exist", files: small("routes.txt") { $0.replacingOccurrences(of: "R,A,33,,0", with: "R,A,33,,8") },
               file: "routes.txt", row: 2, field: "route_type", rule: "'8' is not a route_type"),
        Broken(label: "quote never closed", files: small("stops.txt") { $0.replacingOccurrences(of: "S2,Two", with: "S2,\"Two") },
               file: "stops.txt", row: 3, field: nil, rule: "a quoted field opened here is never closed"),
        Broken(label: "row with a field too many", files: small("stops.txt") { $0.replacingOccurrences(of: "S4,Four,", with: "S4,Four, Corso,") },
               file: "stops.txt", row: 5, field: nil, rule: "the row has 5 fields but the header has 4"),
        Broken(label: "unknown agency", files: small("routes.txt") { $0.replacingOccurrences(of: "R,A,", with: "R,B,") },
               file: "routes.txt", row: 2, field: "agency_id", rule: "agency_id 'B' is not in agency.txt"),
        Broken(label: "frequency of an unknown trip",
               files: small.merging(["frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,6:00:00,9:00:00,600\nT9,6:00:00,9:00:00,600\n"]) { $1 },
               file: "frequencies.txt", row: 3, field: "trip_id", rule: "trip_id 'T9' is not in trips.txt"),
        Broken(label: "transfer to an unknown stop",
               files: small.merging(["transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS1,S8,2,120\n"]) { $1 },
               file: "transfers.txt", row: 2, field: "to_stop_id", rule: "to_stop_id 'S8' is not in stops.txt"),
    ]

    @Test("PLN-5: a broken feed is refused, the problem naming the file, the row and the rule", arguments: broken)
    func pln5RefusesBrokenFeeds(_ c: Broken) {
        let (feed, problems) = Self.read(c.files)
        #expect(feed == nil)
        let errors = problems.filter { $0.severity == .error }
        #expect(errors.contains { $0.file == c.file && $0.row == c.row && $0.field == c.field && $0.rule.contains(c.rule) },
                "\(c.label): \(problems.map(\.description))")
    }

    @Test("PLN-5: the small feed itself is valid, so each broken case is broken by its one change")
    func pln5SmallFeedIsValid() throws {
        let (feed, problems) = Self.read(Self.small)
        #expect(problems.isEmpty, "\(problems)")
        let f = try #require(feed)
        #expect(f.stops.count == 4 && f.trips.count == 2 && f.stopTimes.count == 5)
        #expect(f.routes == [TransitFeed.Route(id: "R", agencyId: "A", shortName: "33", longName: "", mode: .tram)])
    }

    @Test("PLN-5: a problem reads as a sentence with the file, row, field and rule")
    func pln5ProblemDescription() {
        let (_, problems) = Self.read(Self.small("stop_times.txt") { $0.replacingOccurrences(of: "T1,8:05:00,", with: "T1,25:61:00,") })
        #expect(problems.map(\.description) == ["stop_times.txt row 3, arrival_time: '25:61:00' is not a time (H:MM:SS)"])
        let warning = GTFSReader.Problem(.warning, file: "routes.txt", row: 2, field: "route_type", rule: "read as bus")
        #expect(warning.description == "warning: routes.txt row 2, route_type: read as bus")
        #expect(GTFSReader.Problem(file: "trips.txt", rule: "missing").description == "trips.txt: missing")
    }

    @Test("PLN-5: times are H:MM:SS or HH:MM:SS, hours past 24 allowed", arguments: [
        ("9:10:00", 9 * 3600 + 600), ("09:10:00", 9 * 3600 + 600), (" 9:10:01 ", 9 * 3600 + 601), ("47:59:59", 47 * 3600 + 3599),
        ("9:60:00", nil), ("9:10:60", nil), ("9:1:00", nil), ("09:10", nil), ("9h10m00", nil), ("-9:10:00", nil), ("9:10:00.5", nil), ("", nil),
    ] as [(String, Int?)])
    func pln5Times(text: String, seconds: Int?) {
        let (feed, problems) = Self.read(Self.small("stop_times.txt") { $0.replacingOccurrences(of: "T2,9:10:00,9:10:00", with: "T2,\(text),\(text)") })
        if let seconds {
            #expect(feed?.stopTimes.last?.arrival == seconds && feed?.stopTimes.last?.departure == seconds, "\(problems)")
        } else {
            #expect(feed == nil)
            let rule = text.isEmpty ? "a trip's first and last stops need both times" : "'\(text.trimmingCharacters(in: .whitespaces))' is not a time (H:MM:SS)"
            #expect(problems.contains { $0.file == "stop_times.txt" && $0.row == 6 && $0.field == "arrival_time" && $0.rule.contains(rule) }, "\(problems)")
        }
    }

    @Test("PLN-5: dates are YYYYMMDD days the calendar has", arguments: [
        ("20240229", true), ("20000229", true), ("20251231", true), ("20250229", false), ("21000229", false), ("20250100", false),
        ("20250001", false), ("20251301", false), ("2025011", false), ("2025-01-01", false), ("20250431", false),
    ])
    func pln5Dates(text: String, valid: Bool) {
        let (feed, problems) = Self.read(Self.small("calendar.txt") { $0.replacingOccurrences(of: "20250101,20251231", with: "\(text),20301231") })
        #expect((feed != nil) == valid, "\(problems)")
        if !valid {
            #expect(problems.contains { $0.file == "calendar.txt" && $0.row == 2 && $0.field == "start_date" && $0.rule == "'\(text)' is not a date (YYYYMMDD)" })
        }
    }

    // MARK: What reads although it is unusual

    @Test("PLN-5: a quoted field keeps its comma and line break, and later rows keep their line numbers")
    func pln5QuotedFields() throws {
        let files = Self.small("stops.txt") {
            $0.replacingOccurrences(of: "S2,Two,", with: "S2,\"Piazza Leonardo, \"\"Politecnico\"\"\nda Vinci\",")
        }
        let f = try #require(Self.read(files).feed)
        #expect(f.stops.first { $0.id == "S2" }?.name == "Piazza Leonardo, \"Politecnico\"\nda Vinci")
        #expect(f.stops.first { $0.id == "S3" }?.position == Coordinate(latitude: 45.0, longitude: 9.03))
        // S3 now starts on line 5 of the file: the quoted line break counts.
        var broken = files
        broken["stops.txt"] = files["stops.txt"]!.replacingOccurrences(of: "S3,Three,45.0", with: "S3,Three,-91")
        let problems = Self.read(broken).problems
        #expect(problems.map { [$0.file, "\($0.row ?? 0)", $0.field ?? ""] } == [["stops.txt", "5", "stop_lat"]])
    }

    @Test("PLN-5: a byte-order mark, CRLF line ends and a last line without its line end all read")
    func pln5BOMAndLineEnds() throws {
        var files = Self.small.mapValues { $0.replacingOccurrences(of: "\n", with: "\r\n") }
        files["agency.txt"] = "\u{FEFF}" + files["agency.txt"]!
        for name in ["stops.txt", "stop_times.txt"] {
            // Bytes, not Characters: "\r\n" is one Character in Swift.
            files[name] = String(decoding: files[name]!.utf8.dropLast(2), as: UTF8.self)
            #expect(files[name]!.hasSuffix("S1,2") || files[name]!.hasSuffix("9.04"))
        }
        #expect(files["agency.txt"]!.utf8.starts(with: [0xEF, 0xBB, 0xBF]))
        let (feed, problems) = Self.read(files)
        #expect(problems.isEmpty, "\(problems)")
        let f = try #require(feed)
        #expect(f.agencies == [TransitFeed.Agency(id: "A", name: "Azienda Trasporti", url: "https://example.org", timeZone: "Europe/Rome")])
        #expect(f.stops.map(\.id) == ["S1", "S2", "S3", "S4"])
        #expect(f.stops.last?.position == Coordinate(latitude: 45.0, longitude: 9.04))
        #expect(f.stopTimes.count == 5 && f.stopTimes.last?.stopId == "S1" && f.stopTimes.last?.arrival == 9 * 3600 + 600)
        // Without the mark's removal the first column would be "\u{FEFF}agency_id" and the id would be lost.
        #expect(f.routes.first?.agencyId == "A")
    }

    @Test("PLN-5: an empty intermediate time is interpolated by distance between the timed stops")
    func pln5InterpolatesEmptyTimes() throws {
        // S1 → S2 is 0.01° of longitude and S2 → S3 0.02°: S2 is a third of the way, 8:03:20.
        let files = Self.small("stop_times.txt") { $0.replacingOccurrences(of: "T1,8:05:00,8:05:00,S2", with: "T1,,,S2") }
        let (feed, problems) = Self.read(files)
        #expect(problems.isEmpty, "\(problems)")
        let f = try #require(feed)
        let s2 = try #require(f.stopTimes.first { $0.tripId == "T1" && $0.stopId == "S2" })
        #expect(s2.arrival == 8 * 3600 + 200 && s2.departure == 8 * 3600 + 200)
        // Two untimed stops in a row, from a departure that differs from its arrival.
        let two = Self.small("stop_times.txt") {
            $0.replacingOccurrences(of: "T1,8:00:00,8:00:00,S1,1", with: "T1,7:59:00,8:00:00,S1,1")
                .replacingOccurrences(of: "T1,8:05:00,8:05:00,S2,2\nT1,8:10:00,8:10:00,S3,3", with: "T1,,,S2,2\nT1,,,S3,3\nT1,8:12:00,8:12:00,S4,4")
        }
        let g = try #require(Self.read(two).feed)
        // S1 → S2 is 0.01°, S2 → S3 0.02°, S3 → S4 0.01°: a quarter and three quarters of the 12 minutes after 8:00:00.
        #expect(g.stopTimes.filter { $0.tripId == "T1" }.map(\.arrival) == [7 * 3600 + 59 * 60, 8 * 3600 + 180, 8 * 3600 + 540, 8 * 3600 + 720])
    }

    @Test("PLN-5: unknown files and columns are ignored; a file one folder down is named")
    func pln5UnknownFilesAndColumns() throws {
        var files = Self.small
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon,platform_colour\nS1,One,45.0,9.0,\nS2,Two,45.0,9.01,purple\nS3,Three,45.0,9.03,\nS4,Four,45.0,9.04,\n"
        // Not a GTFS file, and not even CSV: it is not read.
        files["ticket_machines.txt"] = "machine_id,broken\n\"unterminated\n"
        let (feed, problems) = Self.read(files)
        #expect(problems.isEmpty, "\(problems)")
        #expect(feed?.stops.count == 4)
        // A row shorter than the header is a broken row, not an empty field.
        files["stops.txt"] = files["stops.txt"]!.replacingOccurrences(of: "S3,Three,45.0,9.03,\n", with: "S3,Three,45.0,9.03\n")
        #expect(Self.read(files).problems.map { [$0.file, "\($0.row ?? 0)"] } == [["stops.txt", "4"]])

        var nested = Self.small
        nested["feed/trips.txt"] = nested.removeValue(forKey: "trips.txt")
        let missing = Self.read(nested).problems.first { $0.file == "trips.txt" }
        #expect(missing?.rule.contains("there is feed/trips.txt") == true)
    }

    // MARK: Stations, modes, transfers

    @Test("PLN-5: only stops and platforms board; their stations are kept, entrances are not, a station in stop_times is refused")
    func pln5LocationTypes() throws {
        let files = Self.small("stops.txt") { _ in
            """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,45.0,9.0,,
            S2,Two platform 1,45.0,9.01,0,ST
            S3,Three,45.0,9.03,,
            S4,Four,45.0,9.04,0,
            ST,Two station,45.0,9.011,1,
            E1,Two entrance,45.0,9.012,2,ST
            LONELY,A station no stop belongs to,45.2,9.2,1,

            """
        }
        let f = try #require(Self.read(files).feed)
        #expect(f.stops.map(\.id) == ["S1", "S2", "S3", "S4", "ST"])
        #expect(f.stops.first { $0.id == "S2" }?.parentStation == "ST")
        #expect(f.stops.first { $0.id == "ST" }?.name == "Two station")

        let boardingAtStation = Self.small("stop_times.txt") { $0.replacingOccurrences(of: "S2,2", with: "ST,2") }
        var stationFiles = boardingAtStation
        stationFiles["stops.txt"] = files["stops.txt"]
        let (feed, problems) = Self.read(stationFiles)
        #expect(feed == nil)
        #expect(problems.contains { $0.file == "stop_times.txt" && $0.row == 3 && $0.field == "stop_id" && $0.rule.contains("is a station (location_type 1)") })

        let badParent = files.merging(["stops.txt": files["stops.txt"]!.replacingOccurrences(of: "0,ST", with: "0,S1")]) { $1 }
        #expect(Self.read(badParent).problems.contains { $0.row == 3 && $0.field == "parent_station" && $0.rule.contains("is not a station") })
    }

    @Test("PLN-5: route types map to modes; extended ones by their hundreds, with a warning when the reading is a guess")
    func pln5RouteTypes() throws {
        #expect(GTFSReader.mode(routeType: 1)?.mode == .metro)
        #expect(GTFSReader.mode(routeType: 11)?.mode == .trolleybus)
        #expect(GTFSReader.mode(routeType: 12)?.mode == .monorail)
        let suburban = GTFSReader.mode(routeType: 109)
        #expect(suburban?.mode == .rail && suburban?.warning == nil)
        #expect(GTFSReader.mode(routeType: 401)?.mode == .metro)
        #expect(GTFSReader.mode(routeType: 405)?.mode == .monorail)
        #expect(GTFSReader.mode(routeType: 704)?.mode == .bus)
        #expect(GTFSReader.mode(routeType: 900)?.mode == .tram)
        #expect(GTFSReader.mode(routeType: 1200)?.mode == .ferry)
        #expect(GTFSReader.mode(routeType: 1300)?.mode == .aerialLift)
        #expect(GTFSReader.mode(routeType: 1400)?.mode == .funicular)
        #expect(GTFSReader.mode(routeType: 1100)?.warning != nil)
        #expect(GTFSReader.mode(routeType: 118)?.warning != nil)
        for invalid in [8, 10, 13, 99, 1800, 2000] { #expect(GTFSReader.mode(routeType: invalid) == nil) }

        let files = Self.small("routes.txt") { $0 + "AIR,A,,Airport flyer,1100\nM,A,M2,,401\n" }
        let (feed, problems) = Self.read(files)
        let f = try #require(feed, "a warning leaves the feed usable")
        #expect(f.routes.map(\.mode) == [.tram, .bus, .metro])
        #expect(problems.map(\.severity) == [.warning])
        #expect(problems.first?.file == "routes.txt" && problems.first?.row == 3 && problems.first?.field == "route_type")
    }

    @Test("PLN-5: rows that leave off trailing fields read them as empty, with one warning for the file")
    func pln5ShortRows() throws {
        // As the reference's own zipped sample feed writes some stop times.
        let files = Self.small("stop_times.txt") {
            $0.replacingOccurrences(of: "trip_id,arrival_time,departure_time,stop_id,stop_sequence",
                                    with: "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type")
              .replacingOccurrences(of: "T1,8:05:00,8:05:00,S2,2", with: "T1,8:05:00,8:05:00,S2,2,,1")
        }
        let (feed, problems) = Self.read(files)
        let f = try #require(feed)
        #expect(f.stopTimes.count == 5 && f.stopTimes[1].noPickup && !f.stopTimes[0].noPickup)
        #expect(problems.map(\.description) == ["warning: stop_times.txt row 2: this row and 3 more rows have fewer fields than the header's 7; the missing ones are read as empty"])

        // A required value still has to be there.
        let missing = Self.small("stop_times.txt") { $0.replacingOccurrences(of: "T2,9:10:00,9:10:00,S1,2", with: "T2,9:10:00,9:10:00") }
        #expect(Self.read(missing).feed == nil)
    }

    @Test("PLN-5: transfers read; one naming a station applies to its platforms, in-seat transfers are left out with a warning")
    func pln5Transfers() throws {
        var files = Self.small("stops.txt") { _ in
            "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\nS1,One,45.0,9.0,,\nS2,Two A,45.0,9.01,,ST\nS3,Three,45.0,9.03,,\nS4,Two B,45.0,9.0101,,ST\nST,Two,45.0,9.0100,1,\n"
        }
        files["transfers.txt"] = """
            from_stop_id,to_stop_id,transfer_type,min_transfer_time,from_trip_id,to_trip_id
            ST,ST,2,180,,
            S2,S4,3,,,
            S1,S3,0,,,
            ,,4,,T1,T2

            """
        let (feed, problems) = Self.read(files)
        let f = try #require(feed, "\(problems)")
        let pairs = Dictionary(uniqueKeysWithValues: f.transfers.map { ("\($0.fromStopId)>\($0.toStopId)", $0) })
        #expect(pairs.count == 5)
        #expect(pairs["S2>S2"]?.minimumSeconds == 180 && pairs["S4>S2"]?.minimumSeconds == 180 && pairs["S4>S4"] != nil)
        // The rule between the platforms themselves wins over the station's.
        #expect(pairs["S2>S4"]?.forbidden == true && pairs["S2>S4"]?.minimumSeconds == nil)
        #expect(pairs["S1>S3"] == TransitFeed.Transfer(fromStopId: "S1", toStopId: "S3"))
        #expect(problems.map { [$0.severity.rawValue, $0.file, "\($0.row ?? 0)", $0.field ?? ""] } == [["warning", "transfers.txt", "5", "transfer_type"]])
    }

    @Test("PLN-5: times past 24:00 count on from the service day's start")
    func pln5TimesPastMidnight() throws {
        let files = Self.small("stop_times.txt") {
            $0.replacingOccurrences(of: "T2,9:00:00,9:00:00", with: "T2,24:50:00,24:50:00")
                .replacingOccurrences(of: "T2,9:10:00,9:10:00", with: "T2,25:05:30,25:06:00")
        }
        let f = try #require(Self.read(files).feed)
        #expect(f.stopTimes.filter { $0.tripId == "T2" }.map(\.departure) == [24 * 3600 + 50 * 60, 25 * 3600 + 6 * 60])
        #expect(f.stopTimes.last?.arrival == 25 * 3600 + 5 * 60 + 30)
    }

    // MARK: The CSV reader

    @Test("PLN-5: the CSV reader gives rows as arrays, fields by column name and each row's line")
    func pln5CSVTable() throws {
        let table = try CSVTable("\u{FEFF} id , name ,note\r\n1,\"a, \"\"b\"\"\",x\r\n\r\n2,\"two\nlines\",\r\n3,plain\"quote,\"\"")
        #expect(table.header == ["id", "name", "note"])
        #expect(table.rows == [["1", "a, \"b\"", "x"], ["2", "two\nlines", ""], ["3", "plain\"quote", ""]])
        #expect((0..<table.count).map(table.line) == [2, 4, 6])
        #expect(table[1]["name"] == "two\nlines" && table[1]["missing"] == nil && table[2].line == 6)
        #expect(try CSVTable("a,b\n1,2").rows == [["1", "2"]])
        #expect(try CSVTable("").header.isEmpty)
        #expect(throws: CSVTable.Failure(line: 3, "text follows the closing quote of a field; a quote inside a field is written as two quotes")) {
            _ = try CSVTable("a,b\n1,2\n\"x\"y,3\n")
        }
        #expect(throws: CSVTable.Failure(line: 2, "the file is not UTF-8 (byte 7)")) {
            _ = try CSVTable(Data([0x61, 0x2C, 0x62, 0x0A, 0x31, 0x2C, 0xFF, 0x0A]))
        }
    }
}
