import Foundation
import Testing
import WaymarkClient
import WaymarkCore

@Suite("SDK: friends, message threads with their live stream, and location sharing (TRL-8, TRL-9)")
struct ClientSocialTests {
    static let password = "Trails#2026pass"

    /// A signed-in account and its id.
    static func account(_ server: LiveServer, _ username: String) async throws -> (client: WaymarkClient, id: String) {
        let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
        let me = try await client.register(username: username, password: password)
        return (client, me.id)
    }

    /// Two accounts made friends through the SDK: the first asks, the second accepts by asking back.
    static func friends(_ server: LiveServer, _ a: String, _ b: String) async throws
        -> (a: (client: WaymarkClient, id: String), b: (client: WaymarkClient, id: String)) {
        let x = try await account(server, a), y = try await account(server, b)
        #expect(try await x.client.befriend(userId: y.id) == .requested)
        #expect(try await y.client.befriend(userId: x.id) == .friend)
        return (x, y)
    }

    /// Whether `call` fails with the server's problem of this status and kind.
    static func refused(_ status: Int, _ kind: String, _ call: () async throws -> Void) async -> Bool {
        do {
            try await call()
            return false
        } catch let error as WaymarkClientError {
            return error.status == status && error.problemKind == kind
        } catch {
            return false
        }
    }

    @Test("TRL-8 two accounts befriend through the SDK; a direct thread's live stream delivers a message, its edit and its deletion, a member joining, and ends once the listener is removed",
          .timeLimit(.minutes(2)))
    func friendsAndLiveThread() async throws {
        try await LiveServer.with { server in
            let ana = try await Self.account(server, "ana_social")
            let ben = try await Self.account(server, "ben_social")

            let found = try await ana.client.searchPeople(username: "BEN_so")
            #expect(found.map(\.person.id) == [ben.id] && found.first?.relation == WaymarkClient.FriendRelation.none)
            #expect(try await ana.client.befriend(userId: ben.id) == .requested)
            #expect(try await ben.client.friends().incoming.map(\.person.id) == [ana.id])
            #expect(try await ben.client.searchPeople(username: "ana_social").first?.relation == .asksYou)
            #expect(try await ben.client.befriend(userId: ana.id) == .friend)
            #expect(try await ana.client.friends().friends.map(\.person.id) == [ben.id])
            #expect(try await ben.client.friends().incoming.isEmpty)

            let thread = try await ana.client.createThread(memberIds: [ben.id])
            #expect(thread.direct && Set(thread.members.map(\.id)) == [ana.id, ben.id])
            #expect(try await ben.client.createThread(memberIds: [ana.id]).id == thread.id, "one direct thread per pair")

            // Ben opens the stream after the newest message he was shown: that one is not
            // delivered again, and one sent before the stream connects is not lost.
            _ = try await ana.client.sendMessage(threadId: thread.id, text: "Meet at the trailhead?")
            let shown = try #require(try await ben.client.threads().threads.first { $0.id == thread.id }?.lastMessage)
            #expect(shown.text == "Meet at the trailhead?")
            let meanwhile = try await ana.client.sendMessage(threadId: thread.id, text: "On my way")
            let live = LiveLog(ben.client.liveThread(id: thread.id, after: shown.sequence, reconnectDelay: .milliseconds(100)))
            defer { live.stop() }
            guard case .message(let caughtUp)? = try await live.event(0) else { Issue.record("nothing caught up: \(live.events)"); return }
            #expect(caughtUp.id == meanwhile.id && caughtUp.text == "On my way")

            // Each change waits for its event: a message deleted before the stream reads its
            // post would arrive only as deleted.
            let sent = try await ana.client.sendMessage(threadId: thread.id, text: "At 8?")
            guard case .message(let m)? = try await live.event(1) else { Issue.record("no message: \(live.events)"); return }
            #expect(m.id == sent.id && m.text == "At 8?" && m.author.id == ana.id && m.threadId == thread.id && m.editedAt == nil)

            let edited = try await ana.client.sendMessage(threadId: thread.id, id: sent.id, text: "At 8:30?")
            #expect(edited.id == sent.id && edited.editedAt != nil)
            guard case .message(let e)? = try await live.event(2) else { Issue.record("no edit: \(live.events)"); return }
            #expect(e.id == sent.id && e.text == "At 8:30?" && e.editedAt != nil)

            try await ana.client.deleteMessage(threadId: thread.id, id: sent.id)
            guard case .deleted(let deletedId)? = try await live.event(3) else { Issue.record("no deletion: \(live.events)"); return }
            #expect(deletedId == sent.id)
            #expect(try await ben.client.messages(threadId: thread.id).messages.map(\.text) == ["On my way", "Meet at the trailhead?"])

            // Cy joins once Ana and Cy are friends: Ben is told the members changed.
            let cy = try await Self.account(server, "cy_social")
            #expect(await Self.refused(403, "not-friends") { try await ana.client.addThreadMember(threadId: thread.id, userId: cy.id) })
            try await cy.client.befriend(userId: ana.id)
            try await ana.client.befriend(userId: cy.id)
            let grown = try await ana.client.addThreadMember(threadId: thread.id, userId: cy.id)
            #expect(!grown.direct && grown.members.count == 3)
            guard case .membersChanged? = try await live.event(4) else { Issue.record("no members change: \(live.events)"); return }
            #expect(try await ben.client.thread(id: thread.id).members.map(\.id).contains(cy.id))

            // Removed, Ben's stream ends with the server's refusal instead of reconnecting forever.
            try await ana.client.removeThreadMember(threadId: thread.id, userId: ben.id)
            let end = try await live.ending()
            #expect((end as? WaymarkClientError)?.problemKind == "not-found", "\(String(describing: end))")
            #expect(live.events.count == 5, "nothing after the removal: \(live.events)")
            #expect(await Self.refused(404, "not-found") { _ = try await ben.client.thread(id: thread.id) })
        }
    }

    @Test("TRL-8 through the SDK: a message sent twice under its id is stored once, unread counts, mark read, pages of older messages; a stranger, a block and a guest are refused")
    func messagesUnreadAndPaging() async throws {
        try await LiveServer.with { server in
            let (ana, ben) = try await Self.friends(server, "ana_pages", "ben_pages")
            let thread = try await ana.client.createThread(memberIds: [ben.id])

            let id = UUID().uuidString.lowercased()
            let first = try await ana.client.sendMessage(threadId: thread.id, id: id, text: "  n1  ")
            let again = try await ana.client.sendMessage(threadId: thread.id, id: id, text: "n1")
            #expect(first.id == id && first.text == "n1" && again.id == id && again.sequence == first.sequence && again.editedAt == nil)
            for i in 2...7 { _ = try await ana.client.sendMessage(threadId: thread.id, text: "n\(i)") }

            let benList = try await ben.client.threads()
            #expect(benList.unreadCount == 7 && benList.threads.map(\.id) == [thread.id] && benList.threads.first?.unreadCount == 7)
            #expect(benList.threads.first?.lastMessage?.text == "n7")
            #expect(try await ana.client.threads().unreadCount == 0, "your own messages are read")
            try await ben.client.markThreadRead(id: thread.id)
            #expect(try await ben.client.threads().unreadCount == 0)
            #expect(try await ben.client.thread(id: thread.id).unreadCount == 0)
            _ = try await ana.client.sendMessage(threadId: thread.id, text: "n8")
            #expect(try await ben.client.threads().unreadCount == 1, "only what came after reading")

            var texts: [[String]] = []
            var before: Int64? = nil
            repeat {
                let page = try await ben.client.messages(threadId: thread.id, before: before, limit: 3)
                texts.append(page.messages.map(\.text))
                before = page.nextBefore
            } while before != nil && texts.count < 10
            #expect(texts == [["n8", "n7", "n6"], ["n5", "n4", "n3"], ["n2", "n1"]])

            // A stranger cannot be written to; blocking hides Ben's messages from Ana and her from his search.
            let cy = try await Self.account(server, "cy_pages")
            #expect(await Self.refused(403, "not-friends") { _ = try await cy.client.createThread(memberIds: [ana.id]) })
            #expect(await Self.refused(404, "not-found") { _ = try await cy.client.messages(threadId: thread.id) })
            _ = try await ben.client.sendMessage(threadId: thread.id, text: "from Ben")
            try await ana.client.block(userId: ben.id)
            let anaFriends = try await ana.client.friends()
            #expect(anaFriends.blocked.map(\.id) == [ben.id] && anaFriends.friends.isEmpty)
            #expect(try await ana.client.messages(threadId: thread.id).messages.allSatisfy { $0.author.id == ana.id })
            #expect(try await ben.client.searchPeople(username: "ana_pages").isEmpty)
            #expect(await Self.refused(409, "person-blocked") { try await ana.client.befriend(userId: ben.id) })
            try await ana.client.unblock(userId: ben.id)
            #expect(try await ben.client.searchPeople(username: "ana_pages").map(\.person.id) == [ana.id])
            #expect(try await ana.client.befriend(userId: ben.id) == .requested, "the block ended the friendship")
            try await ana.client.unfriend(userId: ben.id)
            #expect(try await ben.client.friends().incoming.isEmpty, "the request is withdrawn")

            let guest = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore(), requestTimeout: .seconds(15))
            _ = try await guest.ensureDeviceIdentity()
            #expect(await Self.refused(403, "account-required") { _ = try await guest.friends() })
        }
    }

    @Test("TRL-9 through the SDK: sharing is off by default and a report is refused as sharing-off; a friend's position is seen only once both share; off deletes it")
    func locationSharing() async throws {
        try await LiveServer.with { server in
            let (ana, ben) = try await Self.friends(server, "ana_where", "ben_where")
            let off = try await ana.client.locationSharing()
            #expect(!off.sharing && off.position == nil && off.reportEverySeconds == 60)
            let here = Coordinate(latitude: 34.2456, longitude: -116.8875)
            #expect(await Self.refused(409, "sharing-off") { try await ana.client.reportPosition(here, accuracy: 4) })
            #expect(try await ana.client.locationSharing().position == nil, "nothing kept while off")

            #expect(try await ana.client.setLocationSharing(true).sharing)
            let stored = try await ana.client.reportPosition(here, accuracy: 4)
            #expect(stored.latitude == here.latitude && stored.longitude == here.longitude && stored.accuracy == 4)
            let moved = Coordinate(latitude: 34.2471, longitude: -116.8880)
            try await ana.client.reportPosition(moved, accuracy: 6)
            #expect(try await ana.client.locationSharing().position?.latitude == moved.latitude, "only the latest is kept")

            // Ben does not share yet: he sees nobody; once he shares, he sees Ana where she last was.
            let before = try await ben.client.friendPositions()
            #expect(!before.sharing && before.friends.isEmpty)
            try await ben.client.setLocationSharing(true)
            let seen = try await ben.client.friendPositions()
            #expect(seen.sharing && seen.friends.map(\.person.id) == [ana.id])
            #expect(seen.friends.first?.position.latitude == moved.latitude && seen.friends.first?.position.longitude == moved.longitude)
            #expect(try await ana.client.friendPositions().friends.isEmpty, "Ben shares but sent no position yet")

            // Ana stops: her position is gone at once and a report is refused again.
            let stopped = try await ana.client.setLocationSharing(false)
            #expect(!stopped.sharing && stopped.position == nil)
            #expect(try await ben.client.friendPositions().friends.isEmpty)
            #expect(await Self.refused(409, "sharing-off") { try await ana.client.reportPosition(here, accuracy: 4) })
        }
    }
}

/// A live stream read in the background, so that the test waits for an event with a deadline
/// instead of reading the stream itself, which could wait forever.
final class LiveLog: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [WaymarkClient.ThreadEvent] = []
    private var end: (any Error)??
    private var reader: Task<Void, Never>?

    init(_ stream: AsyncThrowingStream<WaymarkClient.ThreadEvent, any Error>) {
        reader = Task { [self] in
            do {
                for try await event in stream { lock.withLock { received.append(event) } }
                lock.withLock { end = .some(nil) }
            } catch {
                lock.withLock { end = .some(error) }
            }
        }
    }

    var events: [WaymarkClient.ThreadEvent] { lock.withLock { received } }

    func stop() { reader?.cancel() }

    /// The event at `index` once it has come; nil when the stream ended or 15 seconds passed first.
    func event(_ index: Int) async throws -> WaymarkClient.ThreadEvent? {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            let (got, over) = lock.withLock { (received, end != nil) }
            if got.count > index { return got[index] }
            if over { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    struct StillOpen: Error {}

    /// How the stream ended (nil: without an error); `StillOpen` when it has not after 15 seconds.
    func ending() async throws -> (any Error)? {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if let end = lock.withLock({ end }) { return end }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw StillOpen()
    }
}
