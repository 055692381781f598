// The OSRM answers in Fixtures/osrm/ were written by hand, in the shape OSRM's v5 HTTP API
// documents for its table service (`code`, `durations`, `distances`, `sources`, `destinations`,
// waypoints with `hint`, `distance`, `name`, `location`), for real places in Milan with plausible
// figures. They are not recordings: no OSRM server is reachable from the test machines. A local
// server (`RecordedHTTPServer`) serves them in the router's place.
import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Trips on real streets from an OSRM router (PLN-5)")
struct RouterTests {
    static let leonardo = Coordinate(latitude: 45.4781, longitude: 9.2272)
    static let bovisa = Coordinate(latitude: 45.5030, longitude: 9.1560)
    static let duomo = Coordinate(latitude: 45.4642, longitude: 9.1900)
    /// Wednesday 18 November 2026, 08:00 in Milan: the events are tomorrow.
    static let morning = ISO8601DateFormatter().date(from: "2026-11-18T07:00:00Z")!

    /// The table requests for Leonardo then Bovisa, and with the Duomo after them: longitude first.
    static let twoPlaces = "/table/v1/car/9.227200,45.478100;9.156000,45.503000"
    static let threePlaces = "/table/v1/car/9.227200,45.478100;9.156000,45.503000;9.190000,45.464200"

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/osrm/\(name)"))
    }

    static func place(_ name: String, _ c: Coordinate) -> [String: Any] {
        ["name": name, "latitude": c.latitude, "longitude": c.longitude]
    }

    static func event(_ title: String, _ start: String, _ end: String, _ place: [String: Any], modes: [String]) -> [String: Any] {
        ["title": title, "start": start, "end": end, "timeZone": "Europe/Rome", "place": place, "modes": modes]
    }

    /// Someone with a car, who would take transit at any hour.
    static var driver: [String: Any] { [
        "ecoMode": false, "maxWalkingMetres": 800, "maxBikingMetres": 20000, "ownsBike": false, "bikeSharing": false,
        "transitFrom": "05:00", "transitTo": "24:00", "ownsCar": true, "carSharing": false,
    ] }

    /// Lecture at Leonardo at 08:00, the Lab at Bovisa at 10:00, and with `seminar` one at the Duomo at 13:00.
    static func day(_ ctx: TestContext, modes: [String], seminar: Bool = false) async throws -> String {
        let me = try await ctx.device()
        #expect(try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: driver).status == .ok)
        var events = [event("Lecture", "2026-11-19T08:00", "2026-11-19T09:00", place("Politecnico – Leonardo", leonardo), modes: modes),
                      event("Lab", "2026-11-19T10:00", "2026-11-19T12:00", place("Politecnico – Bovisa", bovisa), modes: modes)]
        if seminar { events.append(event("Seminar", "2026-11-19T13:00", "2026-11-19T14:00", place("Duomo", duomo), modes: modes)) }
        for e in events { #expect(try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: e).status == .created) }
        return me.token
    }

    /// The day's steps by title.
    static func steps(_ ctx: TestContext, token: String) async throws -> [String: [String: Any]] {
        let plan = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: token)
        #expect(plan.status == .ok, "\(String(decoding: plan.body, as: UTF8.self))")
        return Dictionary(uniqueKeysWithValues: (plan.json["steps"] as? [[String: Any]] ?? []).compactMap { s in
            (s["title"] as? String).map { ($0, s) }
        })
    }

    /// A leg's or option's mode, minutes and metres; "", -1, -1 where missing.
    static func figures(_ leg: Any?) -> (mode: String, minutes: Int, metres: Int) {
        let leg = leg as? [String: Any]
        return (leg?["mode"] as? String ?? "", leg?["minutes"] as? Int ?? -1, leg?["metres"] as? Int ?? -1)
    }

    /// Runs `body` with a local router and an application whose car router it is; stops both.
    static func withCarRouter(_ db: TestDatabase, _ body: (TestContext, RecordedHTTPServer) async throws -> Void) async throws {
        let osrm = try await RecordedHTTPServer.start(path: "/table")
        do {
            try await TestApp.with(db, clock: TestClock(morning), configure: { fastHashing(&$0); $0.osrmCarURL = osrm.url }) { ctx in
                try await body(ctx, osrm)
            }
        } catch {
            try await osrm.stop()
            throw error
        }
        try await osrm.stop()
    }

    @Test("PLN-5 with a car router, a car trip between events takes the router's minutes (plus parking) and metres, asked for lon,lat in order",
          arguments: TestDatabase.available)
    func pln5CarRouter(db: TestDatabase) async throws {
        try await Self.withCarRouter(db) { ctx, osrm in
            osrm.respond(.init(status: .ok, body: try Self.fixture("table_car_leonardo_bovisa.json")), path: Self.twoPlaces)
            osrm.respond(.init(status: .ok, body: try Self.fixture("table_car_leonardo_bovisa_duomo.json")), path: Self.threePlaces)
            osrm.respond(.init(status: .notFound, body: Data()))
            let token = try await Self.day(ctx, modes: ["car"], seminar: true)
            let steps = try await Self.steps(ctx, token: token)

            // Leonardo → Bovisa: 1003.4 s is 17 minutes, and 5 to park; 7842.6 m.
            // Bovisa → Duomo: 1088.3 s is 19 minutes, and 5 to park; 6284.7 m.
            let parking = try #require(GroundDistanceEstimator().accessMinutes[.car])
            #expect(Self.figures(steps["Lab"]?["leg"]) == ("car", 17 + parking, 7843), "\(steps)")
            #expect(Self.figures(steps["Seminar"]?["leg"]) == ("car", 19 + parking, 6285))
            let ground = try #require(GroundDistanceEstimator().estimate(from: Self.leonardo, to: Self.bovisa, by: .car))
            #expect((ground.minutes, ground.metres) != (17 + parking, 7843), "the ground estimate differs, so the router's figures were used")
            let options = steps["Lab"]?["options"] as? [[String: Any]] ?? []
            #expect(options.map { Self.figures($0).minutes } == [17 + parking])

            // Adding the Lab asked for Leonardo and Bovisa, adding the Seminar for all three; the plan
            // itself found them all in the cache. Each place is longitude,latitude, in the day's order.
            #expect(osrm.requestPaths == [Self.twoPlaces, Self.threePlaces])
            #expect(osrm.requests == ["annotations=duration,distance", "annotations=duration,distance"])

            // Figures are kept an hour: after it the router is asked again.
            ctx.clock.advance(by: 3601)
            #expect(Self.figures(try await Self.steps(ctx, token: token)["Lab"]?["leg"]) == ("car", 17 + parking, 7843))
            #expect(osrm.requestPaths == [Self.twoPlaces, Self.threePlaces, Self.threePlaces])
        }
    }

    @Test("PLN-5 a router that answers 500, an OSRM error, or nothing in time leaves the plan on the ground estimate, and is not waited for again at once",
          arguments: TestDatabase.available)
    func pln5RouterDown(db: TestDatabase) async throws {
        try await Self.withCarRouter(db) { ctx, osrm in
            osrm.respond(.init(status: .internalServerError, body: Data("Internal Server Error".utf8)))
            let token = try await Self.day(ctx, modes: ["car"])
            let ground = try #require(GroundDistanceEstimator().estimate(from: Self.leonardo, to: Self.bovisa, by: .car))
            let expected = ("car", ground.minutes, ground.metres)

            var asked = osrm.requestPaths.count
            #expect(Self.figures(try await Self.steps(ctx, token: token)["Lab"]?["leg"]) == expected)
            #expect(osrm.requestPaths.count == asked + 1, "the plan asked the router")

            // OSRM's own error answer: HTTP 400 with a code other than Ok.
            osrm.respond(.init(status: .badRequest, body: try Self.fixture("invalid_query.json")))
            asked = osrm.requestPaths.count
            #expect(Self.figures(try await Self.steps(ctx, token: token)["Lab"]?["leg"]) == expected)
            #expect(osrm.requestPaths.count == asked + 1)

            // No answer within 5 seconds: the plan waits that long, no longer.
            osrm.respond(.init(status: .ok, body: try Self.fixture("table_car_leonardo_bovisa.json"), delay: .seconds(8)))
            let clock = ContinuousClock()
            let started = clock.now
            #expect(Self.figures(try await Self.steps(ctx, token: token)["Lab"]?["leg"]) == expected)
            let waited = clock.now - started
            #expect(waited >= .seconds(4) && waited < .seconds(8), "\(waited)")

            // Found unreachable, it is left alone for a while: the next plan does not wait for it.
            asked = osrm.requestPaths.count
            #expect(Self.figures(try await Self.steps(ctx, token: token)["Lab"]?["leg"]) == expected)
            #expect(osrm.requestPaths.count == asked)
        }
    }

    @Test("PLN-5 a pair the router has no route for (a null cell) is not offered by that mode, rather than guessed from the ground",
          arguments: TestDatabase.available)
    func pln5NoRoute(db: TestDatabase) async throws {
        try await Self.withCarRouter(db) { ctx, osrm in
            osrm.respond(.init(status: .ok, body: try Self.fixture("table_car_no_route.json")), path: Self.twoPlaces)
            osrm.respond(.init(status: .notFound, body: Data()))
            let token = try await Self.day(ctx, modes: ["car", "transit"])
            let lab = try #require(try await Self.steps(ctx, token: token)["Lab"])
            #expect(Self.figures(lab["leg"]).mode == "transit", "\(lab)")
            #expect((lab["options"] as? [[String: Any]])?.map { $0["mode"] as? String } == ["transit"])
            let refusals = lab["refusals"] as? [[String: Any]] ?? []
            #expect(refusals.contains { $0["mode"] as? String == "car" && $0["reason"] as? String == "No car route is known." }, "\(refusals)")
            #expect(osrm.requestPaths == [Self.twoPlaces])
        }
    }

    @Test("PLN-5 without a router configured nothing is asked and every trip is the ground estimate", arguments: TestDatabase.available)
    func pln5NoRouter(db: TestDatabase) async throws {
        try await TestApp.with(db, clock: TestClock(Self.morning), configure: fastHashing) { ctx in
            #expect(ctx.services.planner.plans.estimator is GroundDistanceEstimator)
            let token = try await Self.day(ctx, modes: ["car"])
            let ground = try #require(GroundDistanceEstimator().estimate(from: Self.leonardo, to: Self.bovisa, by: .car))
            #expect(Self.figures(try await Self.steps(ctx, token: token)["Lab"]?["leg"]) == ("car", ground.minutes, ground.metres))
        }
    }

    @Test("PLN-5 the router's figures are kept at most the cache's size, the oldest dropped, each for an hour")
    func pln5Cache() {
        var cache = RouteCache(capacity: 3, lifetime: 3600)
        let t = Self.morning
        let keys = (0..<4).map { RouteCache.Key(profile: .car, from: Coordinate(latitude: 45 + Double($0) / 100, longitude: 9), to: Self.duomo) }
        for (i, k) in keys.enumerated() { cache.store(.route(seconds: Double(i), metres: 1), for: k, at: t) }
        #expect(cache.count == 3 && cache.figure(keys[0], at: t) == nil && cache.figure(keys[3], at: t) == .route(seconds: 3, metres: 1))
        // Storing a pair again makes it the newest.
        cache.store(.noRoute, for: keys[1], at: t)
        cache.store(.route(seconds: 9, metres: 9), for: keys[0], at: t)
        #expect(cache.figure(keys[2], at: t) == nil && cache.figure(keys[1], at: t) == .noRoute)
        #expect(cache.figure(keys[0], at: t.addingTimeInterval(3599)) != nil && cache.figure(keys[0], at: t.addingTimeInterval(3600)) == nil)
        for i in 0..<100 { cache.store(.noRoute, for: keys[i % 4], at: t) }
        #expect(cache.count == 3)
    }

    @Test("PLN-5 a table request writes each place longitude first with six decimals")
    func pln5TableURL() {
        let url = OSRMRouter.tableURL(base: "http://osrm:5000/", profile: "foot",
                                      places: [Self.leonardo, Coordinate(latitude: -33.8688, longitude: -151.20931)])
        #expect(url == "http://osrm:5000/table/v1/foot/9.227200,45.478100;-151.209310,-33.868800?annotations=duration,distance")
    }
}
