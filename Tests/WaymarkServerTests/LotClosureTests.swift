import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Operators close a lot for dates (PRK-1)")
struct LotClosureTests {
    typealias T = TestContext
    // The test clock starts on Wednesday 18 November 2026, 09:00 in the site's zone.

    @Test("PRK-1 a closure refuses bookings for its dates with the dates and reason, cancels and refunds the bookings not started, tells their drivers, and is recorded; only the site's operators make or lift one",
          arguments: TestDatabase.available)
    func closureRefusesAndCancels(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            let code = try #require(sites.first { $0["id"] as? String == ctx.siteId }?["code"] as? String)
            let alice = try await ctx.register("alice"), driver = try await ctx.register("driver"), other = try await ctx.register("other")
            #expect(try await ctx.app.grantSiteOperator(siteCode: code, login: "alice") == .granted)
            #expect(try await ctx.topUp(driver.token, cents: 5000).status == .created)
            #expect(try await ctx.topUp(other.token, cents: 5000).status == .created)

            // Thursday's booking falls in the closure, Wednesday's (today, 10:00) does not.
            let thursday = try await ctx.book(driver.token, lot: lot, T.local(day: 19, 10), T.local(day: 19, 13))
            #expect(thursday.status == .created)
            let paid = (thursday.json["paid"] as? [String: Any])?["minorUnits"] as? Int
            let today = try await ctx.book(other.token, lot: lot, T.local(day: 18, 10), T.local(day: 18, 11))
            #expect(today.status == .created)
            let before = try await ctx.balance(driver.token)

            let path = "/v1/lots/\(lot)/closures"
            let body: [String: Any] = ["start": T.iso(T.local(day: 19, 0)), "end": T.iso(T.local(day: 21, 0)), "reason": "Resurfacing"]
            #expect(try await ctx.call(.POST, path, token: driver.token, json: body).status == .forbidden)
            #expect(try await ctx.call(.POST, path, json: body).status == .unauthorized)
            for (bad, words) in [(["reason": "  "], "Say why"), (["end": T.iso(T.local(day: 18, 8))], "end after it starts"),
                                 (["start": T.iso(T.local(day: 19, 0).addingTimeInterval(30))], "whole minute"),
                                 (["end": T.iso(T.local(day: 19, 0).addingTimeInterval(400 * 86_400))], "366 days")] as [([String: String], String)] {
                let r = try await ctx.call(.POST, path, token: alice.token, json: body.merging(bad) { $1 })
                #expect(r.status == .badRequest && r.problemType == "closure-invalid", "\(bad)")
                #expect((r.json["detail"] as? String ?? "").contains(words), "\(r.json)")
            }

            let added = try await ctx.call(.POST, path, token: alice.token, json: body)
            #expect(added.status == .created)
            #expect(added.json["cancelledBookings"] as? Int == 1, "Thursday's booking, not today's")
            let closure = try #require(added.json["closure"] as? [String: Any])
            #expect(closure["reason"] as? String == "Resurfacing")

            // The driver got their money back and was told, in words a person reads.
            let cancelled = try await ctx.call(.GET, "/v1/bookings/\(thursday.json["id"] as? String ?? "")", token: driver.token)
            #expect(cancelled.json["state"] as? String == "cancelled")
            #expect(try await ctx.balance(driver.token) == before + (paid ?? 0))
            let inbox = try await ctx.call(.GET, "/v1/me/notifications", token: driver.token).json["notifications"] as? [[String: Any]] ?? []
            let notice = try #require(inbox.first { $0["kind"] as? String == "booking-cancelled" })
            let text = (notice["title"] as? String ?? "") + " " + (notice["body"] as? String ?? "")
            #expect(text.contains("was cancelled") && text.contains("Resurfacing") && text.contains("Thu, Nov 19") && text.contains("refunded"), "\(text)")
            #expect(!text.contains("2026-") && !text.contains("T00:00"), "no ISO timestamps: \(text)")
            let othersToday = try await ctx.call(.GET, "/v1/bookings/\(today.json["id"] as? String ?? "")", token: other.token)
            #expect(othersToday.json["state"] as? String == "booked")

            // Bookings for those dates are refused saying when and why; the quote says so too.
            let refused = try await ctx.book(other.token, lot: lot, T.local(day: 20, 9), T.local(day: 20, 10))
            #expect(refused.status == .badRequest && refused.problemType == "booking-range-invalid")
            let detail = refused.json["detail"] as? String ?? ""
            #expect(detail.contains("closed") && detail.contains("Resurfacing") && detail.contains("Thu, Nov 19"), "\(detail)")
            let quote = try await ctx.call(.GET, "/v1/lots/\(lot)/booking-quote?start=\(T.iso(T.local(day: 20, 9)))&end=\(T.iso(T.local(day: 20, 10)))")
            #expect(quote.json["bookable"] as? Bool == false)
            let moved = try await ctx.call(.PATCH, "/v1/bookings/\(today.json["id"] as? String ?? "")", token: other.token,
                                           json: ["start": T.iso(T.local(day: 20, 10)), "end": T.iso(T.local(day: 20, 11))])
            #expect(moved.problemType == "booking-range-invalid", "a change into the dates too")
            #expect(try await ctx.book(other.token, lot: lot, T.local(day: 21, 9), T.local(day: 21, 10)).status == .created, "open again after it")

            // A closure under way now refuses holds too, saying why.
            let free = try await ctx.freeLot("L")
            ctx.clock.advance(by: 60)  // a minute later, so the record lists the closures in order
            let now = try await ctx.call(.POST, path, token: alice.token,
                                         json: ["start": T.iso(ctx.clock.now), "end": T.iso(ctx.clock.now.addingTimeInterval(1800)), "reason": "Line painting"])
            #expect(now.status == .created)
            let hold = try await ctx.call(.POST, "/v1/holds", token: other.token, json: ["spotId": free.spots[0]])
            #expect(hold.status == .conflict && hold.problemType == "lot-closed")
            #expect((hold.json["detail"] as? String ?? "").contains("Line painting"), "\(hold.json)")
            ctx.clock.advance(by: 1800)
            #expect(try await ctx.call(.POST, "/v1/holds", token: other.token, json: ["spotId": free.spots[0]]).status == .created, "open again after it")

            // Anyone reads them; lifting is for operators and is recorded.
            let listed = try await ctx.json(path)["closures"] as? [[String: Any]] ?? []
            #expect(listed.map { $0["reason"] as? String } == ["Resurfacing"])
            let one = "\(path)/\(closure["id"] as? String ?? "")"
            #expect(try await ctx.call(.DELETE, one, token: driver.token).status == .forbidden)
            #expect(try await ctx.call(.DELETE, "\(path)/\(UUID().uuidString)", token: alice.token).status == .notFound)
            ctx.clock.advance(by: 60)  // a minute later, so the record lists the two in order
            #expect(try await ctx.call(.DELETE, one, token: alice.token).status == .noContent)
            #expect((try await ctx.json(path)["closures"] as? [Any])?.isEmpty == true)
            #expect(try await ctx.book(other.token, lot: lot, T.local(day: 20, 9), T.local(day: 20, 10)).status == .created)
            #expect(try await ctx.call(.GET, "/v1/lots/\(UUID().uuidString)/closures").status == .notFound)

            let changes = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/changes", token: alice.token).json["changes"] as? [[String: Any]] ?? []
            #expect(changes.prefix(2).map { $0["action"] as? String } == ["closureLifted", "closureAdded"])
            let summary = changes.last?["summary"] as? String ?? ""
            #expect(summary.hasPrefix("Closed ") && summary.contains("(Resurfacing); cancelled 1 booking") && summary.contains("Thu, Nov 19"), "\(summary)")
        }
    }

    @Test("PRK-1 bookings racing a closure: every one either is refused or ends cancelled and refunded; none stands in the closed dates",
          arguments: TestDatabase.available)
    func bookingsRacingAClosure(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let sites = try await ctx.json("/v1/sites")["sites"] as? [[String: Any]] ?? []
            let code = try #require(sites.first { $0["id"] as? String == ctx.siteId }?["code"] as? String)
            let boss = try await ctx.register("boss")
            #expect(try await ctx.app.grantSiteOperator(siteCode: code, login: "boss") == .granted)
            let drivers = try await ctx.members(5, cents: 5000).map(\.token)
            let start = T.local(day: 19, 10), end = T.local(day: 19, 12)
            let from = T.iso(T.local(day: 19, 0)), to = T.iso(T.local(day: 20, 0))
            // (who, status, problem type, booking id)
            let outcomes = try await withThrowingTaskGroup(of: (String, UInt, String?, String?).self) { group in
                for token in drivers {
                    group.addTask {
                        let r = try await ctx.book(token, lot: lot, start, end)
                        return (token, r.status.code, r.problemType, r.json["id"] as? String)
                    }
                }
                group.addTask {
                    let r = try await ctx.call(.POST, "/v1/lots/\(lot)/closures", token: boss.token,
                                               json: ["start": from, "end": to, "reason": "Graduation"])
                    return ("boss", r.status.code, r.problemType, "\(r.json["cancelledBookings"] as? Int ?? -1)")
                }
                return try await group.reduce(into: [(String, UInt, String?, String?)]()) { $0.append($1) }
            }
            let added = try #require(outcomes.first { $0.0 == "boss" })
            #expect(added.1 == 201)
            var booked = 0
            for (token, status, problem, id) in outcomes where token != "boss" {
                if status == 201 {
                    booked += 1
                    let now = try await ctx.call(.GET, "/v1/bookings/\(id ?? "")", token: token)
                    #expect(now.json["state"] as? String == "cancelled", "booked before the closure, cancelled by it")
                } else {
                    #expect(problem == "booking-range-invalid")
                }
                #expect(try await ctx.balance(token) == 5000, "refunded or never charged")
            }
            try await ctx.checkLedger()
            #expect(added.3 == "\(booked)")
        }
    }
}
