import Foundation
import OpenAPIRuntime
import Testing
import Vapor
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Notifications and watched lots (PRK-15)")
struct NotificationTests {
    typealias T = TestContext

    @Test("PRK-15 a watched lot passing 85 % and then filling tells its watchers once each, not once per car; hysteresis re-arms only after it empties",
          arguments: TestDatabase.available)
    func lotAlerts(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.freeLot("L")  // 10 spots
            let watcher = try await ctx.register("wanda")
            let bystander = try await ctx.register("bert")
            let watched = try await ctx.call(.PUT, "/v1/lots/\(lot.id)/watch", token: watcher.token)
            #expect(watched.status == .ok)
            #expect(watched.json["code"] as? String == "L")
            #expect(watched.json["name"] as? String == "Test Lot")
            #expect(try await ctx.call(.PUT, "/v1/lots/\(lot.id.uppercased())/watch", token: watcher.token).status == .ok, "again is harmless")
            let watches = try await ctx.call(.GET, "/v1/me/watches", token: watcher.token).json["watches"] as? [[String: Any]] ?? []
            #expect(watches.map { $0["lotId"] as? String } == [lot.id])
            #expect((try await ctx.call(.GET, "/v1/me/watches", token: bystander.token).json["watches"] as? [Any])?.isEmpty == true)

            var seq = 10
            func set(_ ordinals: Range<Int>, occupied: Bool) async throws {
                // One gateway batch per car, as sensors report them.
                for i in ordinals {
                    seq += 1
                    let r = try await ctx.ingest([T.event(lot.sensors[i], occupied, at: ctx.clock.now, seq: seq)])
                    #expect(r.status == .ok)
                }
            }
            func kinds(_ token: String) async throws -> [String] {
                let list = try await ctx.call(.GET, "/v1/me/notifications", token: token).json["notifications"] as? [[String: Any]] ?? []
                return list.compactMap { $0["kind"] as? String }
            }

            try await set(0..<8, occupied: true)  // 80 %
            #expect(try await kinds(watcher.token).isEmpty)
            try await set(8..<9, occupied: true)  // 90 %
            #expect(try await kinds(watcher.token) == ["lot-almost-full"])
            try await set(9..<10, occupied: true)  // full
            #expect(try await kinds(watcher.token) == ["lot-full", "lot-almost-full"], "newest first")
            let inbox = try await ctx.call(.GET, "/v1/me/notifications", token: watcher.token)
            #expect(inbox.json["unreadCount"] as? Int == 2)
            let full = try #require((inbox.json["notifications"] as? [[String: Any]])?.first)
            #expect(full["title"] as? String == "Test Lot is full")
            #expect(full["lotId"] as? String == lot.id)
            #expect(full["read"] as? Bool == false)
            let almost = try #require((inbox.json["notifications"] as? [[String: Any]])?.last)
            #expect(almost["title"] as? String == "Test Lot is almost full")
            #expect(almost["body"] as? String == "90 % taken; 1 space is free.")

            // A car leaving and another arriving, again and again: no new alerts.
            for _ in 0..<3 {
                try await set(9..<10, occupied: false)
                try await set(9..<10, occupied: true)
            }
            #expect(try await kinds(watcher.token).count == 2)
            try await set(8..<10, occupied: false)  // 80 %: "full" re-armed, "almost full" not
            for _ in 0..<3 {
                try await set(8..<9, occupied: true)
                try await set(8..<9, occupied: false)
            }
            #expect(try await kinds(watcher.token).count == 2)
            // Emptied below 80 %, then filling again: almost full is news again.
            try await set(7..<8, occupied: false)  // 70 %
            try await set(7..<9, occupied: true)  // 90 %
            #expect(try await kinds(watcher.token) == ["lot-almost-full", "lot-full", "lot-almost-full"])
            #expect(try await kinds(bystander.token).isEmpty, "only watchers are told")

            // Many cars in one batch count as one change.
            try await set(0..<9, occupied: false)
            seq += 1
            let s = seq
            _ = try await ctx.ingest(lot.sensors.map { T.event($0, true, at: ctx.clock.now, seq: s) })
            #expect(try await kinds(watcher.token).first == "lot-full")
            #expect(try await kinds(watcher.token).count == 4)

            // Stopped watching: told nothing more.
            #expect(try await ctx.call(.DELETE, "/v1/lots/\(lot.id)/watch", token: watcher.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/lots/\(lot.id)/watch", token: watcher.token).status == .noContent, "again is harmless")
            try await set(0..<10, occupied: false)
            try await set(0..<10, occupied: true)
            #expect(try await kinds(watcher.token).count == 4)

            #expect(try await ctx.call(.PUT, "/v1/lots/\(UUID().uuidString)/watch", token: watcher.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "/v1/lots/..%2Fx/watch", token: watcher.token).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/lots/\(UUID().uuidString)/watch", token: watcher.token).status == .notFound)
            #expect(try await ctx.call(.PUT, "/v1/lots/\(lot.id)/watch").status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me/notifications").status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me/watches").status == .unauthorized)
        }
    }

    @Test("PRK-15 the inbox is one's own: mark read, mark all read, delete, paging; another person's or an unknown notification is not found",
          arguments: TestDatabase.available)
    func inbox(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let me = try await ctx.register("ivy")
            let other = try await ctx.register("otto")
            let lot = try await ctx.lotId("S")
            try await ctx.services.notifications.hub.pollOnce()
            let drafts = (0..<5).map { i in
                NotificationDraft(userId: me.id, kind: .lotFull, title: "N\(i)", body: "b", lotId: lot)
            } + [NotificationDraft(userId: other.id, kind: .lotFull, title: "Other", body: "b", lotId: lot)]
            try await ctx.services.store.write { sql in try await NotificationStore.insert(drafts, at: ctx.clock.now, sql: sql) }

            let first = try await ctx.call(.GET, "/v1/me/notifications?limit=2", token: me.token)
            #expect(first.status == .ok)
            let page1 = first.json["notifications"] as? [[String: Any]] ?? []
            #expect(page1.map { $0["title"] as? String } == ["N4", "N3"])
            #expect(first.json["unreadCount"] as? Int == 5)
            let next = try #require(first.json["nextBefore"] as? Int)
            let second = try await ctx.call(.GET, "/v1/me/notifications?limit=2&before=\(next)", token: me.token)
            #expect((second.json["notifications"] as? [[String: Any]] ?? []).map { $0["title"] as? String } == ["N2", "N1"])
            let last = try await ctx.call(.GET, "/v1/me/notifications?limit=2&before=\(try #require(second.json["nextBefore"] as? Int))", token: me.token)
            #expect((last.json["notifications"] as? [[String: Any]] ?? []).map { $0["title"] as? String } == ["N0"])
            #expect(last.json["nextBefore"] == nil)
            #expect(try await ctx.call(.GET, "/v1/me/notifications?limit=0", token: me.token).status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/me/notifications?limit=201", token: me.token).status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/me/notifications?before=x", token: me.token).status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/me/notifications?before=0", token: me.token).status == .badRequest)

            let n4 = try #require(page1.first?["id"] as? String)
            let read = try await ctx.call(.POST, "/v1/me/notifications/\(n4)/read", token: me.token)
            #expect(read.status == .ok)
            #expect(read.json["read"] as? Bool == true)
            #expect(read.json["readAt"] != nil)
            let again = try await ctx.call(.POST, "/v1/me/notifications/\(n4.uppercased())/read", token: me.token)
            #expect(again.json["readAt"] as? String == read.json["readAt"] as? String, "marking again changes nothing")
            #expect(try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["unreadCount"] as? Int == 4)

            // Another person's notification is as unknown as a missing one.
            let theirs = try #require((try await ctx.call(.GET, "/v1/me/notifications", token: other.token).json["notifications"] as? [[String: Any]])?.first?["id"] as? String)
            for path in ["/v1/me/notifications/\(theirs)/read", "/v1/me/notifications/\(UUID().uuidString)/read", "/v1/me/notifications/nope/read"] {
                let r = try await ctx.call(.POST, path, token: me.token)
                #expect(r.status == .notFound, "\(path)")
                #expect(r.problemType == "not-found")
            }
            #expect(try await ctx.call(.DELETE, "/v1/me/notifications/\(theirs)", token: me.token).status == .notFound)
            #expect(try await ctx.call(.POST, "/v1/me/notifications/\(theirs)/read").status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me/notifications", token: other.token).json["unreadCount"] as? Int == 1, "untouched")

            #expect(try await ctx.call(.POST, "/v1/me/notifications/read-all", token: me.token).status == .noContent)
            #expect(try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["unreadCount"] as? Int == 0)
            #expect(try await ctx.call(.GET, "/v1/me/notifications", token: other.token).json["unreadCount"] as? Int == 1)

            #expect(try await ctx.call(.DELETE, "/v1/me/notifications/\(n4)", token: me.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/me/notifications/\(n4)", token: me.token).status == .notFound)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [Any])?.count == 4)
        }
    }

    // A notification that never arrives would otherwise leave the test reading forever.
    @Test("PRK-15 the live stream delivers a person's own new notifications only, and replays the ones after Last-Event-ID on reconnecting",
          .timeLimit(.minutes(1)), arguments: TestDatabase.available)
    func liveStream(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let me = try await ctx.register("lena")
            let other = try await ctx.register("lars")
            func insert(_ drafts: [NotificationDraft]) async throws {
                try await ctx.services.store.write { sql in try await NotificationStore.insert(drafts, at: ctx.clock.now, sql: sql) }
                ctx.services.notifications.hub.poke()
            }
            try await insert([NotificationDraft(userId: me.id, kind: .lotFull, title: "before", body: "b")])
            let first = try #require((try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [[String: Any]])?.first?["sequence"] as? Int)
            try await insert([NotificationDraft(userId: me.id, kind: .lotFull, title: "missed", body: "b")])

            /// Opens the stream as `user` and reads until `count` notifications arrived.
            func read(_ user: String, lastEventID: String?, count: Int, after: () async throws -> Void) async throws -> [(id: String, title: String)] {
                let principal = Principal(userId: user, kind: .account, tokenHash: "")
                let output = try await RequestContext.$principal.withValue(principal) {
                    try await APIHandler(services: ctx.services).streamNotifications(.init(headers: .init(lastEventID: lastEventID)))
                }
                guard case .ok(let ok) = output, case .textEventStream(let body) = ok.body else { throw TestFailure("no stream") }
                try await after()
                return try await TestEventStream.read(body, count: count).filter { $0.event == "notification" }
                    .map { ($0.id ?? "", $0.json["title"] as? String ?? "") }
            }

            let resumed = try await read(me.id, lastEventID: String(first), count: 2) {
                try await insert([NotificationDraft(userId: other.id, kind: .lotFull, title: "not mine", body: "b"),
                                  NotificationDraft(userId: me.id, kind: .lotFull, title: "new", body: "b")])
            }
            #expect(resumed.map(\.title) == ["missed", "new"], "the one made while away, then the new one; never another's")
            #expect(resumed.first?.id == String(first + 1))
            // A notification made the moment a fresh stream opens is new to it. Several rounds,
            // because whether it lands before or after the stream has found its start is timing.
            for round in 1...10 {
                let fresh = try await read(me.id, lastEventID: nil, count: 1) {
                    try await insert([NotificationDraft(userId: me.id, kind: .holdExpired, title: "latest \(round)", body: "b")])
                }
                #expect(fresh.map(\.title) == ["latest \(round)"], "without Last-Event-ID only what is new")
            }
            #expect(try await ctx.call(.GET, "/v1/me/notifications/live").status == .unauthorized)
        }
    }

    @Test("PRK-15 the inbox keeps a person's newest 200 and nothing older than 30 days", arguments: TestDatabase.available)
    func bounded(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let me = try await ctx.register("bonnie")
            let other = try await ctx.register("cyril")
            let old = (0..<3).map { NotificationDraft(userId: other.id, kind: .lotFull, title: "old \($0)", body: "b") }
            try await ctx.services.store.write { sql in try await NotificationStore.insert(old, at: ctx.clock.now, sql: sql) }
            ctx.clock.advance(by: 86_400)
            let drafts = (0..<205).map { NotificationDraft(userId: me.id, kind: .lotFull, title: "N\($0)", body: "b") }
            try await ctx.services.store.write { sql in try await NotificationStore.insert(drafts, at: ctx.clock.now, sql: sql) }
            let list = try await ctx.call(.GET, "/v1/me/notifications?limit=200", token: me.token).json
            let titles = (list["notifications"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles.count == 200)
            #expect(titles.first == "N204")
            #expect(titles.last == "N5")
            #expect(list["nextBefore"] == nil)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: other.token).json["notifications"] as? [Any])?.count == 3)

            // Pruned as of 30 days after the old ones (the clock stays, or the sessions would end).
            try await NotificationStore.prune(now: ctx.clock.now.addingTimeInterval(29 * 86_400 + 1), sql: ctx.services.store.sql)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: other.token).json["notifications"] as? [Any])?.isEmpty == true)
            #expect((try await ctx.call(.GET, "/v1/me/notifications?limit=200", token: me.token).json["notifications"] as? [Any])?.count == 200)
        }
    }

    @Test("PRK-15 a booking forfeited after a no-show tells the lot's watchers that a booked space was freed, but not its booker",
          arguments: TestDatabase.available)
    func forfeitTellsWatchers(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.lotId("L")
            let members = try await ctx.members(3, cents: 1000)
            let (booker, watcher, elsewhere) = (members[0], members[1], members[2])
            for m in [booker, watcher] { #expect(try await ctx.call(.PUT, "/v1/lots/\(lot)/watch", token: m.token).status == .ok) }
            #expect(try await ctx.call(.PUT, "/v1/lots/\(try await ctx.lotId("S"))/watch", token: elsewhere.token).status == .ok)
            let booked = try await ctx.book(booker.token, lot: lot, T.local(day: 18, 10), T.local(day: 18, 11))
            let bookingId = try #require(booked.json["id"] as? String)

            ctx.clock.set(T.local(day: 18, 10, 14))
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 0, completed: 0))
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: watcher.token).json["notifications"] as? [Any])?.isEmpty == true)
            ctx.clock.set(T.local(day: 18, 10, 15))
            #expect(try await ctx.services.parking.bookings.sweep() == .init(forfeited: 1, completed: 0))
            let told = try await ctx.call(.GET, "/v1/me/notifications", token: watcher.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(told.count == 1)
            #expect(told.first?["kind"] as? String == "space-freed")
            #expect(told.first?["title"] as? String == "A space was freed in Test Lot")
            #expect(told.first?["bookingId"] as? String == bookingId)
            #expect(told.first?["lotId"] as? String == lot)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: booker.token).json["notifications"] as? [Any])?.isEmpty == true)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: elsewhere.token).json["notifications"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("PRK-15 hold events are told to the holder: was it you?, moved to another spot, and the hold's time up",
          arguments: TestDatabase.available)
    func holdEvents(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.freeLot("L")
            let holder = try await ctx.device()
            let other = try await ctx.device()
            func inbox(_ token: String) async throws -> [[String: Any]] {
                try await ctx.call(.GET, "/v1/me/notifications", token: token).json["notifications"] as? [[String: Any]] ?? []
            }
            let first = try #require(try await ctx.call(.POST, "/v1/holds", token: holder.token, json: ["spotId": lot.spots[5]]).json["id"] as? String)
            #expect(try await inbox(holder.token).isEmpty, "holding is one's own doing: nothing to tell")
            _ = try await ctx.ingest([T.event(lot.sensors[5], true, at: ctx.clock.now, seq: 5)])
            let asked = try await inbox(holder.token)
            #expect(asked.map { $0["kind"] as? String } == ["hold-asking"])
            #expect(asked.first?["holdId"] as? String == first)
            #expect(asked.first?["title"] as? String == "Was it you?")
            #expect((asked.first?["body"] as? String)?.contains("in Test Lot") == true)

            let answer = try await ctx.call(.POST, "/v1/holds/\(first)/answer", token: holder.token, json: ["wasMe": false])
            let next = try #require((answer.json["next"] as? [String: Any])?["id"] as? String)
            let moved = try await inbox(holder.token)
            #expect(moved.map { $0["kind"] as? String } == ["hold-moved", "hold-asking"])
            #expect(moved.first?["holdId"] as? String == next)

            ctx.clock.advance(by: 600)
            #expect(try await ctx.services.parking.holds.expireDue() == 1)
            #expect(try await ctx.services.parking.holds.expireDue() == 0)
            let expired = try await inbox(holder.token)
            #expect(expired.map { $0["kind"] as? String } == ["hold-expired", "hold-moved", "hold-asking"])
            #expect(expired.first?["holdId"] as? String == next)
            #expect(try await inbox(other.token).isEmpty)
        }
    }

    @Test("PRK-15 a watched lot filled by holds is announced too; watches and the inbox move with a device into its account",
          arguments: TestDatabase.available)
    func holdsFillAndDeviceMerge(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let lot = try await ctx.freeLot("L")
            let device = try await ctx.device()
            #expect(try await ctx.call(.PUT, "/v1/lots/\(lot.id)/watch", token: device.token).status == .ok)
            var seq = 10
            for i in 0..<9 {
                seq += 1
                _ = try await ctx.ingest([T.event(lot.sensors[i], true, at: ctx.clock.now, seq: seq)])
            }
            let holder = try await ctx.device()
            #expect(try await ctx.call(.POST, "/v1/holds", token: holder.token, json: ["spotId": lot.spots[9]]).status == .created)
            let kinds = (try await ctx.call(.GET, "/v1/me/notifications", token: device.token).json["notifications"] as? [[String: Any]] ?? [])
                .compactMap { $0["kind"] as? String }
            #expect(kinds == ["lot-full", "lot-almost-full"])

            let account = try await ctx.register("dora", device: device.token)
            #expect((try await ctx.call(.GET, "/v1/me/watches", token: account.token).json["watches"] as? [Any])?.count == 1)
            #expect(try await ctx.call(.GET, "/v1/me/notifications", token: account.token).json["unreadCount"] as? Int == 2)
        }
    }
}
