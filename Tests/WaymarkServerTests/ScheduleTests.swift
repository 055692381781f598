import Foundation
import Testing
import Vapor
@testable import WaymarkServer

@Suite("Weekly parking schedule on the server (PRK-16)")
struct ScheduleTests {
    @Test("PRK-16 blocks are validated, never overlap, and move, resize and delete", arguments: TestDatabase.available)
    func blocks(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.register("pat")
            let lots = try await ctx.lotIds()
            let created = try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token,
                                             json: ["weekday": 2, "startSlot": 16, "endSlot": 20, "lotId": lots["L"]!.uppercased()])
            #expect(created.status == .created)
            #expect(created.json["lotId"] as? String == lots["L"], "ids are compared case-insensitively")
            #expect(created.json["lotName"] as? String == "Test Lot")
            let id = try #require(created.json["id"] as? String)

            for (body, status) in [
                (["weekday": 2, "startSlot": 19, "endSlot": 22], HTTPStatus.conflict),
                (["weekday": 2, "startSlot": 10, "endSlot": 10], .badRequest),
                (["weekday": 8, "startSlot": 0, "endSlot": 1], .badRequest),
                (["weekday": 2, "startSlot": 40, "endSlot": 49], .badRequest),
                (["weekday": 2, "startSlot": -1, "endSlot": 2], .badRequest),
            ] as [([String: Any], HTTPStatus)] {
                #expect(try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token, json: body).status == status, "\(body)")
            }
            let noLot = try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token,
                                           json: ["weekday": 3, "startSlot": 0, "endSlot": 2, "lotId": UUID().uuidString])
            // A lot that does not exist is a bad request, not a missing block.
            #expect(noLot.status == .badRequest)
            #expect(noLot.json["type"] as? String == "https://waymark.dev/problems/unknown-reference")
            #expect(try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token,
                                       json: ["weekday": 3, "startSlot": 0, "endSlot": 2, "lotId": "'; DROP TABLE lots;--"]).status == .badRequest)

            let second = try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token, json: ["weekday": 2, "startSlot": 20, "endSlot": 24])
            #expect(second.status == .created, "adjacent is not overlapping")
            #expect((second.json["advice"] as? [String: Any])?["level"] as? String == "none")
            // Resizing into the neighbour is refused; moving it is fine.
            #expect(try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id)", token: me.token, json: ["weekday": 2, "startSlot": 16, "endSlot": 21]).status == .conflict)
            let moved = try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id)", token: me.token, json: ["weekday": 2, "startSlot": 14, "endSlot": 20])
            #expect(moved.status == .ok)
            // Editing a block to name a lot that does not exist: the block is there, the lot is not.
            let editNoLot = try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id)", token: me.token,
                                               json: ["weekday": 2, "startSlot": 14, "endSlot": 20, "lotId": UUID().uuidString])
            #expect(editNoLot.status == .badRequest)
            #expect(editNoLot.json["type"] as? String == "https://waymark.dev/problems/unknown-reference")
            #expect(moved.json["lotId"] == nil, "a PUT without lotId clears the lot")
            #expect(try await ctx.call(.DELETE, "/v1/me/schedule/blocks/\(id)", token: me.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/me/schedule/blocks/\(id)", token: me.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "/v1/me/schedule/blocks/not-a-uuid", token: me.token, json: ["weekday": 2, "startSlot": 0, "endSlot": 1]).status == .badRequest)
            let left = try await ctx.call(.GET, "/v1/me/schedule", token: me.token).json["blocks"] as? [[String: Any]]
            #expect(left?.count == 1)
        }
    }

    @Test("PRK-16 PRK-19 a block put under an id the app made is added once, edited after, and nobody else's id is taken over", arguments: TestDatabase.available)
    func addedUnderClientId(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.register("sam")
            let other = try await ctx.register("tess")
            let lots = try await ctx.lotIds()
            let id = UUID().uuidString
            let body: [String: Any] = ["weekday": 5, "startSlot": 18, "endSlot": 22]
            let added = try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id)", token: me.token, json: body)
            #expect(added.status == .created)
            #expect(added.json["id"] as? String == id.lowercased())
            // Sent again after a lost answer: the same block, nothing added.
            let again = try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id.lowercased())", token: me.token, json: body)
            #expect(again.status == .ok)
            let withLot = try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id)", token: me.token,
                                             json: ["weekday": 5, "startSlot": 18, "endSlot": 22, "lotId": lots["L"]!])
            #expect(withLot.status == .ok)
            #expect(withLot.json["lotName"] as? String == "Test Lot")
            // Added the same way, the rules hold: no overlap, a real lot.
            #expect(try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(UUID().uuidString)", token: me.token,
                                       json: ["weekday": 5, "startSlot": 20, "endSlot": 24]).status == .conflict)
            #expect(try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(UUID().uuidString)", token: me.token,
                                       json: ["weekday": 5, "startSlot": 30, "endSlot": 32, "lotId": UUID().uuidString]).status == .badRequest)

            // Someone else writing under that id adds nothing and changes nothing of the owner's.
            let stranger = try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(id)", token: other.token, json: ["weekday": 1, "startSlot": 0, "endSlot": 2])
            #expect(stranger.status == .notFound, "as any block that is not theirs")
            #expect(try await ctx.call(.DELETE, "/v1/me/schedule/blocks/\(id)", token: other.token).status == .notFound)
            #expect((try await ctx.call(.GET, "/v1/me/schedule", token: other.token).json["blocks"] as? [[String: Any]])?.isEmpty == true)
            let mine = try await ctx.call(.GET, "/v1/me/schedule", token: me.token).json["blocks"] as? [[String: Any]]
            #expect(mine?.count == 1)
            #expect(mine?.first?["weekday"] as? Int == 5)
            #expect(mine?.first?["lotId"] as? String == lots["L"])
        }
    }

    @Test("PRK-16 advice: red without the lot's permit, green below 85 %, yellow at or above, unknown without history", arguments: TestDatabase.available)
    func advice(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.register("quinn")
            let lots = try await ctx.lotIds()
            // Structure S needs Green 07:00–22:00 on weekdays. Monday 08:00–09:00:
            let block = ["weekday": 2, "startSlot": 16, "endSlot": 18, "lotId": lots["S"]!] as [String: Any]
            let red = try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token, json: block)
            let redAdvice = try #require(red.json["advice"] as? [String: Any])
            #expect(redAdvice["level"] as? String == "red")
            #expect(redAdvice["requiredPermits"] as? [String] == ["green"])
            #expect(redAdvice["reason"] as? String == "Needs a Green permit at 08:00 on Monday.")

            try await ctx.call(.PUT, "/v1/me/permits", token: me.token, json: ctx.permitsBody(["green"]))
            var advice = try #require((try await ctx.call(.GET, "/v1/me/schedule", token: me.token).json["blocks"] as? [[String: Any]])?.first?["advice"] as? [String: Any])
            #expect(advice["level"] as? String == "unknown", "re-checked on every read: the permit counts now, no history yet")

            // Typical occupancy from four past Mondays at 08:00 site time (16:00 UTC in November).
            let monday0800 = Date(timeIntervalSince1970: 1_794_844_800)  // Mon 2026-11-16 16:00Z
            for week in 0..<4 {
                let at = monday0800.addingTimeInterval(Double(-week * 7 * 86_400))
                try await ctx.services.store.sql.raw("""
                    INSERT INTO occupancy_snapshots (lot_id, slot_start, taken, total) VALUES (\(bind: lots["S"]!), \(bind: at.millis), \(bind: 18), 20)
                    """).run()
            }
            advice = try #require((try await ctx.call(.GET, "/v1/me/schedule", token: me.token).json["blocks"] as? [[String: Any]])?.first?["advice"] as? [String: Any])
            #expect(advice["level"] as? String == "yellow")
            #expect(advice["typicalOccupancy"] as? Double == 0.9)

            let lotAdvice = try await ctx.call(.GET, "/v1/me/schedule/lot-advice?siteId=\(ctx.siteId)&weekday=2&startSlot=16&endSlot=18", token: me.token)
            let list = try #require(lotAdvice.json["lots"] as? [[String: Any]])
            #expect(list.map { $0["lotName"] as? String } == ["Test Structure", "Test Lot"], "yellow (usable, busy) ranks before unknown")
            #expect(try await ctx.call(.GET, "/v1/me/schedule/lot-advice?siteId=nope&weekday=2&startSlot=16&endSlot=18", token: me.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/me/schedule/lot-advice?siteId=\(ctx.siteId)&weekday=9&startSlot=16&endSlot=18", token: me.token).status == .badRequest)
        }
    }

    @Test("PRK-16 concurrent overlapping blocks of one user: exactly one is stored", arguments: TestDatabase.available)
    func oneBlockUnderLoad(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.register("ray")
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for i in 0..<20 {
                    group.addTask {
                        try await ctx.call(.POST, "/v1/me/schedule/blocks", token: me.token,
                                           json: ["weekday": 4, "startSlot": 10 + i % 3, "endSlot": 14]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 19)
            let blocks = try await ctx.call(.GET, "/v1/me/schedule", token: me.token).json["blocks"] as? [[String: Any]]
            #expect(blocks?.count == 1)
        }
    }
}
