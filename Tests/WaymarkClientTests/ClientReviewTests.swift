import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK lot reviews and lot filters against a live server (PRK-14)")
struct ClientReviewTests {
    @Test("PRK-14 a member reviews a demo lot, edits and deletes the review, and finds lots by rating, distance, keys, permit and price")
    func reviewAndFilterThroughTheSDK() async throws {
        try await LiveServer.with(configure: { $0.passwordHashCost = 4 }) { server in
            let member = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await member.register(username: "sdk_reviewer", password: "Str0ng!pass")
            let lots = try await member.lots(siteId: server.siteId)
            let lotA = try #require(lots.first { $0.code == "A" })
            #expect(lotA.keysRequired)
            #expect(lotA.rating.count == 0)
            #expect(try await member.lots(siteId: server.siteId, matching: LotQuery(ratingAbove: 4.5)).isEmpty, "nobody has reviewed yet")

            let written = try await member.putReview(lotId: lotA.id, stars: 4, text: "Quick to park on a Friday.")
            #expect(written.mine)
            #expect(written.author == "sdk_reviewer")
            let edited = try await member.putReview(lotId: lotA.id, stars: 5, text: "Even better with a booking.")
            #expect(edited.id == written.id)
            let list = try await member.reviews(lotId: lotA.id)
            #expect(list.reviews.map(\.text) == ["Even better with a booking."])
            #expect(list.mine?.id == written.id)
            #expect(list.rating.average == 5)

            let rated = try await member.lots(siteId: server.siteId, matching: LotQuery(ratingAbove: 4.5))
            #expect(rated.map(\.code) == ["A"])
            let here = Coordinate(latitude: lotA.center.latitude, longitude: lotA.center.longitude)
            let near = try await member.lots(siteId: server.siteId, matching: LotQuery(near: here, radiusMetres: 10))
            #expect(near.map(\.code) == ["A"])
            #expect((near.first?.distanceMetres ?? 99) < 1)
            let keys = try await member.lots(siteId: server.siteId, matching: LotQuery(keysRequired: true))
            #expect(Set(keys.map(\.code)) == ["A", "G", "CP"])
            let sunday = try await member.lots(siteId: server.siteId, matching: LotQuery(permits: [], at: Self.nextSunday()))
            #expect(!sunday.isEmpty)
            let cheap = try await member.lots(siteId: server.siteId, matching: LotQuery(maxHourlyCents: 0))
            #expect(cheap.allSatisfy { $0.price.hourlyCents == 0 })

            do {
                _ = try await member.lots(siteId: server.siteId, matching: LotQuery(radiusMetres: 100))
                Issue.record("a radius without a point was accepted")
            } catch let error as WaymarkClientError {
                #expect(error.problemKind == "lot-filter-invalid")
            }
            do {
                try await member.putReview(lotId: lotA.id, stars: 6, text: "")
                Issue.record("six stars were accepted")
            } catch let error as WaymarkClientError {
                #expect(error.problemKind == "review-stars-invalid")
            }

            try await member.deleteReview(lotId: lotA.id)
            let after = try await member.reviews(lotId: lotA.id)
            #expect(after.reviews.isEmpty)
            #expect(after.mine == nil)
            #expect(after.rating.count == 0)
        }
    }

    @Test("PRK-14 PRK-19 a review written offline waits in the outbox, the newest replacing an older one for the same lot, and is sent once")
    func reviewWrittenOffline() async throws {
        let app = try await OfflineApp.start("review-outbox") { $0.passwordHashCost = 4 }
        defer { app.remove() }
        let (lotA, lotG) = try await app.beforeGoingDown {
            let member = app.launch(online: true)
            try await member.register(username: "sdk_offline_reviewer", password: "Str0ng!pass")
            let lots = try await member.lots(siteId: app.server.siteId)
            return (try #require(lots.first { $0.code == "A" }).id, try #require(lots.first { $0.code == "G" }).id)
        }

        let member = app.launch(online: false)
        for action in [Outbox.Write.Action.putReview(lotId: lotA, stars: 2, text: "First thoughts"),
                       .putReview(lotId: lotG, stars: 4, text: "Lot G"),
                       .putReview(lotId: lotA, stars: 5, text: "Second thoughts")] {
            guard case .queued = try await member.send(action) else {
                Issue.record("\(action) was not queued while the server was down")
                return
            }
        }
        let queued = await member.outbox.writes
        #expect(queued.map(\.action) == [.putReview(lotId: lotG, stars: 4, text: "Lot G"),
                                          .putReview(lotId: lotA, stars: 5, text: "Second thoughts")])

        try await app.whenBack { () async throws in
            let member = app.launch(online: true)
            let results = await member.flushOutbox()
            #expect(results.count == 2)
            for result in results {
                guard case .success(.review) = result.result else {
                    Issue.record("not sent: \(result.result)")
                    continue
                }
            }
            #expect(await member.outbox.writes.isEmpty)
            #expect(try await member.reviews(lotId: lotA).mine?.text == "Second thoughts")
            #expect(try await member.reviews(lotId: lotG).mine?.stars == 4)
            #expect(try await member.reviews(lotId: lotA).reviews.count == 1, "one review per person, however often it was sent")
        }
    }

    /// Next Sunday at noon on the demo campus: every lot is open to drivers without a permit.
    static func nextSunday() -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        let sunday = calendar.nextDate(after: Date(), matching: DateComponents(hour: 12, weekday: 1), matchingPolicy: .nextTime)!
        return sunday
    }
}
