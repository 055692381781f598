import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Soft holds on the server (PRK-9, PRK-10)")
struct HoldTests {
    @Test("PRK-9 a free spot is held for 10 minutes, held for everyone, refused to the next asker, and free again when the time is up",
          arguments: TestDatabase.available)
    func holdAndExpire(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.freeLot("L")
            let guest = try await ctx.device()
            let other = try await ctx.device()
            let before = try await ctx.liveEventCount()

            let held = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": lot.spots[3].uppercased()])
            #expect(held.status == .created)
            #expect(held.json["status"] as? String == "active")
            #expect(held.json["ordinal"] as? Int == 3)
            #expect(held.json["lotCode"] as? String == "L")
            #expect(held.json["permitWarning"] == nil, "lot L is open to all")
            let expires = try #require((held.json["expiresAt"] as? String).flatMap(parseDate))
            #expect(abs(expires.timeIntervalSince(ctx.clock.now) - 600) < 0.01)
            let directions = try #require(held.json["directions"] as? [String: String])
            #expect(directions["googleMaps"]?.hasPrefix("https://www.google.com/maps/dir/?api=1&destination=33.88") == true)
            #expect(directions["appleMaps"]?.contains("daddr=33.88") == true)
            let holdId = try #require(held.json["id"] as? String)

            #expect(Array(try await ctx.states(lotId: lot.id))[3] == "h", "everyone sees the spot held")
            #expect(try await ctx.lotCount(lot.id, "held") == 1)
            #expect(try await ctx.liveEventCount() == before + 1, "one live event for the held spot")

            let refused = try await ctx.call(.POST, "/v1/holds", token: other.token, json: ["spotId": lot.spots[3]])
            #expect(refused.status == .conflict)
            #expect(refused.problemType == "spot-not-free")
            #expect((refused.json["detail"] as? String)?.contains("Choose another free spot") == true)
            #expect(try await ctx.call(.POST, "/v1/holds", token: other.token, json: ["spotId": UUID().uuidString]).status == .notFound)
            #expect(try await ctx.call(.POST, "/v1/holds", token: other.token, json: ["spotId": "../../etc"]).status == .notFound)
            #expect(try await ctx.call(.POST, "/v1/holds", json: ["spotId": lot.spots[4]]).status == .unauthorized)

            // A sensor reading "empty" during the hold keeps it held: the driver is on the way.
            _ = try await ctx.ingest([TestContext.event(lot.sensors[3], false, at: ctx.clock.now, seq: 2)])
            #expect(Array(try await ctx.states(lotId: lot.id))[3] == "h")

            ctx.clock.advance(by: 599)
            #expect(try await ctx.services.parking.holds.expireDue() == 0)
            #expect(try await ctx.call(.GET, "/v1/holds/\(holdId)", token: guest.token).json["status"] as? String == "active")
            ctx.clock.advance(by: 1)
            let ended = try await ctx.call(.GET, "/v1/holds/\(holdId)", token: guest.token)
            #expect(ended.json["status"] as? String == "ended")
            #expect(ended.json["outcome"] as? String == "expired")
            #expect(Array(try await ctx.states(lotId: lot.id))[3] == "f", "the spot is free again")
            #expect(try await ctx.lotCount(lot.id, "held") == 0)
            #expect(try await ctx.call(.POST, "/v1/holds", token: other.token, json: ["spotId": lot.spots[3]]).status == .created)

            // A person's request sent several times at once (a flaky network retrying) makes
            // one hold, not a chain of holds replacing each other.
            let asks = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": lot.spots[5]]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(asks.allSatisfy { $0.status == .created })
            #expect(Set(asks.compactMap { $0.json["id"] as? String }).count == 1)
            let mine = try await ctx.call(.GET, "/v1/holds", token: guest.token)
            let replacedOnes = (mine.json["holds"] as? [[String: Any]] ?? []).filter { $0["outcome"] as? String == "replaced" }
            #expect(replacedOnes.isEmpty)
        }
    }

    @Test("PRK-9 a missing permit is a warning, not a refusal; one hold per person; cancel frees the spot; others' holds are not found",
          arguments: TestDatabase.available)
    func permitsAndOwnership(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let structure = try await ctx.freeLot("S")
            let surface = try await ctx.freeLot("L")
            let guest = try await ctx.device()
            // Wednesday 09:00: structure S needs a Green permit; a guest has none.
            let regular = try await ctx.spot(structure.id, category: "regular")
            let warned = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": regular])
            #expect(warned.status == .created)
            #expect(warned.json["permitWarning"] as? String == "This spot needs a Green permit now.")
            let first = try #require(warned.json["id"] as? String)

            // Holding a second spot ends the first, which is free again.
            let handicap = try await ctx.spot(surface.id, category: "handicap")
            let second = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": handicap])
            #expect(second.json["permitWarning"] as? String == "This spot needs a Handicap permit now.")
            let secondId = try #require(second.json["id"] as? String)
            let replaced = try await ctx.call(.GET, "/v1/holds/\(first)", token: guest.token)
            #expect(replaced.json["outcome"] as? String == "replaced")
            #expect(try await ctx.lotCount(structure.id, "held") == 0)
            let list = try await ctx.call(.GET, "/v1/holds", token: guest.token).json["holds"] as? [[String: Any]]
            #expect(list?.map { $0["id"] as? String } == [secondId, first], "the open hold first")

            let member = try await ctx.register("gwen")
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: member.token, json: ctx.permitsBody(["green"])).status == .ok)
            let other = try await ctx.spot(structure.id, category: "regular", skip: 1)
            let fine = try await ctx.call(.POST, "/v1/holds", token: member.token, json: ["spotId": other])
            #expect(fine.status == .created)
            #expect(fine.json["permitWarning"] == nil)

            #expect(try await ctx.call(.GET, "/v1/holds/\(secondId)", token: member.token).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/holds/\(secondId)", token: member.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/holds/\(secondId)", token: guest.token).json["status"] as? String == "active",
                    "someone else's cancel changed nothing")
            let cancelled = try await ctx.call(.DELETE, "/v1/holds/\(secondId)", token: guest.token)
            #expect(cancelled.status == .ok)
            #expect(cancelled.json["outcome"] as? String == "cancelled")
            #expect(try await ctx.lotCount(surface.id, "held") == 0)
            #expect(try await ctx.call(.DELETE, "/v1/holds/\(secondId)", token: guest.token).json["outcome"] as? String == "cancelled",
                    "cancelling again changes nothing")
        }
    }

    @Test("PRK-10 a car on the held spot asks \"was it you?\": yes ends it as parked; no holds the nearest spot the holder may use",
          arguments: TestDatabase.available)
    func wasItYou(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let structure = try await ctx.freeLot("S")
            let surface = try await ctx.freeLot("L")
            let guest = try await ctx.device()
            var seq = 10

            func park(_ lot: (id: String, spots: [String], sensors: [String]), _ ordinal: Int) async throws {
                seq += 1
                _ = try await ctx.ingest([TestContext.event(lot.sensors[ordinal], true, at: ctx.clock.now, seq: seq)])
            }

            // Yes.
            let a = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": surface.spots[5]]).json["id"] as! String
            let notYet = try await ctx.call(.POST, "/v1/holds/\(a)/answer", token: guest.token, json: ["wasMe": true])
            #expect(notYet.status == .conflict)
            #expect(notYet.problemType == "hold-not-asking")
            try await park(surface, 5)
            let asking = try await ctx.call(.GET, "/v1/holds/\(a)", token: guest.token)
            #expect(asking.json["status"] as? String == "asking")
            #expect(asking.json["askedAt"] != nil)
            #expect(Array(try await ctx.states(lotId: surface.id))[5] == "o")
            #expect(try await ctx.lotCount(surface.id, "held") == 0)
            let yes = try await ctx.call(.POST, "/v1/holds/\(a)/answer", token: guest.token, json: ["wasMe": true])
            #expect((yes.json["answered"] as? [String: Any])?["outcome"] as? String == "parked")
            #expect(yes.json["next"] == nil)

            // No: spot 5 of L is taken; the guest has no permits, so the structure (Green now)
            // and handicap spots are skipped even if nearer; the next hold keeps the old expiry.
            ctx.clock.advance(by: 60)
            let b = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": surface.spots[6]])
            let bId = b.json["id"] as! String
            ctx.clock.advance(by: 120)
            try await park(surface, 6)
            let no = try await ctx.call(.POST, "/v1/holds/\(bId)/answer", token: guest.token, json: ["wasMe": false])
            #expect(no.status == .ok)
            let answered = try #require(no.json["answered"] as? [String: Any])
            let next = try #require(no.json["next"] as? [String: Any])
            #expect(answered["outcome"] as? String == "moved")
            #expect(answered["movedTo"] as? String == next["id"] as? String)
            #expect(next["status"] as? String == "active")
            #expect(next["expiresAt"] as? String == b.json["expiresAt"] as? String, "only the time that is left")
            #expect(next["lotCode"] as? String == "L")
            let nextSpot = try #require(next["spotId"] as? String)
            let expected = try await ctx.nearestFree(to: surface.spots[6], among: surface.spots, excludingCategories: ["handicap"])
            #expect(nextSpot == expected)
            #expect(try await ctx.lotCount(surface.id, "held") == 1)
            #expect(structure.spots.contains(nextSpot) == false)

            // Repeats: the new spot is taken too, and now nothing in L is free.
            let nextId = next["id"] as! String
            let nextOrdinal = next["ordinal"] as! Int
            try await park(surface, nextOrdinal)
            seq += 1
            let rest = surface.sensors.enumerated().map { TestContext.event($0.element, true, at: ctx.clock.now, seq: seq + $0.offset) }
            seq += rest.count
            _ = try await ctx.ingest(rest)
            let none = try await ctx.call(.POST, "/v1/holds/\(nextId)/answer", token: guest.token, json: ["wasMe": false])
            #expect((none.json["answered"] as? [String: Any])?["outcome"] as? String == "nothing-free")
            #expect(none.json["next"] == nil)
            #expect(try await ctx.call(.POST, "/v1/holds/\(nextId)/answer", token: guest.token, json: ["wasMe": false]).status == .conflict)
        }
    }

    @Test("PRK-9 1,000 simultaneous requests for one spot: exactly one winner, 999 clear refusals", arguments: TestDatabase.available)
    func oneWinnerUnderLoad(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.freeLot("L")
            let now = ctx.clock.now
            let tokens = try await ctx.services.store.write { sql in
                var tokens: [String] = []
                for _ in 0..<1000 {
                    let id = UUID().uuidString.lowercased()
                    try await sql.raw("""
                        INSERT INTO users (id, kind, units, created_at, updated_at) VALUES (\(bind: id), 'device', 'metric', \(bind: now.millis), \(bind: now.millis))
                        """).run()
                    tokens.append(try await Sessions.create(userId: id, kind: .device, now: now, on: sql).token)
                }
                return tokens
            }
            let statuses = try await withThrowingTaskGroup(of: (HTTPStatus, String?).self) { group in
                for token in tokens {
                    group.addTask {
                        let r = try await ctx.call(.POST, "/v1/holds", token: token, json: ["spotId": lot.spots[0]])
                        return (r.status, r.problemType)
                    }
                }
                return try await group.reduce(into: [String: Int]()) { counts, r in counts["\(r.0.code) \(r.1 ?? "")", default: 0] += 1 }
            }
            #expect(statuses == ["201 ": 1, "409 spot-not-free": 999])
            let stored = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM holds").first()?.decode(column: "n", as: Int.self)
            #expect(stored == 1)
            #expect(try await ctx.lotCount(lot.id, "held") == 1)
            #expect(Array(try await ctx.states(lotId: lot.id))[0] == "h")
        }
    }

    @Test("PRK-9 ACC-5 ACC-8 a guest's hold moves to the account on sign-in; deleting the account frees the spot and leaves no trace",
          arguments: TestDatabase.available)
    func holdsAndAccounts(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.freeLot("L")
            let member = try await ctx.register("hana")
            let guest = try await ctx.device()
            let hold = try await ctx.call(.POST, "/v1/holds", token: guest.token, json: ["spotId": lot.spots[2]]).json["id"] as! String
            let signedIn = try await ctx.signIn("hana", device: guest.token)
            let token = try #require(signedIn.json["token"] as? String)
            #expect(try await ctx.call(.GET, "/v1/holds/\(hold)", token: token).json["status"] as? String == "active")

            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: token, json: ["password": TestContext.password]).status == .noContent)
            #expect(Array(try await ctx.states(lotId: lot.id))[2] == "f")
            #expect(try await ctx.lotCount(lot.id, "held") == 0)
            let rows = try await ctx.allRows()
            for (table, lines) in rows where table != "live_events" {
                #expect(!lines.contains { $0.contains(member.id) || $0.contains(hold) }, "\(table) still mentions the account")
            }
        }
    }
}

private func parseDate(_ s: String) -> Date? {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return f.date(from: s) ?? ISO8601DateFormatter().date(from: s)
}

extension TestContext {
    /// Every spot of the lot reported empty, so that all can be held.
    func freeLot(_ code: String) async throws -> (id: String, spots: [String], sensors: [String]) {
        let lotId = try #require(try await lotIds()[code])
        let spots = try #require(try await json("/v1/lots/\(lotId)/spots")["spots"] as? [[String: Any]])
        let sensors = spots.map { $0["sensorId"] as! String }
        let events = sensors.map { TestContext.event($0, false, at: clock.now, seq: 1) }
        let result = try await ingest(events)
        guard result.status == .ok else { throw TestFailure("ingest \(result.status)") }
        return (lotId, spots.map { $0["id"] as! String }, sensors)
    }

    /// The id of the lot's first (or `skip`-th) spot of a category.
    func spot(_ lotId: String, category: String, skip: Int = 0) async throws -> String {
        let spots = try #require(try await json("/v1/lots/\(lotId)/spots")["spots"] as? [[String: Any]])
        return try #require(spots.filter { $0["category"] as? String == category }.dropFirst(skip).first?["id"] as? String)
    }

    func lotCount(_ lotId: String, _ field: String) async throws -> Int? {
        let lots = try await json("/v1/sites/\(siteId)/occupancy")["lots"] as? [[String: Any]] ?? []
        return lots.first { $0["lotId"] as? String == lotId }?[field] as? Int
    }

    func liveEventCount() async throws -> Int {
        try await services.store.sql.raw("SELECT CAST(COALESCE(SUM(event_count), 0) AS BIGINT) AS n FROM live_events").first()?.decode(column: "n", as: Int.self) ?? 0
    }

    /// Worked out independently of the server: the free spot of `among` closest to `origin`,
    /// ties to the smaller id as the contract of `SoftHold.nearest` says.
    func nearestFree(to origin: String, among ids: [String], excludingCategories: Set<String>) async throws -> String? {
        let rows = try await services.store.sql.raw("SELECT id, st.state, category, center_lat, center_lon FROM spots JOIN spot_states st ON st.spot_id = spots.id").all()
        var byId: [String: (state: String, category: String, c: Coordinate)] = [:]
        for r in rows {
            byId[try r.decode(column: "id", as: String.self)] = (
                try r.decode(column: "state", as: String.self), try r.decode(column: "category", as: String.self),
                Coordinate(latitude: try r.decode(column: "center_lat", as: Double.self), longitude: try r.decode(column: "center_lon", as: Double.self)))
        }
        guard let o = byId[origin]?.c else { return nil }
        // The new hold has already claimed its spot, so "free" here includes held.
        return ids.filter { id in
            guard let s = byId[id] else { return false }
            return (s.state == "f" || s.state == "h") && !excludingCategories.contains(s.category)
        }.min { (Geo.distance(o, byId[$0]!.c), $0) < (Geo.distance(o, byId[$1]!.c), $1) }
    }
}
