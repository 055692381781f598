import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Weekly bookings on the server (PRK-12)")
struct BookingSeriesTests {
    typealias T = TestContext
    // The test clock starts on Wednesday 18 November 2026, 09:00 in the site's zone; Thursday is 5.
    static let thu10 = T.local(day: 19, 10), thu13 = T.local(day: 19, 13)
    static let week: TimeInterval = 7 * 86_400

    static func request(_ lot: String, until: String = "2026-12-17", weekdays: [Int] = [5]) -> [String: Any] {
        ["lotId": lot, "start": T.iso(thu10), "end": T.iso(thu13), "weekdays": weekdays, "until": until]
    }

    func series(_ ctx: TestContext, _ token: String?, _ body: [String: Any], key: String? = nil) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        return try await ctx.call(.POST, "/v1/booking-series", token: token, json: body, headers: headers)
    }

    func minor(_ value: Any?) -> Int? { (value as? [String: Any])?["minorUnits"] as? Int }

    @Test("PRK-12 every Thursday 10:00–13:00 until Dec 17: each date booked and paid on its own, a date that cannot be booked skipped with why, cancelled one by one or all at once",
          arguments: TestDatabase.available)
    func weeklyFlow(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try await ctx.register("weekly")
            _ = try await ctx.topUp(me.token, cents: 5000)
            // Two bookings of my own on Dec 3 already: a third at that time passes the limit of 2.
            let dec3 = Self.thu10.addingTimeInterval(2 * Self.week), dec3End = Self.thu13.addingTimeInterval(2 * Self.week)
            for _ in 0..<2 { #expect(try await ctx.book(me.token, lot: lot, dec3, dec3End).status == .created) }

            let quote = try await ctx.call(.POST, "/v1/booking-series/quote", json: Self.request(lot))
            #expect(quote.status == .ok)
            let dates = quote.json["occurrences"] as? [[String: Any]] ?? []
            #expect(dates.map { $0["start"] as? String } == (0..<5).map { T.iso(Self.thu10.addingTimeInterval(Double($0) * Self.week)) })
            #expect(dates.allSatisfy { minor($0["total"]) == 780 && $0["available"] as? Bool == true },
                    "the quote is the lot's: the person's own limit is checked when booking")
            #expect(minor(quote.json["total"]) == 5 * 780)
            let summary = quote.json["summary"] as? String ?? ""
            #expect(summary.hasPrefix("Every Thursday, 10:00") && summary.contains("1:00") && summary.contains("Dec 17, 2026"), "\(summary)")

            let made = try await series(ctx, me.token, Self.request(lot))
            #expect(made.status == .created, "\(made.json)")
            let bookings = made.json["bookings"] as? [[String: Any]] ?? []
            let seriesId = try #require(made.json["id"] as? String)
            #expect(bookings.count == 4)
            #expect(bookings.allSatisfy { $0["seriesId"] as? String == seriesId && $0["state"] as? String == "booked" && minor($0["paid"]) == 780 })
            let skipped = made.json["skipped"] as? [[String: Any]] ?? []
            #expect(skipped.map { $0["start"] as? String } == [T.iso(dec3)])
            #expect((skipped.first?["reason"] as? String)?.contains("at most 2 may overlap") == true, "\(skipped)")
            #expect(try await ctx.balance(me.token) == 5000 - 6 * 780)
            let payments = try await ctx.services.store.sql.raw("""
                SELECT COUNT(*) AS n FROM ledger_transactions t JOIN bookings b ON b.id = t.reference WHERE b.series_id = \(bind: seriesId)
                """).first()?.decode(column: "n", as: Int.self)
            #expect(payments == 4, "one payment per date")

            // One date cancelled alone, then the rest together; every one refunded.
            let second = try #require(bookings[1]["id"] as? String)
            #expect(try await ctx.call(.POST, "/v1/bookings/\(second)/cancel", token: me.token).json["state"] as? String == "cancelled")
            #expect(try await ctx.balance(me.token) == 5000 - 5 * 780)
            let fetched = try await ctx.call(.GET, "/v1/booking-series/\(seriesId)", token: me.token)
            #expect((fetched.json["bookings"] as? [[String: Any]])?.map { $0["state"] as? String } == ["booked", "cancelled", "booked", "booked"])
            // The date left out is still told, with why, when the series is read again.
            let kept = fetched.json["skipped"] as? [[String: Any]] ?? []
            #expect(kept.map { $0["start"] as? String } == [T.iso(dec3)])
            #expect(kept.first?["reason"] as? String == skipped.first?["reason"] as? String)
            let cancelled = try await ctx.call(.POST, "/v1/booking-series/\(seriesId)/cancel", token: me.token)
            #expect((cancelled.json["bookings"] as? [[String: Any]])?.allSatisfy { $0["state"] as? String == "cancelled" } == true)
            #expect(try await ctx.balance(me.token) == 5000 - 2 * 780)
            #expect(try await ctx.call(.POST, "/v1/booking-series/\(seriesId)/cancel", token: me.token).status == .ok, "again: nothing changes")
            #expect(try await ctx.balance(me.token) == 5000 - 2 * 780)
            try await ctx.checkLedger()

            // Someone else's series is unknown; a guest has none; a stranger is asked to sign in.
            let other = try await ctx.register("other")
            #expect(try await ctx.call(.GET, "/v1/booking-series/\(seriesId)", token: other.token).status == .notFound)
            #expect(try await ctx.call(.POST, "/v1/booking-series/\(seriesId)/cancel", token: other.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/booking-series/not-a-uuid", token: me.token).status == .notFound)
            #expect(try await series(ctx, try await ctx.device().token, Self.request(lot)).problemType == "account-required")
            #expect(try await series(ctx, nil, Self.request(lot)).status == .unauthorized)
        }
    }

    @Test("PRK-12 a weekly booking that cannot be made says why: days, reach, count, money, a lot without bookings",
          arguments: TestDatabase.available)
    func refusals(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L"), structure = try await ctx.lotId("S")
            let poor = try await ctx.register("poor")
            _ = try await ctx.topUp(poor.token, cents: 1000)
            let cases: [([String: Any], String)] = [
                (Self.request(lot, weekdays: [3]), "The first booking is on a Thursday"),
                (Self.request(lot, until: "2026-11-01"), "ends before the first booking"),
                (Self.request(lot, until: "2027-12-01"), "at most 200 days ahead"),
                (Self.request(lot, until: "2027-05-20", weekdays: [1, 2, 3, 4, 5, 6, 7]), "at most 60"),
                (Self.request(lot, until: "soon"), "not a date"),
            ]
            for (body, why) in cases {
                for r in [try await series(ctx, poor.token, body), try await ctx.call(.POST, "/v1/booking-series/quote", json: body)] {
                    #expect(r.status == .badRequest, "\(why)")
                    #expect(r.problemType == "booking-series-invalid", "\(why)")
                    #expect((r.json["detail"] as? String)?.contains(why) == true, "\(why): \(r.json["detail"] ?? "")")
                }
            }
            #expect(try await series(ctx, poor.token, Self.request(lot, weekdays: [8])).status == .badRequest)
            let broke = try await series(ctx, poor.token, Self.request(lot))
            #expect(broke.status == .paymentRequired)
            #expect((broke.json["detail"] as? String)?.contains("These 5 bookings cost 39.00 USD together") == true, "\(broke.json)")
            let mine = try await ctx.call(.GET, "/v1/bookings", token: poor.token).json["bookings"] as? [Any] ?? []
            #expect(mine.isEmpty, "nothing is booked when the wallet cannot pay for every date")
            let rows = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM booking_series").first()?.decode(column: "n", as: Int.self)
            #expect(rows == 0)
            #expect(try await series(ctx, poor.token, Self.request(structure)).problemType == "lot-not-bookable")
        }
    }

    @Test("PRK-12 weekly bookings under concurrency: 12 people book the same five Thursdays while 40 single bookings race for them; no Thursday is ever oversold and every booking is paid once",
          arguments: TestDatabase.available)
    func neverOversold(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let weekly = try await ctx.members(12, cents: 10_000), single = try await ctx.members(40, cents: 1000)
            let made = try await withThrowingTaskGroup(of: Int.self) { group in
                for m in weekly {
                    group.addTask { (try await series(ctx, m.token, Self.request(lot)).json["bookings"] as? [Any])?.count ?? 0 }
                }
                for (i, m) in single.enumerated() {
                    group.addTask {
                        let shift = Double(i % 5) * Self.week
                        let r = try await ctx.book(m.token, lot: lot, Self.thu10.addingTimeInterval(shift), Self.thu13.addingTimeInterval(shift))
                        return r.status == .created ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
            let perDay = try await ctx.services.store.sql.raw("""
                SELECT start_at, COUNT(*) AS n FROM bookings WHERE state = 'booked' GROUP BY start_at ORDER BY start_at
                """).all().map { try $0.decode(column: "n", as: Int.self) }
            #expect(perDay == [5, 5, 5, 5, 5], "the lot sets aside 5 spaces for bookings")
            #expect(made == 25)
            let payments = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM ledger_transactions WHERE movement = 'bookingPayment'")
                .first()?.decode(column: "n", as: Int.self)
            #expect(payments == 25)
            try await ctx.checkLedger()
        }
    }
}
