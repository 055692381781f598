import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Operator analytics (PRK-17)")
struct OperatorAnalyticsTests {
    /// The small site with both lots taking bookings, so that lots can be ranked.
    static let site: SitePlan = {
        var plan = Fixtures.smallSite
        for i in plan.lots.indices { plan.lots[i].booking = Fixtures.bookingOffer }
        return plan
    }()

    /// A wall-clock time in the test site's zone (America/Los_Angeles), 2026.
    static func la(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        return calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
    }

    static func analytics(_ ctx: TestContext, _ token: String?, _ query: String = "") async throws -> TestResponse {
        try await ctx.call(.GET, "/v1/operator/analytics" + query, token: token)
    }

    @Test("PRK-17 reserving share per site-local day, peak lots from 06:30 to 09:30 across the DST change, modifications, slow operations",
          arguments: TestDatabase.available)
    func figures(db: TestDatabase) async throws {
        let clock = TestClock(Self.la(10, 30, 10))
        try await TestApp.with(db, clock: clock, site: Self.site, configure: bookingConfig) { ctx in
            let olive = try await ctx.register("olive", email: "olive@example.com")
            #expect(try await ctx.app.grantOperator(login: "olive@example.com"), "granted the way `waymark operator grant` does")
            let m = try await ctx.members(6, cents: 5_000)
            let (a, b, c, d, e, f) = (m[0].token, m[1].token, m[2].token, m[3].token, m[4].token, m[5].token)
            let lotL = try await ctx.lotId("L"), lotS = try await ctx.lotId("S")

            func book(_ token: String, _ lot: String, _ start: Date, _ end: Date) async throws -> String {
                let res = try await ctx.book(token, lot: lot, start, end)
                guard res.status == .created, let id = res.json["id"] as? String else {
                    throw TestFailure("book: \(res.status) \(String(decoding: res.body, as: UTF8.self))")
                }
                return id
            }
            func move(_ token: String, _ id: String, _ start: Date, _ end: Date) async throws {
                let res = try await ctx.call(.PATCH, "/v1/bookings/\(id)", token: token,
                                             json: ["start": TestContext.iso(start), "end": TestContext.iso(end)])
                #expect(res.status == .ok, "\(String(decoding: res.body, as: UTF8.self))")
            }

            // Friday 30 October: e books, f only looks.
            _ = try await book(e, lotS, Self.la(10, 31, 8), Self.la(10, 31, 9))             // S, peak (PDT)
            #expect(try await ctx.call(.GET, "/v1/me", token: f).status == .ok)

            // Saturday 31 October, 23:30 PDT: already 1 November in UTC.
            clock.set(Self.la(10, 31, 23, 30))
            let aBooking = try await book(a, lotL, Self.la(11, 1, 7), Self.la(11, 1, 8))    // L, peak on the fall-back day (PST)
            let bBooking = try await book(b, lotL, Self.la(11, 2, 6, 30), Self.la(11, 2, 7)) // L, 06:30 is in

            // Sunday 1 November, 00:30, before the clocks go back.
            clock.set(Self.la(11, 1, 0, 30))
            _ = try await book(c, lotL, Self.la(11, 2, 9, 29), Self.la(11, 2, 10))           // L, 09:29 is in
            _ = try await book(c, lotL, Self.la(11, 2, 9, 30), Self.la(11, 2, 11))           // 09:30 is out
            _ = try await book(c, lotS, Self.la(11, 1, 9), Self.la(11, 1, 9, 30))            // S, 09:00 PST (10:00 on a PDT clock) is in
            let dEarly = try await book(d, lotL, Self.la(11, 2, 6, 29), Self.la(11, 2, 7))   // 06:29 is out
            _ = try await book(d, lotS, Self.la(11, 1, 6), Self.la(11, 1, 7))                // 06:00 PST (07:00 on a PDT clock) is out
            let dCancelled = try await book(d, lotS, Self.la(11, 2, 7), Self.la(11, 2, 8))   // peak, but cancelled
            #expect(try await ctx.call(.POST, "/v1/bookings/\(dCancelled)/cancel", token: d).status == .ok)
            try await move(a, aBooking, Self.la(11, 1, 7, 15), Self.la(11, 1, 8))
            try await move(a, aBooking, Self.la(11, 1, 7, 30), Self.la(11, 1, 8, 30))
            try await move(b, bBooking, Self.la(11, 2, 6, 30), Self.la(11, 2, 7, 30))
            for end in [10, 20, 30] { try await move(d, dEarly, Self.la(11, 2, 6, 29), Self.la(11, 2, 7, end)) }

            // Monday 2 November, 05:00 PST: the operator looks.
            clock.set(Self.la(11, 2, 5))
            let res = try await Self.analytics(ctx, olive.token, "?from=2026-10-30&to=2026-11-02")
            #expect(res.status == .ok, "\(String(decoding: res.body, as: UTF8.self))")
            let json = res.json
            #expect(json["timeZone"] as? String == "America/Los_Angeles")
            #expect(json["from"] as? String == "2026-10-30" && json["to"] as? String == "2026-11-02")

            let days = json["days"] as? [[String: Any]] ?? []
            #expect(days.map { $0["date"] as? String ?? "" } == ["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"])
            #expect(days.map { $0["activeUsers"] as? Int ?? -1 } == [2, 2, 4, 1],
                    "e and f; a and b; c, d and the two who changed bookings; the operator asking now")
            #expect(days.map { $0["bookingUsers"] as? Int ?? -1 } == [1, 2, 2, 0], "23:30 PDT on the 31st is the 31st, not UTC's 1st")
            #expect(days.map { $0["share"] as? Double ?? -1 } == [0.5, 1, 0.5, 0])

            let peak = json["peak"] as? [String: Any] ?? [:]
            #expect(peak["startMinute"] as? Int == 390 && peak["endMinute"] as? Int == 570)
            let lots = peak["lots"] as? [[String: Any]] ?? []
            #expect(lots.map { $0["code"] as? String ?? "" } == ["L", "S"])
            #expect(lots.map { $0["bookings"] as? Int ?? -1 } == [3, 2])
            #expect(lots.first?["name"] as? String == "Test Lot")

            let mods = json["modifications"] as? [String: Any] ?? [:]
            #expect(mods["bookings"] as? Int == 9)
            #expect(mods["total"] as? Int == 6)
            #expect(abs((mods["mean"] as? Double ?? 0) - 6.0 / 9.0) < 1e-9)
            #expect([mods["never"], mods["once"], mods["twice"], mods["threeOrMore"]].map { $0 as? Int } == [6, 1, 1, 1])

            let slowest = json["slowestOperations"] as? [[String: Any]] ?? []
            let createBooking = try #require(slowest.first { $0["operationId"] as? String == "createBooking" })
            #expect(createBooking["count"] as? Int == 9)
            let p95s = slowest.map { $0["p95Ms"] as? Double ?? -1 }
            #expect(p95s == p95s.sorted(by: >), "slowest first")
            #expect(slowest.allSatisfy { ($0["p50Ms"] as? Double ?? -1) <= ($0["p95Ms"] as? Double ?? -1) && ($0["p95Ms"] as? Double ?? -1) <= ($0["p99Ms"] as? Double ?? -1) })
            #expect(!slowest.contains { $0["operationId"] as? String == "streamSiteLive" })

            // Only the days asked for: the 1st alone has one peak booking in each lot.
            let first = try await Self.analytics(ctx, olive.token, "?from=2026-11-01&to=2026-11-01").json
            let firstLots = (first["peak"] as? [String: Any])?["lots"] as? [[String: Any]] ?? []
            #expect(Set(firstLots.map { $0["code"] as? String ?? "" }) == ["L", "S"], "a tie, in the order of the lots' ids")
            #expect(firstLots.map { $0["bookings"] as? Int ?? -1 } == [1, 1])
            #expect(firstLots.map { $0["lotId"] as? String ?? "" } == [lotL, lotS].sorted())
            #expect((first["modifications"] as? [String: Any])?["bookings"] as? Int == 6)

            // Without dates: the 14 days up to today.
            let recent = try await Self.analytics(ctx, olive.token).json
            #expect(recent["from"] as? String == "2026-10-20" && recent["to"] as? String == "2026-11-02")
            #expect((recent["days"] as? [Any])?.count == 14)
        }
    }

    @Test("PRK-17 only operators: 401 without a session, 403 operator-required for members and guests, 400 for bad ranges; Me says isOperator",
          arguments: TestDatabase.available)
    func access(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let op = try await ctx.register("opal", email: "Opal@Example.com")
            let member = try await ctx.register("milo")
            let guest = try await ctx.device()
            #expect(try await ctx.app.grantOperator(login: "opal@example.com"), "an email address in any case")
            #expect(try await ctx.app.grantOperator(login: "opal"), "granting twice is harmless")
            #expect(try await !ctx.app.grantOperator(login: "nobody@example.com"))
            #expect(try await ctx.app.listOperators().map(\.username) == ["opal"])

            #expect(try await Self.analytics(ctx, nil).status == .unauthorized)
            #expect(try await Self.analytics(ctx, "not-a-token").status == .unauthorized)
            for token in [member.token, guest.token] {
                let refused = try await Self.analytics(ctx, token)
                #expect(refused.status == .forbidden)
                #expect(refused.problemType == "operator-required")
            }
            #expect(try await Self.analytics(ctx, op.token).status == .ok)
            #expect(try await ctx.call(.GET, "/v1/me", token: op.token).json["isOperator"] as? Bool == true)
            #expect(try await ctx.call(.GET, "/v1/me", token: member.token).json["isOperator"] as? Bool == false)
            #expect(try await ctx.call(.GET, "/v1/me", token: guest.token).json["isOperator"] as? Bool == false)

            for query in ["?from=2026-13-01", "?to=2026-02-30", "?from=yesterday", "?from=2026-11-18&to=2026-11-17",
                          "?from=2026-08-01&to=2026-11-18", "?from=2026-11-18T00:00", "?to=%00", "?from="] {
                let bad = try await Self.analytics(ctx, op.token, query)
                #expect(bad.status == .badRequest, "\(query)")
                #expect(bad.problemType == "bad-request", "\(query)")
            }
            #expect(try await Self.analytics(ctx, op.token, "?from=2026-08-19&to=2026-11-18").status == .ok, "92 days")

            #expect(try await ctx.app.revokeOperator(login: "opal"))
            #expect(try await !ctx.app.revokeOperator(login: "opal"))
            #expect(try await Self.analytics(ctx, op.token).status == .forbidden)
            #expect(try await ctx.call(.GET, "/v1/me", token: op.token).json["isOperator"] as? Bool == false)
        }
    }

    @Test("PRK-17 activity: one row per account and site-local day (not UTC), none for guests; writing it again is harmless",
          arguments: TestDatabase.available)
    func activityDays(db: TestDatabase) async throws {
        let clock = TestClock(Self.la(11, 18, 23, 50))
        try await TestApp.with(db, clock: clock, configure: bookingConfig) { ctx in
            let member = try await ctx.register("abel")
            let guest = try await ctx.device()
            for _ in 0..<5 {
                #expect(try await ctx.call(.GET, "/v1/me", token: member.token).status == .ok)
                #expect(try await ctx.call(.GET, "/v1/me", token: guest.token).status == .ok)
            }
            clock.set(Self.la(11, 19, 0, 10))  // 08:10 UTC: a new local day
            #expect(try await ctx.call(.GET, "/v1/me/permits", token: member.token).status == .ok)
            // Another server process (or a restart) writes the same row again without harm.
            await ctx.services.operations.activity.record(userId: member.id, at: clock.now)
            let fresh = ActivityRecorder(store: ctx.services.store, zone: AnalyticsZone(store: ctx.services.store), logger: ctx.app.logger)
            await fresh.record(userId: member.id, at: clock.now)
            let rows = try await ctx.services.store.sql.raw("SELECT user_id, day FROM user_activity_days ORDER BY day").all()
            #expect(try rows.map { try $0.decode(column: "day", as: String.self) } == ["2026-11-18", "2026-11-19"])
            #expect(try rows.allSatisfy { try $0.decode(column: "user_id", as: String.self) == member.id })
        }
    }
}
