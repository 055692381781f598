import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Lot details, reviews and lot filters on the server (PRK-14)")
struct ReviewTests {
    @Test("PRK-14 one review per person and lot: the second PUT edits it, and the lot's rating follows",
          arguments: TestDatabase.available)
    func oneReviewPerPerson(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.lotId("L")
            let ana = try await ctx.register("ana_r")
            let first = try await ctx.call(.PUT, "/v1/lots/\(lot)/reviews/me", token: ana.token, json: ["stars": 3, "text": "  Fine.  "])
            #expect(first.status == .created)
            #expect(first.json["stars"] as? Int == 3)
            #expect(first.json["text"] as? String == "Fine.", "trimmed")
            #expect(first.json["author"] as? String == "ana_r")
            #expect(first.json["mine"] as? Bool == true)
            let id = try #require(first.json["id"] as? String)

            ctx.clock.advance(by: 60)
            let edited = try await ctx.call(.PUT, "/v1/lots/\(lot.uppercased())/reviews/me", token: ana.token,
                                            json: ["stars": 5, "text": "Always a space before 8."])
            #expect(edited.status == .ok)
            #expect(edited.json["id"] as? String == id, "the same review, edited")
            #expect(edited.json["createdAt"] as? String != edited.json["updatedAt"] as? String)

            let list = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews")
            #expect(list.status == .ok)
            let reviews = try #require(list.json["reviews"] as? [[String: Any]])
            #expect(reviews.count == 1)
            #expect(reviews.first?["stars"] as? Int == 5)
            #expect(reviews.first?["mine"] as? Bool == false, "nobody is asking")
            #expect(list.json["mine"] == nil)
            let rating = try #require(list.json["rating"] as? [String: Any])
            #expect(rating["count"] as? Int == 1)
            #expect(rating["average"] as? Double == 5)
            #expect(rating["stars"] as? [Int] == [0, 0, 0, 0, 1])

            let lots = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots").json["lots"] as? [[String: Any]] ?? []
            let l = try #require(lots.first { $0["code"] as? String == "L" })
            #expect((l["rating"] as? [String: Any])?["average"] as? Double == 5)
            #expect(l["keysRequired"] as? Bool == true)
            #expect(l["distanceMetres"] == nil, "no point given")
            let s = try #require(lots.first { $0["code"] as? String == "S" })
            #expect((s["rating"] as? [String: Any])?["count"] as? Int == 0)
            #expect((s["rating"] as? [String: Any])?["average"] == nil, "no reviews is no rating, not zero")
            #expect(s["keysRequired"] as? Bool == false)
            let single = try await ctx.call(.GET, "/v1/lots/\(lot)")
            #expect((single.json["rating"] as? [String: Any])?["count"] as? Int == 1)
        }
    }

    @Test("PRK-14 a review is only ever its author's to edit or delete; reading is public, writing needs an account",
          arguments: TestDatabase.available)
    func authorisation(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.lotId("L")
            let ana = try await ctx.register("ana_a")
            let bob = try await ctx.register("bob_a")
            let path = "/v1/lots/\(lot)/reviews/me"
            #expect(try await ctx.call(.PUT, path, json: ["stars": 1, "text": "x"]).status == .unauthorized)
            #expect(try await ctx.call(.PUT, path, token: "not-a-token", json: ["stars": 1, "text": "x"]).status == .unauthorized)
            let guest = try await ctx.device()
            let refused = try await ctx.call(.PUT, path, token: guest.token, json: ["stars": 1, "text": "x"])
            #expect(refused.status == .forbidden)
            #expect(refused.problemType == "account-required")
            #expect(try await ctx.call(.DELETE, path).status == .unauthorized)

            let anas = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 5, "text": "Ana's"])
            ctx.clock.advance(by: 1)
            // Bob's PUT on the same lot is his own review: it cannot reach Ana's.
            let bobs = try await ctx.call(.PUT, path, token: bob.token, json: ["stars": 1, "text": "Bob's"])
            #expect(bobs.status == .created)
            #expect(bobs.json["id"] as? String != anas.json["id"] as? String)
            #expect(try await ctx.call(.DELETE, path, token: bob.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, path, token: bob.token).status == .noContent, "deleting again is harmless")

            let asAna = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews", token: ana.token)
            let reviews = try #require(asAna.json["reviews"] as? [[String: Any]])
            #expect(reviews.map { $0["text"] as? String } == ["Ana's"], "Bob's delete left Ana's review")
            #expect(reviews.first?["mine"] as? Bool == true)
            #expect((asAna.json["mine"] as? [String: Any])?["text"] as? String == "Ana's")
            let asBob = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews", token: bob.token)
            #expect(asBob.json["mine"] == nil)
            #expect((asBob.json["reviews"] as? [[String: Any]])?.first?["mine"] as? Bool == false)
            // The review shows the author's name, nothing else of their account.
            let keys = Set(reviews.first?.keys.map { $0 } ?? [])
            #expect(keys == ["id", "lotId", "author", "stars", "text", "createdAt", "updatedAt", "mine"])
        }
    }

    @Test("PRK-14 bad stars, too long a text, an unknown lot and a bad page are 4xx problems that change nothing",
          arguments: TestDatabase.available)
    func validation(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.lotId("L")
            let ana = try await ctx.register("ana_v")
            let path = "/v1/lots/\(lot)/reviews/me"
            for stars in [0, 6, -1] {
                let res = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": stars, "text": "x"])
                #expect(res.status == .badRequest)
                #expect(res.problemType == "review-stars-invalid")
            }
            let long = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 4, "text": String(repeating: "a", count: 2001)])
            #expect(long.status == .badRequest)
            #expect(long.problemType == "review-text-too-long")
            let nul = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 4, "text": "a\u{0}b"])
            #expect(nul.status == .badRequest, "PostgreSQL cannot store a NUL: refused, never a 500")
            #expect(nul.problemType == "review-text-invalid")
            #expect(try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 4]).status == .badRequest)
            #expect(try await ctx.call(.PUT, path, token: ana.token, json: ["stars": "four", "text": ""]).status == .badRequest)
            #expect(try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 4.5, "text": ""]).status == .badRequest)
            #expect(try await ctx.call(.PUT, path, token: ana.token, body: Data("stars=4".utf8), contentType: "text/plain").status == .unsupportedMediaType)
            for other in [UUID().uuidString, "not-a-lot"] {
                let res = try await ctx.call(.PUT, "/v1/lots/\(other)/reviews/me", token: ana.token, json: ["stars": 4, "text": ""])
                #expect(res.status == .notFound)
                #expect(try await ctx.call(.GET, "/v1/lots/\(other)/reviews").status == .notFound)
                #expect(try await ctx.call(.DELETE, "/v1/lots/\(other)/reviews/me", token: ana.token).status == .notFound)
            }
            #expect(try await ctx.call(.GET, "/v1/lots/\(lot)/reviews?limit=0").status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/lots/\(lot)/reviews?limit=51").status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/lots/\(lot)/reviews?cursor=yesterday").status == .badRequest)
            let summary = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews").json["rating"] as? [String: Any]
            #expect(summary?["count"] as? Int == 0, "nothing was written")
        }
    }

    @Test("PRK-14 reviews come newest first, a page at a time", arguments: TestDatabase.available)
    func paging(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.lotId("L")
            for name in ["p_one", "p_two", "p_three"] {
                let user = try await ctx.register(name)
                try await ctx.call(.PUT, "/v1/lots/\(lot)/reviews/me", token: user.token, json: ["stars": 4, "text": name])
                ctx.clock.advance(by: 10)
            }
            let first = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews?limit=2")
            #expect((first.json["reviews"] as? [[String: Any]])?.map { $0["text"] as? String } == ["p_three", "p_two"])
            let cursor = try #require(first.json["nextCursor"] as? String)
            let second = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews?limit=2&cursor=\(cursor)")
            #expect((second.json["reviews"] as? [[String: Any]])?.map { $0["text"] as? String } == ["p_one"])
            #expect(second.json["nextCursor"] == nil)
            #expect((second.json["rating"] as? [String: Any])?["count"] as? Int == 3, "the rating covers every page")
        }
    }

    @Test("PRK-14 PRK-19 a replayed PUT with its Idempotency-Key changes nothing, so a queued old review never overwrites a newer edit",
          arguments: TestDatabase.available)
    func idempotentPut(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.lotId("L")
            let ana = try await ctx.register("ana_i")
            let path = "/v1/lots/\(lot)/reviews/me"
            let key: HTTPHeaders = ["Idempotency-Key": "review-1"]
            #expect(try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 3, "text": "Queued"], headers: key).status == .created)
            ctx.clock.advance(by: 5)
            #expect(try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 5, "text": "Newer"]).status == .ok)
            let replay = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 3, "text": "Queued"], headers: key)
            #expect(replay.status == .ok)
            #expect(replay.json["text"] as? String == "Newer")
            #expect(replay.json["stars"] as? Int == 5)
            let reused = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 4, "text": "Other"], headers: key)
            #expect(reused.status == .conflict)
            #expect(reused.problemType == "idempotency-key-reused")
            #expect(try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 4, "text": ""], headers: ["Idempotency-Key": "has space"]).status == .badRequest)
            #expect(try await ctx.call(.DELETE, path, token: ana.token).status == .noContent)
            let afterDelete = try await ctx.call(.PUT, path, token: ana.token, json: ["stars": 3, "text": "Queued"], headers: key)
            #expect(afterDelete.status == .conflict, "a delete made later is not undone by the replay")
            #expect(afterDelete.problemType == "review-deleted")
        }
    }

    @Test("PRK-14 filters: rating strictly above 4.5, within a radius nearest first, keys, permit at a time, price",
          arguments: TestDatabase.available)
    func filters(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let ids = try await ctx.lotIds()
            let (s, l) = (try #require(ids["S"]), try #require(ids["L"]))
            // L: 5, 5, 4 (4.67). S: 5, 4 (exactly 4.5).
            for (i, (lot, stars)) in [(l, 5), (l, 5), (l, 4), (s, 5), (s, 4)].enumerated() {
                let user = try await ctx.register("rater_\(i)")
                #expect(try await ctx.call(.PUT, "/v1/lots/\(lot)/reviews/me", token: user.token, json: ["stars": stars, "text": ""]).status == .created)
            }
            func codes(_ query: String) async throws -> [String] {
                let res = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots?\(query)")
                #expect(res.status == .ok, "\(query): \(res.status)")
                return (res.json["lots"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            }
            #expect(try await codes("") == ["S", "L"])
            #expect(try await codes("ratingAbove=4.5") == ["L"], "S is rated exactly 4.5: not above")
            #expect(try await codes("ratingAbove=4.4") == ["S", "L"])
            #expect(try await codes("ratingAbove=4.7") == [])

            // S is 100 m west of the campus centre and L 100 m east.
            let west = Geo.offset(Fixtures.origin, east: -100, north: 0)
            let near = "lat=\(west.latitude)&lon=\(west.longitude)"
            #expect(try await codes("\(near)&radius=150") == ["S"])
            #expect(try await codes("\(near)&radius=250") == ["S", "L"])
            let east = Geo.offset(Fixtures.origin, east: 150, north: 0)
            #expect(try await codes("lat=\(east.latitude)&lon=\(east.longitude)") == ["L", "S"], "nearest first")
            let measured = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots?\(near)").json["lots"] as? [[String: Any]] ?? []
            let lDistance = try #require(measured.first { $0["code"] as? String == "L" }?["distanceMetres"] as? Double)
            #expect(abs(lDistance - 200) < 1)
            #expect(try await codes("ratingAbove=4.5&lat=\(east.latitude)&lon=\(east.longitude)&radius=1000") == ["L"])

            #expect(try await codes("keysRequired=true") == ["L"])
            #expect(try await codes("keysRequired=false") == ["S"])

            // S needs a Green permit 07:00–22:00 on weekdays; the clock says Wednesday 09:00.
            #expect(try await codes("permit=black") == ["L"])
            #expect(try await codes("permit=black&permit=green") == ["S", "L"])
            #expect(try await codes("permit=none") == ["L"])
            #expect(try await codes("permit=none&at=2026-11-22T17:00:00Z") == ["S", "L"], "Sunday: open to all")
            #expect(try await codes("permit=none&at=2026-11-19T06:00:00Z") == ["S", "L"], "22:00 local: the rule has ended")

            #expect(try await codes("maxHourlyCents=200") == ["S", "L"])
            #expect(try await codes("maxHourlyCents=199") == [])

            // An accessible spot free now, by its sensor: L's one accessible spot, once reported free, then taken.
            let freed = try await ctx.freeLot("L")
            #expect(try await codes("accessible=true").contains("L"))
            let spots = try #require(try await ctx.json("/v1/lots/\(freed.id)/spots")["spots"] as? [[String: Any]])
            let accessible = try #require(spots.first { $0["category"] as? String == "handicap" })
            let taken = try await ctx.ingest([TestContext.event(accessible["sensorId"] as! String, true, at: ctx.clock.now, seq: 2)])
            #expect(taken.status == .ok)
            #expect(try await !codes("accessible=true").contains("L"))
            #expect(try await codes("accessible=false") == ["S", "L"], "false asks nothing")

            for bad in ["lat=33.8", "lon=-117.8", "radius=100", "lat=33.8&lon=-117.8&radius=0", "lat=33.8&lon=-117.8&radius=50001",
                        "lat=91&lon=0", "lat=abc&lon=0", "ratingAbove=6", "ratingAbove=-1", "ratingAbove=x",
                        "at=2026-11-22T17:00:00Z", "permit=purple", "keysRequired=maybe", "maxHourlyCents=-5", "maxHourlyCents=1.5", "maxHourlyCents=1000001", "accessible=yes",
                        "permit=green&permit=green&permit=green&permit=green&permit=green&permit=green"] {
                let res = try await ctx.call(.GET, "/v1/sites/\(ctx.siteId)/lots?\(bad)")
                #expect(res.status == .badRequest, "\(bad): \(res.status)")
                #expect(res.json["type"] != nil, "\(bad) is a problem")
            }
            #expect(try await ctx.call(.GET, "/v1/sites/\(UUID().uuidString)/lots?ratingAbove=4.5").status == .notFound)
        }
    }

    @Test("PRK-14 ACC-5 deleting an account erases its reviews and the ratings forget them", arguments: TestDatabase.available)
    func deletionErasesReviews(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let lot = try await ctx.lotId("L")
            let gone = try await ctx.register("mia_rev")
            let stays = try await ctx.register("ned_rev")
            try await ctx.call(.PUT, "/v1/lots/\(lot)/reviews/me", token: gone.token, json: ["stars": 1, "text": "Mia was here"],
                               headers: ["Idempotency-Key": "mia-review"])
            try await ctx.call(.PUT, "/v1/lots/\(lot)/reviews/me", token: stays.token, json: ["stars": 5, "text": "Ned's"])
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: gone.token, json: ["password": TestContext.password]).status == .noContent)

            let rows = try await ctx.allRows()
            #expect(!rows.values.joined().contains { $0.contains(gone.id) || $0.contains("Mia was here") })
            #expect(rows["lot_reviews"]?.count == 1)
            let list = try await ctx.call(.GET, "/v1/lots/\(lot)/reviews")
            #expect((list.json["reviews"] as? [[String: Any]])?.map { $0["author"] as? String } == ["ned_rev"])
            #expect((list.json["rating"] as? [String: Any])?["average"] as? Double == 5)
        }
    }
}
