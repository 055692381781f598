import Foundation
import Testing
@testable import WaymarkServer
import WaymarkCore

@Suite("Friends, messages and location sharing (TRL-8, TRL-9)")
struct SocialTests {
    static func people(_ r: TestResponse) -> [[String: Any]] { r.json["people"] as? [[String: Any]] ?? [] }
    static func ids(_ list: Any?) -> [String] { (list as? [[String: Any]] ?? []).compactMap { ($0["person"] as? [String: Any])?["id"] as? String } }

    /// Two accounts who are friends (ana asked, ben accepted).
    static func friends(_ ctx: TestContext, _ a: String = "ana", _ b: String = "ben") async throws -> (a: (token: String, id: String), b: (token: String, id: String)) {
        let x = try await ctx.register(a), y = try await ctx.register(b)
        #expect(try await ctx.call(.PUT, "/v1/me/friends/\(y.id)", token: x.token).json["relation"] as? String == "requested")
        #expect(try await ctx.call(.PUT, "/v1/me/friends/\(x.id)", token: y.token).json["relation"] as? String == "friend")
        return (x, y)
    }

    @Test("TRL-8 people are found by username; a request reaches the inbox, is accepted by asking back, declined or withdrawn; friends are listed and removed; blocking ends it and stops requests; guests have none of it",
          arguments: TestDatabase.available)
    func trl8Friends(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let ana = try await ctx.register("ana_hikes"), ben = try await ctx.register("Ben_Walks"), cy = try await ctx.register("cyd")
            try await ctx.call(.PUT, "/v1/me/profile", token: ben.token, json: ["firstName": "Ben", "lastName": "Ortiz"])
            let found = try await ctx.call(.GET, "/v1/people?username=BEN", token: ana.token)
            #expect(Self.people(found).count == 1)
            let ben1 = try #require(Self.people(found).first)
            #expect((ben1["person"] as? [String: Any])?["name"] as? String == "Ben Ortiz" && ben1["relation"] as? String == "none")
            #expect(try await ctx.call(.GET, "/v1/people?username=b", token: ana.token).status == .badRequest, "one letter finds too many")
            #expect(try await ctx.call(.GET, "/v1/people?username=%25%25", token: ana.token).json["people"] as? [Any] != nil)
            #expect(Self.people(try await ctx.call(.GET, "/v1/people?username=%25%25", token: ana.token)).isEmpty, "LIKE's wildcards are letters here")
            #expect(Self.people(try await ctx.call(.GET, "/v1/people?username=ana", token: ana.token)).isEmpty, "you do not find yourself")

            // Ana asks; Ben is told and sees the request; asking again changes nothing.
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ben.id)", token: ana.token).json["relation"] as? String == "requested")
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ben.id)", token: ana.token).json["relation"] as? String == "requested")
            let inbox = try await ctx.call(.GET, "/v1/me/notifications", token: ben.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(inbox.count == 1 && inbox.first?["kind"] as? String == "friend-request" && (inbox.first?["title"] as? String ?? "").contains("ana_hikes"))
            let request = try #require(try await NotificationStore.after(0, userId: ben.id, limit: 10, sql: ctx.services.store.sql).first)
            #expect(Pusher.screen(of: request) == "/trails/friends", "a pushed request opens Friends")
            let benView = try await ctx.call(.GET, "/v1/me/friends", token: ben.token).json
            #expect(Self.ids(benView["incoming"]) == [ana.id] && Self.ids(benView["friends"]).isEmpty)
            #expect(Self.ids(try await ctx.call(.GET, "/v1/me/friends", token: ana.token).json["outgoing"]) == [ben.id])
            #expect(Self.people(try await ctx.call(.GET, "/v1/people?username=ana", token: ben.token)).first?["relation"] as? String == "asks-you")

            // Ben accepts by asking back: both are friends, Ana is told.
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: ben.token).json["relation"] as? String == "friend")
            #expect(Self.ids(try await ctx.call(.GET, "/v1/me/friends", token: ana.token).json["friends"]) == [ben.id])
            #expect(Self.ids(try await ctx.call(.GET, "/v1/me/friends", token: ben.token).json["incoming"]).isEmpty)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: ana.token).json["notifications"] as? [[String: Any]])?.first?["kind"] as? String == "friend-accepted")

            // Cy asks Ana; Ana declines: no friendship, no request.
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: cy.token).status == .ok)
            #expect(try await ctx.call(.DELETE, "/v1/me/friends/\(cy.id)", token: ana.token).status == .noContent)
            #expect(Self.ids(try await ctx.call(.GET, "/v1/me/friends", token: cy.token).json["outgoing"]).isEmpty)
            #expect(try await ctx.call(.DELETE, "/v1/me/friends/\(cy.id)", token: ana.token).status == .notFound)

            // Removing a friend ends it for both.
            #expect(try await ctx.call(.DELETE, "/v1/me/friends/\(ana.id)", token: ben.token).status == .noContent)
            #expect(Self.ids(try await ctx.call(.GET, "/v1/me/friends", token: ana.token).json["friends"]).isEmpty)

            // Ana blocks Cy: Cy no longer finds her, and Cy's requests are refused as if she were nobody.
            #expect(try await ctx.call(.PUT, "/v1/me/blocks/\(cy.id)", token: ana.token).status == .noContent)
            #expect(Self.people(try await ctx.call(.GET, "/v1/people?username=ana", token: cy.token)).isEmpty)
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: cy.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(cy.id)", token: ana.token).problemType == "person-blocked")
            #expect((try await ctx.call(.GET, "/v1/me/friends", token: ana.token).json["blocked"] as? [[String: Any]])?.first?["id"] as? String == cy.id)
            #expect(try await ctx.call(.DELETE, "/v1/me/blocks/\(cy.id)", token: ana.token).status == .noContent)
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: cy.token).json["relation"] as? String == "requested")

            // Nobody, yourself, guests.
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(UUID().uuidString)", token: ana.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "/v1/me/friends/not-an-id", token: ana.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: ana.token).status == .badRequest)
            let guest = try await ctx.device()
            #expect(try await ctx.call(.GET, "/v1/me/friends", token: guest.token).problemType == "account-required")
            #expect(try await ctx.call(.PUT, "/v1/me/friends/\(guest.id)", token: ana.token).status == .notFound, "a guest has no name to befriend")
            #expect(try await ctx.call(.GET, "/v1/me/friends").status == .unauthorized)
        }
    }

    @Test("TRL-8 friends write in direct and group threads: sent once under the device's id, edited and deleted only by the writer, paged, counted unread, one notice until read; strangers and the removed get nothing",
          arguments: TestDatabase.available)
    func trl8Threads(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let (ana, ben) = try await Self.friends(ctx)
            let cy = try await ctx.register("cyd"), dee = try await ctx.register("dee")
            #expect(try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [cy.id]]).problemType == "not-friends")

            let made = try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id]])
            #expect(made.status == .created && made.json["direct"] as? Bool == true)
            let thread = try #require(made.json["id"] as? String)
            let same = try await ctx.call(.POST, "/v1/me/threads", token: ben.token, json: ["memberIds": [ana.id]])
            #expect(same.status == .ok && same.json["id"] as? String == thread, "one direct thread per pair")

            let path = "/v1/me/threads/\(thread)/messages"
            let first = try await ctx.call(.PUT, "\(path)/msg-00000001", token: ana.token, json: ["text": "  Meet at the trailhead?  "])
            #expect(first.status == .created && first.json["text"] as? String == "Meet at the trailhead?")
            #expect(try await ctx.call(.PUT, "\(path)/msg-00000001", token: ana.token, json: ["text": "Meet at the trailhead?"]).status == .ok, "sent again: stored once")
            #expect(try await ctx.call(.PUT, "\(path)/msg-00000001", token: ben.token, json: ["text": "mine now"]).problemType == "message-id-taken")
            for bad in ["", "   ", String(repeating: "é", count: 2001), "bell\u{7}"] {
                #expect(try await ctx.call(.PUT, "\(path)/msg-bad-0001", token: ana.token, json: ["text": bad]).status == .badRequest, "\(bad.prefix(10))")
            }
            // Ben has one unread message and one notice, however many messages come.
            ctx.clock.advance(by: 5)
            #expect(try await ctx.call(.PUT, "\(path)/msg-00000002", token: ana.token, json: ["text": "At 8?"]).status == .created)
            let list = try await ctx.call(.GET, "/v1/me/threads", token: ben.token)
            #expect(list.json["unreadCount"] as? Int == 2)
            #expect(((list.json["threads"] as? [[String: Any]])?.first?["lastMessage"] as? [String: Any])?["text"] as? String == "At 8?")
            let notices = (try await ctx.call(.GET, "/v1/me/notifications", token: ben.token).json["notifications"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "thread-message" }
            #expect(notices.count == 1 && notices.first?["threadId"] as? String == thread && notices.first?["body"] as? String == "Meet at the trailhead?")
            // By Web Push too, opening the conversation when tapped.
            let pushed = try #require(try await NotificationStore.after(0, userId: ben.id, limit: 50, sql: ctx.services.store.sql).first { $0.kind == "thread-message" })
            #expect(Pusher.screen(of: pushed) == "/trails/messages/\(thread)")
            #expect(try await ctx.call(.GET, "/v1/me/threads", token: ana.token).json["unreadCount"] as? Int == 0, "your own messages are read")
            #expect(try await ctx.call(.PUT, "/v1/me/threads/\(thread)/read", token: ben.token).status == .noContent)
            #expect(try await ctx.call(.GET, "/v1/me/threads", token: ben.token).json["unreadCount"] as? Int == 0)
            let unreadNotices = (try await ctx.call(.GET, "/v1/me/notifications", token: ben.token).json["notifications"] as? [[String: Any]] ?? [])
                .filter { $0["kind"] as? String == "thread-message" && $0["read"] as? Bool == false }
            #expect(unreadNotices.isEmpty, "reading the thread reads its notice")

            // Edit and delete: the writer only.
            let edited = try await ctx.call(.PUT, "\(path)/msg-00000002", token: ana.token, json: ["text": "At 8:30?"])
            #expect(edited.status == .ok && edited.json["editedAt"] != nil)
            #expect(try await ctx.call(.DELETE, "\(path)/msg-00000002", token: ben.token).status == .noContent)
            #expect(((try await ctx.call(.GET, path, token: ben.token).json["messages"] as? [[String: Any]])?.first)?["text"] as? String == "At 8:30?",
                    "someone else's delete changes nothing")
            #expect(try await ctx.call(.DELETE, "\(path)/msg-00000002", token: ana.token).status == .noContent)
            #expect((try await ctx.call(.GET, path, token: ben.token).json["messages"] as? [[String: Any]])?.map { $0["id"] as? String } == ["msg-00000001"])

            // Older messages come a page at a time.
            for i in 3...8 { #expect(try await ctx.call(.PUT, "\(path)/msg-0000000\(i)", token: ben.token, json: ["text": "n\(i)"]).status == .created) }
            let page1 = try await ctx.call(.GET, "\(path)?limit=4", token: ana.token)
            #expect((page1.json["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["n8", "n7", "n6", "n5"])
            let before = try #require(page1.json["nextBefore"] as? Int)
            let page2 = try await ctx.call(.GET, "\(path)?limit=4&before=\(before)", token: ana.token)
            #expect((page2.json["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["n4", "n3", "Meet at the trailhead?"] && page2.json["nextBefore"] == nil)

            // Strangers get nothing of the thread.
            #expect(try await ctx.call(.GET, "/v1/me/threads/\(thread)", token: cy.token).status == .notFound)
            #expect(try await ctx.call(.GET, path, token: cy.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "\(path)/msg-cy-00001", token: cy.token, json: ["text": "hi"]).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/me/threads/\(thread)/live", token: cy.token).status == .notFound)
            #expect((try await ctx.call(.GET, "/v1/me/threads", token: cy.token).json["threads"] as? [Any])?.isEmpty == true)

            // A group: Ana invites Cy once they are friends; nobody can be removed while only one other is in it.
            #expect(try await ctx.call(.DELETE, "/v1/me/threads/\(thread)/members/\(ben.id)", token: ana.token).problemType == "thread-too-small")
            #expect(try await ctx.call(.PUT, "/v1/me/threads/\(thread)/members/\(cy.id)", token: ana.token).problemType == "not-friends")
            try await ctx.call(.PUT, "/v1/me/friends/\(cy.id)", token: ana.token)
            try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: cy.token)
            let grown = try await ctx.call(.PUT, "/v1/me/threads/\(thread)/members/\(cy.id)", token: ana.token)
            #expect(grown.status == .ok && grown.json["direct"] as? Bool == false && (grown.json["members"] as? [Any])?.count == 3)
            #expect(try await ctx.call(.GET, "/v1/me/threads", token: cy.token).json["unreadCount"] as? Int == 0, "a new member starts with nothing unread")
            #expect((try await ctx.call(.GET, path, token: cy.token).json["messages"] as? [Any])?.count == 7)
            #expect(try await ctx.call(.DELETE, "/v1/me/threads/\(thread)/members/\(cy.id)", token: ben.token).status == .noContent)
            #expect(try await ctx.call(.GET, path, token: cy.token).status == .notFound, "removed: nothing more")
            #expect(try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id]]).json["id"] as? String != thread,
                    "the old direct thread became a group; the pair gets a new direct one")

            // Named groups, and a thread of three where a blocked person's messages are left out.
            let group = try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id, cy.id], "title": "Saturday hike"])
            #expect(group.status == .created && group.json["title"] as? String == "Saturday hike")
            let g = try #require(group.json["id"] as? String)
            #expect(try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id], "title": String(repeating: "x", count: 81)]).status == .badRequest)
            #expect(try await ctx.call(.PUT, "/v1/me/threads/\(g)/messages/msg-cy-00001", token: cy.token, json: ["text": "From Cy"]).status == .created)
            #expect(try await ctx.call(.PUT, "/v1/me/blocks/\(cy.id)", token: ben.token).status == .noContent)
            #expect((try await ctx.call(.GET, "/v1/me/threads/\(g)/messages", token: ben.token).json["messages"] as? [Any])?.isEmpty == true)
            #expect((try await ctx.call(.GET, "/v1/me/threads/\(g)/messages", token: ana.token).json["messages"] as? [Any])?.count == 1)
            #expect(try await ctx.call(.POST, "/v1/me/threads", token: dee.token, json: ["memberIds": [ana.id]]).problemType == "not-friends")
            // Leaving is always possible.
            #expect(try await ctx.call(.DELETE, "/v1/me/threads/\(g)/members/\(cy.id)", token: cy.token).status == .noContent)
        }
    }

    // A message that never arrives would otherwise leave the test reading forever.
    @Test("TRL-8 a thread's stream delivers messages as they are sent, edited and deleted, and replays what came after Last-Event-ID",
          .timeLimit(.minutes(1)), arguments: TestDatabase.available)
    func trl8Live(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let (ana, ben) = try await Self.friends(ctx)
            let thread = try #require(try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id]]).json["id"] as? String)
            let path = "/v1/me/threads/\(thread)/messages"
            #expect(try await ctx.call(.PUT, "\(path)/msg-before-1", token: ana.token, json: ["text": "before"]).status == .created)
            let seen = try await ThreadLog(store: ctx.services.store).newest()
            #expect(try await ctx.call(.PUT, "\(path)/msg-missed-1", token: ana.token, json: ["text": "missed"]).status == .created)

            func read(lastEventID: String?, count: Int, after: () async throws -> Void) async throws -> [(event: String, text: String)] {
                let principal = Principal(userId: ben.id, kind: .account, tokenHash: "")
                let output = try await RequestContext.$principal.withValue(principal) {
                    try await APIHandler(services: ctx.services).streamThread(.init(path: .init(threadId: thread), headers: .init(lastEventID: lastEventID)))
                }
                guard case .ok(let ok) = output, case .textEventStream(let body) = ok.body else { throw TestFailure("no stream") }
                try await after()
                return try await TestEventStream.read(body, count: count).map { ($0.event, $0.json["text"] as? String ?? $0.json["id"] as? String ?? "") }
            }
            let events = try await read(lastEventID: String(seen), count: 4) {
                try await ctx.call(.PUT, "\(path)/msg-live-001", token: ana.token, json: ["text": "live"])
                try await ctx.call(.DELETE, "\(path)/msg-before-1", token: ana.token)
                try await ctx.call(.PUT, "\(path)/msg-missed-1", token: ana.token, json: ["text": "missed, edited"])
            }
            #expect(events.map(\.event) == ["message", "message", "message-deleted", "message"])
            // The catch-up reads the missed message before or after its edit, as timing has it.
            #expect(events.first?.text.hasPrefix("missed") == true && events.dropFirst().map(\.text) == ["live", "msg-before-1", "missed, edited"],
                    "what came after the id the client has, then the new changes, each as it is when read")
        }
    }

    @Test("TRL-8 a blocked person's messages are left out of the blocker's live stream and its catch-up, and a direct message to someone who blocked you is refused",
          .timeLimit(.minutes(1)), arguments: TestDatabase.available)
    func trl8BlockedOnStream(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let (ana, ben) = try await Self.friends(ctx)
            let cy = try await ctx.register("cyd")
            try await ctx.call(.PUT, "/v1/me/friends/\(cy.id)", token: ana.token)
            try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: cy.token)
            let g = try #require(try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id, cy.id], "title": "Ridge"]).json["id"] as? String)
            let path = "/v1/me/threads/\(g)/messages"
            #expect(try await ctx.call(.PUT, "/v1/me/blocks/\(cy.id)", token: ben.token).status == .noContent)
            let seen = try await ThreadLog(store: ctx.services.store).newest()
            #expect(try await ctx.call(.PUT, "\(path)/msg-cy-missed", token: cy.token, json: ["text": "cy, missed"]).status == .created)
            #expect(try await ctx.call(.PUT, "\(path)/msg-ana-missed", token: ana.token, json: ["text": "ana, missed"]).status == .created)

            let principal = Principal(userId: ben.id, kind: .account, tokenHash: "")
            let output = try await RequestContext.$principal.withValue(principal) {
                try await APIHandler(services: ctx.services).streamThread(.init(path: .init(threadId: g), headers: .init(lastEventID: String(seen))))
            }
            guard case .ok(let ok) = output, case .textEventStream(let body) = ok.body else { throw TestFailure("no stream") }
            try await ctx.call(.PUT, "\(path)/msg-cy-live-1", token: cy.token, json: ["text": "cy, live"])
            try await ctx.call(.PUT, "\(path)/msg-ana-live-1", token: ana.token, json: ["text": "ana, live"])
            let texts = try await TestEventStream.read(body, count: 2).map { $0.json["text"] as? String ?? "" }
            #expect(texts == ["ana, missed", "ana, live"], "Cy's messages never reach Ben: \(texts)")

            // A direct thread whose other person blocked you takes no more messages.
            let direct = try #require(try await ctx.call(.POST, "/v1/me/threads", token: ana.token, json: ["memberIds": [ben.id]]).json["id"] as? String)
            #expect(try await ctx.call(.PUT, "/v1/me/blocks/\(ana.id)", token: ben.token).status == .noContent)
            #expect(try await ctx.call(.PUT, "/v1/me/threads/\(direct)/messages/msg-ana-after", token: ana.token, json: ["text": "hello?"]).problemType == "not-friends")
        }
    }

    @Test("TRL-9 location sharing is off by default; a friend's latest position is seen only while both share; only the latest is kept and it is deleted when sharing stops; strangers see nothing",
          arguments: TestDatabase.available)
    func trl9Sharing(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let (ana, ben) = try await Self.friends(ctx)
            let cy = try await ctx.register("cyd")
            try await ctx.call(.PUT, "/v1/me/friends/\(ana.id)", token: cy.token)  // asked, not accepted
            let off = try await ctx.call(.GET, "/v1/me/location-sharing", token: ana.token)
            #expect(off.json["sharing"] as? Bool == false && off.json["reportEverySeconds"] as? Int == 60)
            let here = ["latitude": 34.2456, "longitude": -116.8875, "accuracy": 4.0]
            #expect(try await ctx.call(.PUT, "/v1/me/location-sharing/position", token: ana.token, json: here).problemType == "sharing-off")
            /// Every stored row of shared positions: (user, latitude).
            func stored() async throws -> [(user: String, latitude: Double?)] {
                try await ctx.services.store.sql.raw("SELECT user_id, latitude FROM location_shares").all()
                    .map { (try $0.decode(column: "user_id", as: String.self), try $0.decode(column: "latitude", as: Double?.self)) }
            }
            #expect(try await stored().isEmpty, "nothing is kept while sharing is off")

            #expect(try await ctx.call(.PUT, "/v1/me/location-sharing", token: ana.token, json: ["sharing": true]).json["sharing"] as? Bool == true)
            for (i, lat) in [34.2456, 34.2460, 34.2471].enumerated() {
                ctx.clock.advance(by: 60)
                var p = here; p["latitude"] = lat
                #expect(try await ctx.call(.PUT, "/v1/me/location-sharing/position", token: ana.token, json: p).status == .ok, "\(i)")
            }
            let rows = try await stored()
            #expect(rows.count == 1 && rows.first?.latitude == 34.2471, "only the latest position: \(rows)")

            // Ben does not share yet: he sees nobody.
            let benSees = try await ctx.call(.GET, "/v1/me/friend-positions", token: ben.token)
            #expect(benSees.json["sharing"] as? Bool == false && (benSees.json["friends"] as? [Any])?.isEmpty == true)
            try await ctx.call(.PUT, "/v1/me/location-sharing", token: ben.token, json: ["sharing": true])
            let now = try await ctx.call(.GET, "/v1/me/friend-positions", token: ben.token)
            let seen = try #require((now.json["friends"] as? [[String: Any]])?.first)
            #expect((seen["person"] as? [String: Any])?["id"] as? String == ana.id && (seen["position"] as? [String: Any])?["latitude"] as? Double == 34.2471)
            #expect((try await ctx.call(.GET, "/v1/me/friend-positions", token: ana.token).json["friends"] as? [Any])?.isEmpty == true, "Ben shares but sent no position yet")
            // Cy is no friend: even sharing, she sees nothing.
            try await ctx.call(.PUT, "/v1/me/location-sharing", token: cy.token, json: ["sharing": true])
            #expect((try await ctx.call(.GET, "/v1/me/friend-positions", token: cy.token).json["friends"] as? [Any])?.isEmpty == true)

            // Ana stops: the row is gone at once and Ben sees nothing.
            #expect(try await ctx.call(.PUT, "/v1/me/location-sharing", token: ana.token, json: ["sharing": false]).json["position"] == nil)
            #expect(try await stored().allSatisfy { $0.user != ana.id })
            #expect((try await ctx.call(.GET, "/v1/me/friend-positions", token: ben.token).json["friends"] as? [Any])?.isEmpty == true)
            #expect(try await ctx.call(.PUT, "/v1/me/location-sharing/position", token: ana.token, json: here).problemType == "sharing-off")
            // Sharing again, then no longer friends: Ben sees nothing.
            try await ctx.call(.PUT, "/v1/me/location-sharing", token: ana.token, json: ["sharing": true])
            try await ctx.call(.PUT, "/v1/me/location-sharing/position", token: ana.token, json: here)
            #expect((try await ctx.call(.GET, "/v1/me/friend-positions", token: ben.token).json["friends"] as? [Any])?.count == 1)
            try await ctx.call(.DELETE, "/v1/me/friends/\(ana.id)", token: ben.token)
            #expect((try await ctx.call(.GET, "/v1/me/friend-positions", token: ben.token).json["friends"] as? [Any])?.isEmpty == true)

            for bad: [String: Any] in [["latitude": 91, "longitude": 0, "accuracy": 5], ["latitude": 0, "longitude": 0, "accuracy": -1], ["latitude": 0, "longitude": 0]] {
                #expect(try await ctx.call(.PUT, "/v1/me/location-sharing/position", token: ana.token, json: bad).status == .badRequest)
            }
        }
    }

    @Test("TRL-8 friends see each other's hikes with their paths but not the calories; anyone else gets nothing",
          arguments: TestDatabase.available)
    func trl8FriendsHikes(db: TestDatabase) async throws {
        try await TrailsTests.withDemo(db) { ctx in
            let (ana, ben) = try await Self.friends(ctx)
            let cyd = try await ctx.register("cyd")
            try await ctx.call(.PUT, "/v1/me/hiker-body", token: ana.token, json: ["heightCentimetres": 170, "weightKilograms": 60, "birthYear": 1992])
            let head = try #require(((try await ctx.call(.GET, "/v1/trails/heart-rock")).json["summary"] as? [String: Any])?["trailhead"] as? [String: Double])
            let start = ctx.clock.now.addingTimeInterval(-3600)
            let saved = try await ctx.call(.PUT, "/v1/me/hikes/hike-ana-00001", token: ana.token, json: [
                "trailId": "heart-rock", "startedAt": HikesTests.iso(start), "endedAt": HikesTests.iso(start.addingTimeInterval(600)),
                "fixes": HikesTests.walk(from: Coordinate(latitude: head["latitude"]!, longitude: head["longitude"]!), fixes: 30)])
            #expect((saved.json["summary"] as? [String: Any])?["calories"] != nil, "Ana sees her calories")

            let list = try await ctx.call(.GET, "/v1/people/\(ana.id)/hikes", token: ben.token)
            #expect(list.status == .ok && list.json["total"] as? Int == 1 && (list.json["person"] as? [String: Any])?["id"] as? String == ana.id)
            let summary = try #require((list.json["hikes"] as? [[String: Any]])?.first)
            #expect(summary["trailName"] as? String == "Heart Rock Trail" && summary["calories"] == nil && summary["steps"] as? Int != nil)
            let one = try await ctx.call(.GET, "/v1/people/\(ana.id)/hikes/hike-ana-00001", token: ben.token)
            #expect((one.json["fixes"] as? [Any])?.count == 30 && (one.json["summary"] as? [String: Any])?["calories"] == nil)

            // A stranger, a former friend and a guest get nothing.
            #expect(try await ctx.call(.GET, "/v1/people/\(ana.id)/hikes", token: cyd.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/people/\(ana.id)/hikes/hike-ana-00001", token: cyd.token).status == .notFound)
            try await ctx.call(.DELETE, "/v1/me/friends/\(ana.id)", token: ben.token)
            #expect(try await ctx.call(.GET, "/v1/people/\(ana.id)/hikes", token: ben.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/people/\(ana.id)/hikes", token: try await ctx.device().token).problemType == "account-required")
        }
    }

    @Test("ACC-5 erasing an account erases its friendships, messages, memberships, shared position and what others were told of it",
          arguments: TestDatabase.available)
    func erasure(db: TestDatabase) async throws {
        try await TestApp.with(db) { ctx in
            let (gone, stays) = try await Self.friends(ctx, "zoe_gone", "yuri")
            let thread = try #require(try await ctx.call(.POST, "/v1/me/threads", token: stays.token, json: ["memberIds": [gone.id]]).json["id"] as? String)
            try await ctx.call(.PUT, "/v1/me/threads/\(thread)/messages/msg-z-000001", token: gone.token, json: ["text": "hello from zoe"])
            try await ctx.call(.PUT, "/v1/me/threads/\(thread)/messages/msg-yur-0001", token: stays.token, json: ["text": "hi"])
            try await ctx.call(.PUT, "/v1/me/location-sharing", token: gone.token, json: ["sharing": true])
            try await ctx.call(.PUT, "/v1/me/location-sharing/position", token: gone.token, json: ["latitude": 34.2, "longitude": -116.9, "accuracy": 5])
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: gone.token, json: ["password": TestContext.password]).status == .noContent)
            for (table, values) in try await ctx.allRows() {
                for value in values { #expect(!value.contains(gone.id) && !value.lowercased().contains("zoe"), "\(table): \(value)") }
            }
            #expect((try await ctx.call(.GET, "/v1/me/threads/\(thread)/messages", token: stays.token).json["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["hi"])
        }
    }
}
