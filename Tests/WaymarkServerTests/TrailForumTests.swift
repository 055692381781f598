import Foundation
import Testing
@testable import WaymarkServer

@Suite("Trail forum")
struct TrailForumTests {
    static func posts(_ res: TestResponse) -> [[String: Any]] { res.json["posts"] as? [[String: Any]] ?? [] }

    /// A point about `north` metres north of the trailhead of Heart Rock Trail.
    static func pin(_ ctx: TestContext, north: Double = 200) async throws -> [String: Double] {
        let page = try await ctx.call(.GET, "/v1/trails/heart-rock")
        let head = try #require((page.json["summary"] as? [String: Any])?["trailhead"] as? [String: Any])
        let lat = try #require(head["latitude"] as? Double), lon = try #require(head["longitude"] as? Double)
        return ["latitude": lat + north / 111_195, "longitude": lon]
    }

    @Test("TRL-5 posts are pinned near the trail, newest first, dated and visible to all; the same id sent twice is one post; edit and delete only one's own",
          arguments: TestDatabase.available)
    func trl5Forum(db: TestDatabase) async throws {
        try await TrailsTests.withDemo(db) { ctx in
            let path = "/v1/trails/heart-rock/forum"
            let empty = try await ctx.call(.GET, path)
            #expect(empty.status == .ok && empty.json["total"] as? Int == 0)
            let pin = try await Self.pin(ctx)
            let guest = try await ctx.device()
            let refused = try await ctx.call(.PUT, "\(path)/guest-post-1", token: guest.token, json: ["text": "Hello", "pin": pin])
            #expect(refused.status == .forbidden && refused.problemType == "account-required")

            let ana = try await ctx.register("ana"), ben = try await ctx.register("ben")
            let first = try await ctx.call(.PUT, "\(path)/ana-post-0001", token: ana.token, json: ["text": "  Water at the second bridge  ", "pin": pin])
            #expect(first.status == .created && first.json["text"] as? String == "Water at the second bridge" && first.json["mine"] as? Bool == true)
            #expect(first.json["authorName"] as? String == "ana")
            ctx.clock.advance(by: 60)
            // Sent again after a lost answer: stored once, the answer says it was already there.
            let again = try await ctx.call(.PUT, "\(path)/ana-post-0001", token: ana.token, json: ["text": "Water at the second bridge", "pin": pin])
            #expect(again.status == .ok)
            let taken = try await ctx.call(.PUT, "\(path)/ana-post-0001", token: ben.token, json: ["text": "Mine now", "pin": pin])
            #expect(taken.status == .conflict && taken.problemType == "post-id-taken")
            let other = try await ctx.call(.PUT, "\(path)/ben-post-0001", token: ben.token, json: ["text": "Rattlesnake on the rocks", "pin": try await Self.pin(ctx, north: 900)])
            #expect(other.status == .created)

            let list = try await ctx.call(.GET, path, token: ana.token)
            let posts = Self.posts(list)
            #expect(list.json["total"] as? Int == 2 && posts.map { $0["id"] as? String } == ["ben-post-0001", "ana-post-0001"], "newest first")
            #expect(posts.map { $0["mine"] as? Bool } == [false, true])
            #expect(posts.allSatisfy { $0["createdAt"] as? String != nil && $0["pin"] as? [String: Any] != nil })
            #expect(Self.posts(try await ctx.call(.GET, path)).count == 2, "a stranger without an account reads them too")
            #expect(Self.posts(try await ctx.call(.GET, "\(path)?limit=1&offset=1")).first?["id"] as? String == "ana-post-0001")

            // Bad posts get problems, not 500s.
            for (body, type) in [
                (["text": "   ", "pin": pin] as [String: Any], "post-text-empty"),
                (["text": String(repeating: "a", count: 1001), "pin": pin], "post-text-too-long"),
                (["text": "bell \u{7}", "pin": pin], "post-text-invalid"),
                (["text": "Far away", "pin": ["latitude": 48.85, "longitude": 2.35]], "post-pin-too-far"),
                (["text": "Nowhere", "pin": ["latitude": 91, "longitude": 0]], "post-pin-invalid"),
            ] {
                let res = try await ctx.call(.PUT, "\(path)/ana-post-0002", token: ana.token, json: body)
                #expect(res.status == .badRequest && res.problemType == type, "\(type)")
            }
            #expect(try await ctx.call(.PUT, "\(path)/x", token: ana.token, json: ["text": "short id", "pin": pin]).status == .badRequest)
            #expect(try await ctx.call(.PUT, "/v1/trails/nope/forum/ana-post-0003", token: ana.token, json: ["text": "x", "pin": pin]).status == .notFound)

            // Ben cannot delete Ana's post; Ana can.
            #expect(try await ctx.call(.DELETE, "\(path)/ana-post-0001", token: ben.token).status == .noContent)
            #expect(try await ctx.call(.GET, path).json["total"] as? Int == 2)
            #expect(try await ctx.call(.DELETE, "\(path)/ana-post-0001", token: ana.token).status == .noContent)
            #expect(Self.posts(try await ctx.call(.GET, path)).map { $0["id"] as? String } == ["ben-post-0001"])
        }
    }

    @Test("TRL-12 a reported forum post goes to the operators' queue: hidden, restored or dismissed; erasing an account erases its posts",
          arguments: TestDatabase.available)
    func trl12ForumModeration(db: TestDatabase) async throws {
        try await TrailsTests.withDemo(db) { ctx in
            let olive = try await ctx.register("olive", email: "olive@example.com")
            #expect(try await ctx.app.grantOperator(login: "olive@example.com"))
            let ana = try await ctx.register("ana"), ben = try await ctx.register("ben")
            let path = "/v1/trails/heart-rock/forum"
            let pin = try await Self.pin(ctx)
            #expect(try await ctx.call(.PUT, "\(path)/spam-000001", token: ana.token, json: ["text": "Cheap boots at …", "pin": pin]).status == .created)
            #expect(try await ctx.call(.POST, "/v1/trail-forum-posts/spam-000001/reports", token: ana.token, json: ["reason": "spam"]).status == .forbidden)
            #expect(try await ctx.call(.POST, "/v1/trail-forum-posts/spam-000001/reports", token: ben.token, json: ["reason": "spam"]).status == .noContent)
            #expect(try await ctx.call(.POST, "/v1/trail-forum-posts/spam-000001/reports", token: ben.token, json: ["reason": "offensive"]).status == .noContent)
            #expect(try await ctx.call(.POST, "/v1/trail-forum-posts/none-00001/reports", token: ben.token, json: ["reason": "spam"]).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/operator/trail-forum-posts", token: ben.token).status == .forbidden)
            let queue = Self.posts(try await ctx.call(.GET, "/v1/operator/trail-forum-posts", token: olive.token))
            #expect(queue.count == 1 && queue.first?["reports"] as? Int == 1 && queue.first?["reasons"] as? [String] == ["spam"])
            #expect(queue.first?["trailName"] as? String == "Heart Rock Trail")

            let moderation = "/v1/operator/trail-forum-posts/spam-000001/moderation"
            #expect(try await ctx.call(.POST, moderation, token: olive.token, json: ["action": "hide"]).status == .noContent)
            #expect(try await ctx.call(.GET, path).json["total"] as? Int == 0)
            #expect(Self.posts(try await ctx.call(.GET, "/v1/operator/trail-forum-posts", token: olive.token)).first?["hidden"] as? Bool == true)
            #expect(try await ctx.call(.POST, moderation, token: olive.token, json: ["action": "restore"]).status == .noContent)
            #expect(try await ctx.call(.GET, path).json["total"] as? Int == 1)
            #expect(Self.posts(try await ctx.call(.GET, "/v1/operator/trail-forum-posts", token: olive.token)).isEmpty)
            #expect(try await ctx.call(.POST, "/v1/trail-forum-posts/spam-000001/reports", token: ben.token, json: ["reason": "wrong"]).status == .noContent)
            #expect(try await ctx.call(.POST, moderation, token: olive.token, json: ["action": "dismiss"]).status == .noContent)
            #expect(Self.posts(try await ctx.call(.GET, "/v1/operator/trail-forum-posts", token: olive.token)).isEmpty)
            #expect(try await ctx.call(.GET, path).json["total"] as? Int == 1, "dismissing leaves the post shown")

            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: ana.token, json: ["password": TestContext.password]).status == .noContent)
            #expect(try await ctx.call(.GET, path).json["total"] as? Int == 0)
            let left = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM trail_forum_posts").first()?.decode(column: "n", as: Int.self)
            #expect(left == 0)
        }
    }
}
