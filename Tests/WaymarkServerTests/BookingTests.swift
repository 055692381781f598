import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer
import WaymarkAPI

func bookingConfig(_ c: inout WaymarkConfiguration) {
    c.passwordHashCost = 4
    c.demoPayments = true
    c.identityLimitPerAddress = 100_000
}

@Suite("Paid bookings on the server (PRK-12, PRK-13)")
struct BookingTests {
    typealias T = TestContext
    // The test clock starts on Wednesday 18 November 2026, 09:00 in the site's zone.
    static let thu10 = T.local(day: 19, 10), thu13 = T.local(day: 19, 13)

    func quote(_ ctx: TestContext, _ lot: String, _ start: Date, _ end: Date) async throws -> TestResponse {
        try await ctx.call(.GET, "/v1/lots/\(lot)/booking-quote?start=\(T.iso(start))&end=\(T.iso(end))")
    }

    func minor(_ value: Any?) -> Int? { (value as? [String: Any])?["minorUnits"] as? Int }

    @Test("PRK-12 a booking is priced by the lot's tariff, paid up front from the wallet, and refused with a clear problem when it cannot be made",
          arguments: TestDatabase.available)
    func bookingFlow(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L"), structure = try await ctx.lotId("S")
            let lots = try await ctx.json("/v1/sites/\(ctx.siteId)/lots")["lots"] as? [[String: Any]] ?? []
            let offer = try #require(lots.first { $0["code"] as? String == "L" }?["booking"] as? [String: Any])
            #expect(offer["bookableCapacity"] as? Int == 5)
            #expect((offer["tariff"] as? [String: Any])?["dailyFeeMinor"] as? Int == 300)
            #expect(lots.first { $0["code"] as? String == "S" }?["booking"] == nil, "S takes no bookings")

            // $3.00 covers the first hour; 120 more minutes at 4¢.
            let q = try await quote(ctx, lot, Self.thu10, Self.thu13)
            #expect(q.status == .ok)
            #expect(minor(q.json["total"]) == 780)
            #expect((q.json["days"] as? [Any])?.count == 1)
            #expect(q.json["available"] as? Bool == true)
            #expect(q.json["bookable"] as? Bool == true)
            #expect(q.json["problem"] == nil)
            #expect(q.json["spacesLeft"] as? Int == 5)
            // Saturday 22:00 to Sunday 02:00 touches two site-local days: 2 × ($3.00 + 60 × 4¢).
            let overnight = try await quote(ctx, lot, T.local(day: 21, 22), T.local(day: 22, 2))
            #expect(minor(overnight.json["total"]) == 1080)
            #expect((overnight.json["days"] as? [[String: Any]])?.map { minor($0["total"]) } == [540, 540])

            let me = try await ctx.register("booker")
            let topped = try await ctx.topUp(me.token, cents: 5000)
            #expect(topped.status == .created)
            #expect(minor(topped.json["balance"]) == 5000)
            #expect((topped.json["line"] as? [String: Any])?["movement"] as? String == "topUp")

            let booked = try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13)
            #expect(booked.status == .created)
            #expect(booked.json["state"] as? String == "booked")
            #expect(minor(booked.json["paid"]) == 780)
            #expect(booked.json["lotCode"] as? String == "L")
            #expect(booked.json["timeZone"] as? String == "America/Los_Angeles", "told on the lot's own clock, whatever campus a client shows")
            let entrance = try #require(booked.json["lotEntrance"] as? [String: Any], "directions lead to the lot's entrance")
            #expect(entrance["latitude"] as? Double != nil && entrance["longitude"] as? Double != nil)
            #expect(booked.json["checkInOpensAt"] as? String == T.iso(T.local(day: 19, 9, 45)))
            #expect(booked.json["forfeitAt"] as? String == T.iso(T.local(day: 19, 10, 15)))
            #expect(try await ctx.balance(me.token) == 4220)
            let history = try await ctx.call(.GET, "/v1/wallet/history?currency=USD", token: me.token).json["lines"] as? [[String: Any]] ?? []
            #expect(history.map { $0["movement"] as? String } == ["bookingPayment", "topUp"])
            #expect(history.map { minor($0["amount"]) } == [-780, 5000])
            #expect(history.map { minor($0["balanceAfter"]) } == [4220, 5000])
            #expect(history.first?["bookingId"] as? String == booked.json["id"] as? String)
            #expect(try await quote(ctx, lot, Self.thu10, Self.thu13).json["spacesLeft"] as? Int == 4)

            // Refusals, each with its own problem type.
            let guest = try await ctx.device()
            let asGuest = try await ctx.book(guest.token, lot: lot, Self.thu10, Self.thu13)
            #expect(asGuest.status == .forbidden)
            #expect(asGuest.problemType == "account-required")
            #expect(try await ctx.call(.GET, "/v1/wallet", token: guest.token).status == .forbidden)
            #expect(try await ctx.topUp(guest.token, cents: 1000).status == .forbidden)
            #expect(try await ctx.book(nil, lot: lot, Self.thu10, Self.thu13).status == .unauthorized)
            let notBookable = try await ctx.book(me.token, lot: structure, Self.thu10, Self.thu13)
            #expect(notBookable.status == .conflict)
            #expect(notBookable.problemType == "lot-not-bookable")
            #expect(try await ctx.book(me.token, lot: UUID().uuidString, Self.thu10, Self.thu13).status == .notFound)
            #expect(try await ctx.book(me.token, lot: "../lots", Self.thu10, Self.thu13).status == .notFound)
            var extra = ["lotId": lot, "start": T.iso(Self.thu10), "end": T.iso(Self.thu13)]
            extra["note"] = "x"
            #expect(try await ctx.call(.POST, "/v1/bookings", token: me.token, json: extra).status == .badRequest,
                    "the contract allows no other properties")
            #expect(try await quote(ctx, UUID().uuidString, Self.thu10, Self.thu13).status == .notFound)
            let invalid: [(Date, Date, String)] = [
                (Self.thu13, Self.thu10, "end after"),
                (T.local(day: 18, 8), T.local(day: 18, 10), "past"),
                (Self.thu10.addingTimeInterval(30), Self.thu13, "whole minute"),
                (Self.thu10, Self.thu10.addingTimeInterval(8 * 86_400), "7 days"),
                (T.local(day: 19, 22, 30), T.local(day: 19, 23, 30), "closed"),
                (Self.thu10.addingTimeInterval(100 * 86_400), Self.thu13.addingTimeInterval(100 * 86_400), "90 days"),
            ]
            for (start, end, why) in invalid {
                let r = try await ctx.book(me.token, lot: lot, start, end)
                #expect(r.status == .badRequest, "\(why)")
                #expect(r.problemType == "booking-range-invalid", "\(why)")
                #expect((r.json["detail"] as? String)?.contains(why) == true, "\(why): \(r.json["detail"] ?? "")")
                let q = try await quote(ctx, lot, start, end)
                #expect(q.status == .ok, "\(why): a quote answers why")
                #expect(q.json["bookable"] as? Bool == false, "\(why)")
                #expect(q.json["available"] as? Bool == false, "\(why)")
                #expect(q.json["total"] == nil, "\(why)")
                #expect((q.json["problem"] as? [String: Any])?["type"] as? String == "https://waymark.dev/problems/booking-range-invalid", "\(why)")
            }

            // The lot closes at 23:00: told on the site's clock, in the language the browser asks for.
            let closedAt = T.local(day: 19, 22, 30), german: HTTPHeaders = ["Accept-Language": "de-DE,de;q=0.9,en;q=0.5"]
            let inGerman = try await ctx.call(.POST, "/v1/bookings", token: me.token, json: [
                "lotId": lot, "start": T.iso(closedAt), "end": T.iso(closedAt.addingTimeInterval(3600))], headers: german)
            let detail = inGerman.json["detail"] as? String ?? ""
            #expect(detail.contains("23:00") && !detail.contains("PM") && !detail.contains(T.iso(closedAt)), "\(inGerman.status) \(detail)")
            let inEnglish = try await ctx.book(me.token, lot: lot, closedAt, closedAt.addingTimeInterval(3600))
            let english = inEnglish.json["detail"] as? String ?? ""
            #expect(english.contains("Thu, Nov 19") && english.contains("11:00") && english.contains("PM"), "\(english)")

            // Not enough money: nothing is booked and nothing moves.
            let poor = try await ctx.register("poor")
            #expect(try await ctx.topUp(poor.token, cents: 500).status == .created)
            let refused = try await ctx.book(poor.token, lot: lot, Self.thu10, Self.thu13)
            #expect(refused.status == .paymentRequired)
            #expect(refused.problemType == "insufficient-funds")
            #expect(try await ctx.balance(poor.token) == 500)
            #expect((try await ctx.call(.GET, "/v1/bookings", token: poor.token).json["bookings"] as? [Any])?.isEmpty == true)

            // Top-up limits.
            for (cents, currency) in [(99, "USD"), (50_001, "USD"), (1000, "usd"), (1000, "US")] {
                let r = try await ctx.topUp(me.token, cents: cents, currency: currency)
                #expect(r.status == .badRequest, "\(cents) \(currency)")
                #expect(r.problemType == "amount-out-of-range", "\(cents) \(currency)")
            }
            for _ in 0..<3 { #expect(try await ctx.topUp(me.token, cents: 50_000).status == .created) }
            let full = try await ctx.topUp(me.token, cents: 50_000)
            #expect(full.status == .conflict)
            #expect(full.problemType == "wallet-limit")
            #expect(try await ctx.balance(me.token) == 154_220)
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 modifying before the start settles the difference; cancelling refunds everything paid; both end at the start",
          arguments: TestDatabase.available)
    func modifyAndCancel(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try await ctx.register("mover")
            try await ctx.topUp(me.token, cents: 2000)
            let booked = try await ctx.book(me.token, lot: lot, Self.thu10, T.local(day: 19, 11))
            #expect(minor(booked.json["paid"]) == 300)
            let id = try #require(booked.json["id"] as? String)

            let longer = try await ctx.call(.PATCH, "/v1/bookings/\(id)", token: me.token,
                                            json: ["start": T.iso(Self.thu10), "end": T.iso(Self.thu13)])
            #expect(longer.status == .ok)
            #expect(minor(longer.json["paid"]) == 780)
            #expect(longer.json["modifications"] as? Int == 1)
            #expect(try await ctx.balance(me.token) == 2000 - 780)
            let shorter = try await ctx.call(.PATCH, "/v1/bookings/\(id)", token: me.token,
                                             json: ["start": T.iso(Self.thu10), "end": T.iso(T.local(day: 19, 10, 30))])
            #expect(minor(shorter.json["paid"]) == 300)
            #expect(shorter.json["modifications"] as? Int == 2)
            #expect(try await ctx.balance(me.token) == 1700)
            let same = try await ctx.call(.PATCH, "/v1/bookings/\(id)", token: me.token,
                                          json: ["start": T.iso(Self.thu10), "end": T.iso(T.local(day: 19, 10, 30))])
            #expect(same.problemType == "booking-same-range")
            let tooDear = try await ctx.call(.PATCH, "/v1/bookings/\(id)", token: me.token,
                                             json: ["start": T.iso(T.local(day: 21, 8)), "end": T.iso(T.local(day: 22, 20))])
            #expect(tooDear.status == .paymentRequired, "a weekend at two daily caps costs more than the wallet holds")
            #expect(tooDear.problemType == "insufficient-funds")
            #expect(try await ctx.call(.GET, "/v1/bookings/\(id)", token: me.token).json["modifications"] as? Int == 2, "nothing changed")

            let history = try await ctx.call(.GET, "/v1/wallet/history", token: me.token).json["lines"] as? [[String: Any]] ?? []
            #expect(history.map { minor($0["amount"]) } == [480, -480, -300, 2000])
            #expect(history.map { $0["movement"] as? String } == ["modificationSettlement", "modificationSettlement", "bookingPayment", "topUp"])

            let cancelled = try await ctx.call(.POST, "/v1/bookings/\(id)/cancel", token: me.token)
            #expect(cancelled.status == .ok)
            #expect(cancelled.json["state"] as? String == "cancelled")
            #expect(try await ctx.balance(me.token) == 2000, "the whole net payment came back")
            #expect(try await ctx.call(.POST, "/v1/bookings/\(id)/cancel", token: me.token).status == .ok, "cancelling again is harmless")
            #expect(try await ctx.balance(me.token) == 2000)

            // From the start on, neither is possible.
            let later = try await ctx.book(me.token, lot: lot, T.local(day: 18, 9, 30), T.local(day: 18, 10, 30))
            let laterId = try #require(later.json["id"] as? String)
            ctx.clock.set(T.local(day: 18, 9, 30))
            let started = try await ctx.call(.PATCH, "/v1/bookings/\(laterId)", token: me.token,
                                             json: ["start": T.iso(Self.thu10), "end": T.iso(Self.thu13)])
            #expect(started.status == .conflict)
            #expect(started.problemType == "booking-started")
            #expect(try await ctx.call(.POST, "/v1/bookings/\(laterId)/cancel", token: me.token).problemType == "booking-started")
            #expect(try await ctx.call(.POST, "/v1/bookings/\(id)/cancel", token: me.token).json["state"] as? String == "cancelled")
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 check-in opens 15 minutes before the start; a no-show is forfeited by the job 15 minutes after it, without refund, and its space is free again",
          arguments: TestDatabase.available)
    func checkInAndForfeit(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let members = try await ctx.members(6, cents: 1000)
            let start = T.local(day: 18, 10), end = T.local(day: 18, 11)
            var ids: [String] = []
            for m in members.prefix(5) {
                let r = try await ctx.book(m.token, lot: lot, start, end)
                #expect(r.status == .created)
                ids.append(try #require(r.json["id"] as? String))
            }
            #expect(try await ctx.book(members[5].token, lot: lot, start, end).problemType == "lot-full")

            let early = try await ctx.call(.POST, "/v1/bookings/\(ids[0])/check-in", token: members[0].token)
            #expect(early.status == .conflict)
            #expect(early.problemType == "check-in-not-open")
            ctx.clock.set(T.local(day: 18, 9, 45))
            let arrived = try await ctx.call(.POST, "/v1/bookings/\(ids[0])/check-in", token: members[0].token)
            #expect(arrived.status == .ok)
            #expect(arrived.json["state"] as? String == "checkedIn")
            #expect(try await ctx.call(.POST, "/v1/bookings/\(ids[0])/check-in", token: members[0].token).status == .ok, "again is harmless")

            ctx.clock.set(T.local(day: 18, 10, 14))
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 0, completed: 0))
            #expect(try await ctx.call(.POST, "/v1/bookings/\(ids[1])/check-in", token: members[1].token).status == .ok, "just in time")
            ctx.clock.set(T.local(day: 18, 10, 15))
            let late = try await ctx.call(.POST, "/v1/bookings/\(ids[2])/check-in", token: members[2].token)
            #expect(late.problemType == "check-in-closed")
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 3, completed: 0))
            let forfeited = try await ctx.call(.GET, "/v1/bookings/\(ids[2])", token: members[2].token)
            #expect(forfeited.json["state"] as? String == "forfeited")
            #expect(try await ctx.balance(members[2].token) == 1000 - 300, "no refund")
            let lines = try await ctx.call(.GET, "/v1/wallet/history", token: members[2].token).json["lines"] as? [[String: Any]] ?? []
            #expect(lines.first?["movement"] as? String == "forfeit")
            #expect(minor(lines.first?["amount"]) == 0)
            #expect(minor(lines.first?["balanceAfter"]) == 700)
            #expect(try await ctx.call(.POST, "/v1/bookings/\(ids[2])/cancel", token: members[2].token).status == .conflict)

            // Three spaces were released for the rest of the hour.
            #expect(try await quote(ctx, lot, T.local(day: 18, 10, 20), end).json["spacesLeft"] as? Int == 3)
            #expect(try await ctx.book(members[5].token, lot: lot, T.local(day: 18, 10, 20), end).status == .created)

            ctx.clock.set(end)
            // The late booking was not used either.
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 1, completed: 2))
            #expect(try await ctx.call(.GET, "/v1/bookings/\(ids[0])", token: members[0].token).json["state"] as? String == "completed")
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 PRK-10 check-in by the spot's sensor: a car arrives on the spot the member holds in the booked lot and \"it was me\" checks the booking in",
          arguments: TestDatabase.available)
    func sensorCheckIn(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.freeLot("L")
            let members = try await ctx.members(2, cents: 1000)
            let start = T.local(day: 18, 10), end = T.local(day: 18, 11)
            let mine = try #require(try await ctx.book(members[0].token, lot: lot.id, start, end).json["id"] as? String)
            let theirs = try #require(try await ctx.book(members[1].token, lot: lot.id, start, end).json["id"] as? String)
            var seq = 10

            /// Holds spot `ordinal`, reports a car on it, answers yes; returns the answer.
            func arrive(_ token: String, _ ordinal: Int) async throws -> TestResponse {
                let hold = try await ctx.call(.POST, "/v1/holds", token: token, json: ["spotId": lot.spots[ordinal]])
                let id = try #require(hold.json["id"] as? String)
                seq += 1
                _ = try await ctx.ingest([TestContext.event(lot.sensors[ordinal], true, at: ctx.clock.now, seq: seq)])
                return try await ctx.call(.POST, "/v1/holds/\(id)/answer", token: token, json: ["wasMe": true])
            }

            // 9:00 is before check-in opens (9:45): the arrival is a parked car, nothing more.
            let early = try await arrive(members[0].token, 3)
            #expect(early.status == .ok)
            #expect(early.json["checkedIn"] == nil)
            #expect(try await ctx.call(.GET, "/v1/bookings/\(mine)", token: members[0].token).json["state"] as? String == "booked")

            ctx.clock.set(T.local(day: 18, 9, 50))
            let arrived = try await arrive(members[0].token, 4)
            let booking = try #require(arrived.json["checkedIn"] as? [String: Any])
            #expect(booking["id"] as? String == mine)
            #expect(booking["state"] as? String == "checkedIn")
            #expect(booking["checkedInAt"] as? String == T.iso(T.local(day: 18, 9, 50)))
            #expect((arrived.json["answered"] as? [String: Any])?["outcome"] as? String == "parked")
            #expect(try await ctx.call(.GET, "/v1/bookings/\(theirs)", token: members[1].token).json["state"] as? String == "booked",
                    "only the arriving member's booking")

            // At 10:15 the sweep forfeits the other booking and leaves the checked-in one.
            ctx.clock.set(T.local(day: 18, 10, 15))
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 1, completed: 0))
            #expect(try await ctx.call(.GET, "/v1/bookings/\(mine)", token: members[0].token).json["state"] as? String == "checkedIn")
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 free counts leave out the spaces of booked drivers whose check-in is open and who have not arrived; the live stream hears it as a lot event",
          arguments: TestDatabase.available)
    func promisedSpaces(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.freeLot("L")
            let members = try await ctx.members(3, cents: 1000)
            func counts() async throws -> (free: Int?, booked: Int?) {
                (try await ctx.lotCount(lot.id, "free"), try await ctx.lotCount(lot.id, "booked"))
            }
            let (free, booked) = try await counts()
            let f0 = try #require(free), b0 = try #require(booked)
            #expect(f0 == lot.spots.count)

            // 9:00: two bookings from 10:00 are not expected yet; one from 9:10 is.
            let a = try #require(try await ctx.book(members[0].token, lot: lot.id, T.local(day: 18, 10), T.local(day: 18, 11)).json["id"] as? String)
            let b = try #require(try await ctx.book(members[1].token, lot: lot.id, T.local(day: 18, 10), T.local(day: 18, 11)).json["id"] as? String)
            #expect(try await counts() == (f0, b0))
            #expect(try await ctx.book(members[2].token, lot: lot.id, T.local(day: 18, 9, 10), T.local(day: 18, 10)).status == .created)
            #expect(try await counts() == (f0 - 1, b0 + 1))
            let events = try await EventLog.read(after: 0, limit: 10_000, sql: ctx.services.store.sql).flatMap { $0.events() }
            let lotEvent = try #require(events.last { $0.kind == "lot" })
            let told = try LiveEncoding.decoder.decode(Components.Schemas.LotOccupancy.self, from: Data(lotEvent.data.utf8))
            #expect(told.lotId == lot.id && told.free == f0 - 1 && told.booked == b0 + 1)

            // 9:30: the 9:10 driver never came; the job forfeits the booking and the space is free again.
            ctx.clock.set(T.local(day: 18, 9, 30))
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 1, completed: 0))
            #expect(try await counts() == (f0, b0))
            // 9:45: check-in of the 10:00 bookings opens.
            ctx.clock.set(T.local(day: 18, 9, 45))
            try await ctx.services.parking.bookings.sweep()
            #expect(try await counts() == (f0 - 2, b0 + 2))
            // A car the sensors see takes another space, counted once.
            let parked = try await ctx.ingest([TestContext.event(lot.sensors[0], true, at: ctx.clock.now, seq: 2)])
            #expect(parked.status == .ok)
            #expect(try await counts() == (f0 - 3, b0 + 2))
            #expect(try await ctx.lotCount(lot.id, "occupied") == 1)
            // Arriving or cancelling gives the promised space back at once.
            #expect(try await ctx.call(.POST, "/v1/bookings/\(a)/check-in", token: members[0].token).status == .ok)
            #expect(try await counts() == (f0 - 2, b0 + 1))
            #expect(try await ctx.call(.POST, "/v1/bookings/\(b)/cancel", token: members[1].token).status == .ok)
            #expect(try await counts() == (f0 - 1, b0))
            // The table agrees with what the live counters say.
            let stored = try #require(try await ctx.services.parking.queries.lotCounts(lotId: lot.id))
            #expect(stored.countP == 0 && stored.counts.free == f0 - 1)
            try await ctx.checkLedger()
        }
    }

    /// Records what `BookingService` tells watchers.
    actor ReleasedSpaces: BookingObserver {
        var lots: [String] = []
        func spacesReleased(_ bookings: [Booking]) { lots += bookings.map(\.lotId) }
    }

    @Test("PRK-12 the sweep runs on one instance at a time: while another holds the job's lock it skips; watchers hear of released spaces", arguments: TestDatabase.available)
    func oneSweeper(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try #require(try await ctx.members(1, cents: 1000).first)
            try await ctx.book(me.token, lot: lot, T.local(day: 18, 10), T.local(day: 18, 11))
            ctx.clock.set(T.local(day: 18, 10, 15))
            let bookings = ctx.services.parking.bookings
            if ctx.services.store.isPostgres {
                let (locked, meanwhile) = try await ctx.services.store.write { sql -> (Bool, BookingService.Sweep) in
                    let locked = try await AdvisoryLocks.tryLockJob(AdvisoryLocks.bookingSweep, sql: sql)
                    return (locked, try await bookings.sweep())
                }
                #expect(locked)
                #expect(meanwhile == .init(forfeited: 0, completed: 0, skipped: true))
            }
            // Watchers (PRK-15) hear of the released space once the forfeit has committed.
            let watcher = ReleasedSpaces()
            var watched = bookings
            watched.observers = [watcher]
            #expect(try await watched.sweep() == .init(forfeited: 1, completed: 0))
            #expect(await watcher.lots == [lot])
            #expect(try await watched.sweep() == .init(forfeited: 0, completed: 0), "nothing is forfeited twice")
            #expect(await watcher.lots == [lot])
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 200 simultaneous bookings for the last 5 spaces: exactly 5 are booked and charged", arguments: TestDatabase.available)
    func capacityUnderLoad(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let members = try await ctx.members(200, cents: 1000)
            let statuses = try await withThrowingTaskGroup(of: String.self) { group in
                for m in members {
                    group.addTask {
                        let r = try await ctx.book(m.token, lot: lot, Self.thu10, Self.thu13)
                        return "\(r.status.code) \(r.problemType ?? "")"
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == ["201 ": 5, "409 lot-full": 195])
            let charged = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM ledger_transactions WHERE movement = 'bookingPayment'")
                .first()?.decode(column: "n", as: Int.self)
            #expect(charged == 5)
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-13 simultaneous bookings worth more than the wallet holds: the balance never goes below zero and adds up",
          arguments: TestDatabase.available)
    func walletFloorUnderLoad(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try #require(try await ctx.members(1, cents: 3000).first)
            // 20 bookings of 10:00–13:00 on 20 different days, 780 each: 3 fit in 3000.
            let statuses = try await withThrowingTaskGroup(of: String.self) { group in
                for day in 0..<20 {
                    group.addTask {
                        let r = try await ctx.book(me.token, lot: lot, Self.thu10.addingTimeInterval(Double(day) * 86_400),
                                                   Self.thu13.addingTimeInterval(Double(day) * 86_400))
                        return "\(r.status.code) \(r.problemType ?? "")"
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == ["201 ": 3, "402 insufficient-funds": 17])
            #expect(try await ctx.balance(me.token) == 3000 - 3 * 780)
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 one person's bookings covering the same moment stop at the limit, decided in the database when eight arrive at once; a change that would pass it is refused too",
          arguments: TestDatabase.available)
    func overlappingLimit(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try #require(try await ctx.members(1, cents: 20_000).first)
            // Eight bookings of 10:00–13:00 at once, each starting a quarter of an hour later: all overlap.
            let statuses = try await withThrowingTaskGroup(of: String.self) { group in
                for k in 0..<8 {
                    group.addTask {
                        let shift = Double(k) * 900
                        let r = try await ctx.book(me.token, lot: lot, Self.thu10.addingTimeInterval(shift), Self.thu13.addingTimeInterval(shift))
                        return "\(r.status.code) \(r.problemType ?? "")"
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == ["201 ": 2, "409 too-many-bookings": 6], "the default limit is 2")
            let refused = try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13)
            let detail = refused.json["detail"] as? String ?? ""
            #expect(detail.contains("2 bookings") && detail.contains("Test Lot") && detail.contains("at most 2"), "\(detail)")
            // Back to back is not overlapping.
            let later = try await ctx.book(me.token, lot: lot, T.local(day: 19, 16), T.local(day: 19, 18))
            #expect(later.status == .created)
            // Moving the later one onto the morning would make three at once.
            let moved = try await ctx.call(.PATCH, "/v1/bookings/\(try #require(later.json["id"] as? String))", token: me.token,
                                           json: ["start": T.iso(T.local(day: 19, 11)), "end": T.iso(T.local(day: 19, 12))])
            #expect(moved.status == .conflict && moved.problemType == "too-many-bookings", "\(moved.status)")
            try await ctx.checkLedger()
        }
        // A deployment may allow more.
        try await TestApp.with(db, configure: { bookingConfig(&$0); $0.overlappingBookingsLimit = 3 }) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try #require(try await ctx.members(1, cents: 20_000).first)
            for k in 0..<3 { #expect(try await ctx.book(me.token, lot: lot, Self.thu10.addingTimeInterval(Double(k) * 60), Self.thu13).status == .created) }
            #expect(try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13).problemType == "too-many-bookings")
        }
    }

    @Test("PRK-12 PRK-19 a retried booking or top-up with the same Idempotency-Key books and charges once", arguments: TestDatabase.available)
    func idempotentRetries(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let me = try await ctx.register("retrier")
            let other = try await ctx.register("other")
            let topUps = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<10 { group.addTask { try await ctx.topUp(me.token, cents: 2000, key: "top-up-1") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(topUps.allSatisfy { $0.status == .created }, "\(topUps.map { "\($0.status.code) \($0.problemType ?? "")" })")
            #expect(Set(topUps.map { ($0.json["line"] as? [String: Any])?["transactionId"] as? String }).count == 1)
            #expect(try await ctx.balance(me.token) == 2000)
            #expect(try await ctx.topUp(me.token, cents: 3000, key: "top-up-1").problemType == "idempotency-key-reused")

            let bookings = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<10 { group.addTask { try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13, key: "b-1") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bookings.allSatisfy { $0.status == .created })
            #expect(Set(bookings.map { $0.json["id"] as? String }).count == 1)
            #expect(try await ctx.balance(me.token) == 2000 - 780)
            let reused = try await ctx.book(me.token, lot: lot, Self.thu10, T.local(day: 19, 12), key: "b-1")
            #expect(reused.status == .conflict)
            #expect(reused.problemType == "idempotency-key-reused")
            // Keys are per user: someone else's identical key is a new request.
            try await ctx.topUp(other.token, cents: 2000)
            #expect(try await ctx.book(other.token, lot: lot, Self.thu10, Self.thu13, key: "b-1").json["id"] as? String
                    != bookings[0].json["id"] as? String)
            // Taken as sent: "%41" is not "A", and "a+b" is not "a b".
            let encoded = try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13, key: "b%2D1+x")
            #expect(encoded.status == .created)
            #expect(encoded.json["id"] as? String != bookings[0].json["id"] as? String)
            let badKey = try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13, key: "has space")
            #expect(badKey.status == .badRequest)
            #expect(try await ctx.book(me.token, lot: lot, Self.thu10, Self.thu13, key: String(repeating: "k", count: 129)).status == .badRequest)
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-12 ACC-7 only the owner sees or changes a booking; others get 404, guests 403, strangers 401", arguments: TestDatabase.available)
    func authorisation(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let owner = try await ctx.register("owner")
            let thief = try await ctx.register("thief")
            try await ctx.topUp(owner.token, cents: 2000)
            try await ctx.topUp(thief.token, cents: 2000)
            let id = try #require(try await ctx.book(owner.token, lot: lot, Self.thu10, Self.thu13).json["id"] as? String)
            let guest = try await ctx.device()
            let change: [String: Any] = ["start": T.iso(Self.thu10), "end": T.iso(T.local(day: 19, 11))]
            let operations: [(HTTPMethod, String, [String: Any]?)] = [
                (.GET, "/v1/bookings/\(id)", nil), (.PATCH, "/v1/bookings/\(id)", change),
                (.POST, "/v1/bookings/\(id)/cancel", nil), (.POST, "/v1/bookings/\(id)/check-in", nil),
            ]
            for (method, path, body) in operations {
                #expect(try await ctx.call(method, path, token: thief.token, json: body).status == .notFound, "\(method) \(path)")
                #expect(try await ctx.call(method, path, token: guest.token, json: body).status == .forbidden, "\(method) \(path)")
                #expect(try await ctx.call(method, path, json: body).status == .unauthorized, "\(method) \(path)")
            }
            for path in ["/v1/bookings", "/v1/wallet", "/v1/wallet/history"] {
                #expect(try await ctx.call(.GET, path).status == .unauthorized, "\(path)")
                let r = try await ctx.call(.GET, path, token: guest.token)
                #expect(r.status == .forbidden, "\(path)")
                #expect(r.problemType == "account-required", "\(path)")
            }
            #expect(try await ctx.call(.GET, "/v1/bookings/not-a-uuid", token: owner.token).status == .notFound)
            // A cancelled booking stays in the history: cancelling is a POST, never a DELETE.
            #expect(try await ctx.call(.DELETE, "/v1/bookings/\(id)", token: owner.token).status == .methodNotAllowed)
            #expect((try await ctx.call(.GET, "/v1/bookings", token: thief.token).json["bookings"] as? [Any])?.isEmpty == true)
            #expect(try await ctx.balance(thief.token) == 2000)
            let mine = try await ctx.call(.GET, "/v1/bookings/\(id)", token: owner.token)
            #expect(mine.json["state"] as? String == "booked")
            #expect(mine.json["modifications"] as? Int == 0)
            #expect(try await ctx.balance(owner.token) == 2000 - 780)
            #expect(try await ctx.call(.GET, "/v1/wallet/history?currency=usd", token: owner.token).status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/wallet/history?limit=0", token: owner.token).status == .badRequest)
        }
    }

    @Test("PRK-12 PRK-13 a seeded random mix of top-ups, bookings, changes, cancellations, check-ins and forfeits leaves a ledger that sums to zero",
          arguments: TestDatabase.available)
    func randomWorkload(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let members = try await ctx.members(8)
            var rng = SplitMix64(seed: 0xB00C_1265)
            var bookings: [(id: String, owner: Int)] = []
            var statuses: [String: Int] = [:]
            for _ in 0..<300 {
                let who = Int.random(in: 0..<members.count, using: &rng)
                let token = members[who].token
                let base = ctx.clock.now
                // A start a few minutes to two days ahead, on a whole quarter hour.
                let quarter = (base.timeIntervalSince1970 / 900).rounded(.up) * 900
                let start = Date(timeIntervalSince1970: quarter + Double(Int.random(in: 1...190, using: &rng)) * 900)
                let end = start.addingTimeInterval(Double(Int.random(in: 1...16, using: &rng)) * 900)
                let r: TestResponse
                switch Int.random(in: 0..<10, using: &rng) {
                case 0, 1:
                    r = try await ctx.topUp(token, cents: Int.random(in: 100...5000, using: &rng))
                case 2, 3, 4:
                    r = try await ctx.book(token, lot: lot, start, end, key: Bool.random(using: &rng) ? "k\(Int.random(in: 0..<20, using: &rng))" : nil)
                    if r.status == .created, let id = r.json["id"] as? String, !bookings.contains(where: { $0.id == id }) { bookings.append((id, who)) }
                case 5:
                    guard let b = bookings.randomElement(using: &rng) else { continue }
                    r = try await ctx.call(.PATCH, "/v1/bookings/\(b.id)", token: members[b.owner].token,
                                           json: ["start": T.iso(start), "end": T.iso(end)])
                case 6:
                    guard let b = bookings.randomElement(using: &rng) else { continue }
                    r = try await ctx.call(.POST, "/v1/bookings/\(b.id)/cancel", token: members[b.owner].token)
                case 7:
                    guard let b = bookings.randomElement(using: &rng) else { continue }
                    r = try await ctx.call(.POST, "/v1/bookings/\(b.id)/check-in", token: members[b.owner].token)
                default:
                    ctx.clock.advance(by: Double(Int.random(in: 1...120, using: &rng)) * 60)
                    try await ctx.services.parking.bookings.sweep()
                    continue
                }
                #expect(r.status.code < 500, "\(String(decoding: r.body, as: UTF8.self))" as Comment)
                statuses["\(r.status.code) \(r.problemType ?? "")", default: 0] += 1
            }
            ctx.clock.advance(by: 3 * 86_400)
            try await ctx.services.parking.bookings.sweep()
            #expect((statuses["201 "] ?? 0) > 50, "\(statuses)")
            #expect(statuses.keys.contains { $0.hasPrefix("200") })
            try await ctx.checkLedger()

            // Booked capacity was never exceeded: at no instant do more than 5 bookings that
            // kept their space overlap.
            let rows = try await ctx.services.store.sql.raw("""
                \(unsafeRaw: BookingRow.select) WHERE b.state IN ('checkedIn', 'completed')
                """).all().map { try BookingRow($0).booking }
            let all = BookingRange(start: .distantPast, end: .distantFuture)
            #expect(BookingCapacity.peak(of: rows.map(\.range), within: all) <= 5)
            let forfeits = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM bookings WHERE state = 'forfeited'").first()?
                .decode(column: "n", as: Int.self) ?? 0
            #expect(forfeits > 0, "the mix includes no-shows")
        }
    }
}
