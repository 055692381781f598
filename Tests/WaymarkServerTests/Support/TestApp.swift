import Foundation
import Vapor
import VaporTesting
import WaymarkCore
@testable import WaymarkServer

/// A running application on a fresh database with a small fixture site and a gateway key.
struct TestContext: Sendable {
    let app: Application
    let clock: TestClock
    let siteId: String
    let gatewayKey: String
    let database: TestDatabase

    var tester: any TestingApplicationTester { get throws { try app.testing() } }
    var services: WaymarkServices { app.waymark }
}

enum TestApp {
    /// Runs `body` with a new application; shuts it down and drops the database afterwards.
    static func with(
        _ database: TestDatabase,
        clock: TestClock = TestClock(),
        site: SitePlan = Fixtures.smallSite,
        configure: (inout WaymarkConfiguration) -> Void = { _ in },
        _ body: (TestContext) async throws -> Void
    ) async throws {
        let (location, drop) = try await database.make(site: site, loadedAt: clock.now)
        var config = WaymarkConfiguration()
        config.database = location
        config.runJobs = false
        config.logLevel = "warning"
        // Tests fire hundreds of writes per token at once on purpose; `RateLimitTests` turns
        // the write budget back on to check it.
        config.writeRatePerSecond = 0
        // Never the real weather service: tests that need one serve recorded answers (`RecordedHTTPServer`).
        config.weatherURL = nil
        // bcrypt's lowest cost: a quarter of a second per password at the default would be
        // most of some tests' time. ACC-6's own test checks the default cost.
        config.passwordHashCost = 4
        configure(&config)
        let app = try await buildApplication(config, now: clock.function)
        do {
            let services = app.waymark
            var loader = DemoLoader(store: services.store, now: clock.function, logger: app.logger)
            loader.plan = site
            loader.synthesizeActivity = false
            let siteId = try await loader.loadIfMissing()
            try await services.parking.reloadSensorIndex()
            let key = try await app.createGateway(name: "test-gateway")
            try await body(TestContext(app: app, clock: clock, siteId: siteId, gatewayKey: key, database: database))
        } catch {
            try? await app.asyncShutdown()
            await drop()
            throw error
        }
        try await app.asyncShutdown()
        await drop()
    }
}

enum Fixtures {
    static let origin = Coordinate(latitude: 33.8823, longitude: -117.8851)

    static func square(_ center: Coordinate, side: Double) -> [Coordinate] {
        [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { Geo.offset(center, east: $0.0 * side / 2, north: $0.1 * side / 2) }
    }

    /// Two lots: a two-level structure of 20 spots ("S", Green permit on weekdays) and a
    /// surface lot of 10 ("L", open to all, keys left with an attendant, 5 spaces bookable at
    /// `bookingOffer`), 200 m apart.
    static let smallSite: SitePlan = {
        let s = Geo.offset(origin, east: -100, north: 0)
        let l = Geo.offset(origin, east: 100, north: 0)
        let price = LotPrice(currency: "USD", hourlyCents: 200, dailyMaxCents: 1000)
        return SitePlan(
            code: "test", name: "Test Campus", timeZone: "America/Los_Angeles", center: origin,
            lots: [
                LotPlan(code: "S", name: "Test Structure", kind: .structure, levels: 2, footprint: square(s, side: 60),
                        entrance: Geo.offset(s, east: 0, north: -30), capacity: 20, handicapSpots: 2, evSpots: 1,
                        permitRules: [PermitRule(weekdays: PermitRule.weekdaysMondayToFriday, startMinute: 420, endMinute: 1320, permits: [.green])],
                        hours: [], price: price, rules: [], address: "1 Test Way"),
                LotPlan(code: "L", name: "Test Lot", kind: .surface, levels: 1, footprint: square(l, side: 40),
                        entrance: Geo.offset(l, east: 0, north: -20), capacity: 10, handicapSpots: 1, evSpots: 0,
                        permitRules: [], hours: [], price: price, rules: ["No overnight parking"], address: "2 Test Way",
                        keysRequired: true, booking: bookingOffer),
            ],
            permits: DemoCampus.fullerton.permits)
    }()

    /// Lot L's bookings (PRK-12): $3.00 a day covers the first hour, then 4¢ a minute, at most
    /// $15.00 a day; open 06:00–23:00 on weekdays, all day at weekends.
    static let bookingOffer = BookingOffer(capacity: 5, pricing: LotPricing(
        currency: "USD", dailyFeeMinor: 300, includedMinutesPerDay: 60, rateMinor: 4, rateUnitMinutes: 1, dailyCapMinor: 1_500,
        hours: [OpeningHours(weekdays: [2, 3, 4, 5, 6], openMinute: 6 * 60, closeMinute: 23 * 60),
                OpeningHours(weekdays: [1, 7], openMinute: 0, closeMinute: 24 * 60)]))

    static func sensorIds(lot code: String) -> [String] {
        guard let lot = smallSite.lot(code: code) else { return [] }
        return SpotLayout.spots(for: lot, siteCode: smallSite.code).map(\.sensorId)
    }
}

extension TestContext {
    /// POSTs a gateway batch and decodes the result.
    func ingest(_ events: [[String: any Sendable]], key: String? = nil) async throws -> (status: HTTPStatus, body: [String: Any]) {
        let data = try JSONSerialization.data(withJSONObject: ["events": events])
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        headers.add(name: .authorization, value: "Bearer \(key ?? gatewayKey)")
        let res = try await tester.sendRequest(.POST, "/v1/gateway/events", headers: headers, body: ByteBuffer(data: data))
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: res.body))) as? [String: Any] ?? [:]
        return (res.status, json)
    }

    func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> TestingHTTPResponse {
        try await tester.sendRequest(.GET, path, headers: headers)
    }

    func json(_ path: String) async throws -> [String: Any] {
        let res = try await get(path)
        return (try JSONSerialization.jsonObject(with: Data(buffer: res.body))) as? [String: Any] ?? [:]
    }

    func lotIds() async throws -> [String: String] {
        let lots = try await json("/v1/sites/\(siteId)/lots")["lots"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: lots.map { ($0["code"] as! String, $0["id"] as! String) })
    }

    func states(lotId: String) async throws -> String {
        try await json("/v1/lots/\(lotId)/spot-states")["states"] as? String ?? ""
    }

    static func event(_ sensor: String, _ occupied: Bool, at: Date, seq: Int) -> [String: any Sendable] {
        ["sensorId": sensor, "occupied": occupied, "observedAt": ISO8601DateFormatter().string(from: at), "sequence": seq]
    }
}
