import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// The GTFS reference's sample feed, zipped as the reference publishes it (in the core tests' fixtures).
private enum SampleFeed {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WaymarkCoreTests/Fixtures/gtfs-sample")
    static var zip: Data { get throws { try Data(contentsOf: folder.appendingPathComponent("sample-feed-1.zip")) } }
    static var files: [(name: String, data: Data)] { get throws { try ArchiveFiles.gtfs.unzip(try zip) } }

    /// Furnace Creek Resort to the airport on Monday 2 June 2008 at 06:00 in Nevada.
    static let journey = "/v1/journeys?fromLatitude=36.425288&fromLongitude=-117.133162&toLatitude=36.868446&toLongitude=-116.784582"
        + "&leaveAt=2008-06-02T13:00:00Z"
}

@Suite("Public transport on the server: GTFS import and journeys (PLN-5)")
struct TransitTests {
    @Test("PLN-5 the reference's zipped sample feed imports; journeys come with legs, names and instants in the feed's time zone",
          arguments: TestDatabase.available)
    func pln5ImportAndJourneys(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let none = try await ctx.call(.GET, SampleFeed.journey)
            #expect(none.status == .notFound && none.problemType == "no-timetable")

            let report = try await ctx.app.importTransitFeed(files: try SampleFeed.files)
            #expect((report.stops, report.routes, report.trips, report.stopTimes) == (9, 5, 11, 28))
            #expect(report.version == 1 && report.firstDay == "20070101" && report.lastDay == "20101231")
            #expect(report.warnings.count == 1 && report.warnings[0].contains("stop_times.txt row"), "\(report.warnings)")

            let res = try await ctx.call(.GET, SampleFeed.journey)
            #expect(res.status == .ok)
            #expect(res.json["timeZone"] as? String == "America/Los_Angeles" && res.json["timetable"] as? String == "Demo Transit Authority")
            let journeys = res.json["journeys"] as? [[String: Any]] ?? []
            let fastest = try #require(journeys.last)
            // Route 20 at 11:00 (PDT) to Bullfrog, then route 10 at 12:05 to the airport, in at 12:15.
            #expect(fastest["leave"] as? String == "2008-06-02T18:00:00.000Z" && fastest["arrive"] as? String == "2008-06-02T19:15:00.000Z")
            #expect(fastest["minutes"] as? Int == 75 && fastest["rides"] as? Int == 2)
            let legs = fastest["legs"] as? [[String: Any]] ?? []
            #expect(legs.map { ($0["route"] as? [String: Any])?["name"] as? String } == ["20", "10"])
            #expect(legs.map { ($0["from"] as? [String: Any])?["name"] as? String } == ["Furnace Creek Resort (Demo)", "Bullfrog (Demo)"])
            #expect(legs.first?["headsign"] as? String == "to Bullfrog" && (legs.first?["route"] as? [String: Any])?["mode"] as? String == "bus")

            // Before the day's first bus there is nothing earlier; after the last one, nothing at all.
            let late = try await ctx.call(.GET, SampleFeed.journey.replacingOccurrences(of: "13:00:00", with: "23:30:00"))
            #expect(late.status == .ok && (late.json["journeys"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("PLN-5 a broken feed is refused with the file, row and rule, and the timetable in use stays; a new one replaces it at once",
          arguments: TestDatabase.available)
    func pln5ReplaceAtomically(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let files = try SampleFeed.files
            _ = try await ctx.app.importTransitFeed(files: files)
            let before = try await ctx.call(.GET, SampleFeed.journey)

            let broken = files.map { f in
                f.name == "stops.txt" ? (f.name, Data(String(decoding: f.data, as: UTF8.self).replacingOccurrences(of: "36.868446", with: "136.868446").utf8)) : f
            }
            await #expect {
                try await ctx.app.importTransitFeed(files: broken)
            } throws: { error in
                let failure = error as? TransitImportFailure
                return failure?.summary.hasPrefix("The feed has 1 error and was not imported") == true
                    && failure?.problems.first == "1. stops.txt row 3, stop_lat: '136.868446' is not a latitude (-90 to 90)"
                    && failure?.problems.dropFirst().allSatisfy { $0.hasPrefix("2. warning: ") } == true
            }
            let after = try await ctx.call(.GET, SampleFeed.journey)
            #expect(after.status == .ok && after.body == before.body)

            // Route 10 renamed: the next request plans on the new feed.
            let renamed = files.map { f in
                f.name == "routes.txt" ? (f.name, Data(String(decoding: f.data, as: UTF8.self).replacingOccurrences(of: "AB,DTA,10,", with: "AB,DTA,10X,").utf8)) : f
            }
            let report = try await ctx.app.importTransitFeed(files: renamed)
            #expect(report.version == 2)
            let again = try await ctx.call(.GET, SampleFeed.journey)
            let legs = ((again.json["journeys"] as? [[String: Any]])?.last?["legs"] as? [[String: Any]]) ?? []
            #expect(legs.map { ($0["route"] as? [String: Any])?["name"] as? String } == ["20", "10X"])
        }
    }

    @Test("PLN-5 journey requests out of bounds are 400 with what to change", arguments: TestDatabase.available)
    func pln5BadRequests(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            _ = try await ctx.app.importTransitFeed(files: try SampleFeed.files)
            let j = SampleFeed.journey
            for bad in [j.replacingOccurrences(of: "fromLatitude=36.425288", with: "fromLatitude=91"), j + "&maxRides=0", j + "&maxWalkMetres=9000",
                        j.replacingOccurrences(of: "2008-06-02T13:00:00Z", with: "yesterday"),
                        j.replacingOccurrences(of: "2008-06-02T13:00:00Z", with: "1900-01-01T00:00:00Z")] {
                let res = try await ctx.call(.GET, bad)
                #expect(res.status == .badRequest, "\(bad): \(res.status)")
            }
            let missing = try await ctx.call(.GET, "/v1/journeys?fromLatitude=36.4&fromLongitude=-117.1&toLatitude=36.8")
            #expect(missing.status == .badRequest)
        }
    }

    @Test("PLN-5 a day plan's transit leg is a journey on the timetable: the last one that still arrives by the event's start",
          arguments: TestDatabase.available)
    func pln5DayPlanRidesTheTimetable(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let zone = TimeZone(identifier: "Europe/Rome")!
            let files = MilanTransit.files(validFrom: .init(year: 2026, month: 11, day: 1), validTo: .init(year: 2027, month: 1, day: 31))
            _ = try await ctx.app.importTransitFeed(files: files.map { (name: $0.key, data: $0.value) })
            let me = try await ctx.device()
            try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: [
                "ecoMode": false, "maxWalkingMetres": 800, "maxBikingMetres": 0, "ownsBike": false, "bikeSharing": false,
                "transitFrom": "05:00", "transitTo": "24:00", "ownsCar": false, "carSharing": false])
            for (title, start, end, lat, lon) in [("Lecture", "2026-11-19T08:00", "2026-11-19T09:00", 45.4781, 9.2272),
                                                  ("Lab", "2026-11-19T10:00", "2026-11-19T12:00", 45.5030, 9.1560)] {
                let res = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: [
                    "title": title, "start": start, "end": end, "timeZone": zone.identifier,
                    "place": ["name": title, "latitude": lat, "longitude": lon], "modes": ["walk", "transit"]])
                #expect(res.status == .created)
            }
            let plan = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: me.token)
            let lab = try #require((plan.json["steps"] as? [[String: Any]])?.first { $0["title"] as? String == "Lab" })
            let leg = try #require(lab["leg"] as? [String: Any])
            #expect(leg["mode"] as? String == "transit")
            let journey = try #require(leg["journey"] as? [String: Any], "the leg is planned on the timetable")
            let legs = journey["legs"] as? [[String: Any]] ?? []
            #expect(legs.contains { $0["kind"] as? String == "ride" } && journey["rides"] as? Int ?? 0 >= 1)
            #expect(leg["depart"] as? String == journey["leave"] as? String && leg["arrive"] as? String == journey["arrive"] as? String)
            let instant = ISO8601DateFormatter()
            instant.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let arrive = try #require(instant.date(from: journey["arrive"] as? String ?? ""))
            let leave = try #require(instant.date(from: journey["leave"] as? String ?? ""))
            let start = try #require(instant.date(from: lab["start"] as? String ?? ""))
            #expect(arrive <= start && start.timeIntervalSince(arrive) < 15 * 60, "in by 10:00, and not long before")
            #expect(leave >= instant.date(from: "2026-11-19T08:00:00.000Z")!, "after the lecture ends at 09:00 in Rome")
            let minutes = try #require(journey["minutes"] as? Int), spare = Int(start.timeIntervalSince(arrive) / 60)
            #expect(lab["why"] as? String == "On time: \(minutes) min by public transport, \(spare) min to spare.", "the journey's figures, not the estimate's")
            #expect(plan.json["travelMinutes"] as? Int == minutes)

            // The same journey the public planner gives, leaving then.
            let direct = try await ctx.call(.GET, "/v1/journeys?fromLatitude=45.4781&fromLongitude=9.2272&toLatitude=45.503&toLongitude=9.156"
                                            + "&maxWalkMetres=800&leaveAt=\(journey["leave"] as? String ?? "")")
            #expect((direct.json["journeys"] as? [[String: Any]])?.last?["arrive"] as? String == journey["arrive"] as? String)
        }
    }
}
