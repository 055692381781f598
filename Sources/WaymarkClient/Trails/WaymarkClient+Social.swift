import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

/// Friends and messages (TRL-8): find people by username, ask, accept, remove and block; threads
/// with friends, direct or in groups, a page of messages at a time, and each thread's changes
/// live. A message's id is made here when it is written, so sending it again after a lost answer
/// stores it once. All of it needs an account: a device identity is refused (403).
extension WaymarkClient {
    /// How a person appears to others: id, username and name.
    public typealias PersonCard = Components.Schemas.PersonCard
    /// How someone stands to you: friend, requested, asks-you, blocked or none.
    public typealias FriendRelation = Components.Schemas.FriendRelationKind
    /// A person found by username, with how they stand to you.
    public typealias FoundPerson = Components.Schemas.PeopleFound.PeoplePayloadPayload
    /// Your friends, the requests you received and sent, and the people you blocked.
    public typealias FriendsOverview = Components.Schemas.FriendsOverview
    /// A thread as its member sees it: members, unread count, last message.
    public typealias MessageThread = Components.Schemas.MessageThread
    /// One message of a thread; `sequence` orders the thread.
    public typealias Message = Components.Schemas.Message

    /// A change of a thread, as its live stream delivers it.
    public enum ThreadEvent: Sendable {
        /// A message was sent, or its text edited (`editedAt` set): show it in place by its id.
        case message(Message)
        /// A message was deleted: remove it.
        case deleted(id: String)
        /// People joined or left: read the thread again for its members.
        case membersChanged
    }

    /// Accounts whose username starts with `username` (two characters at least), an exact match first.
    public func searchPeople(username: String, limit: Int = 20) async throws -> [FoundPerson] {
        let output = try await call { try await client.searchPeople(query: .init(username: username, limit: limit)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.people
    }

    /// Your friends, requests both ways and blocks, for the Friends page.
    public func friends() async throws -> FriendsOverview {
        let output = try await call { try await client.getFriends() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Asks someone to be your friend, or accepts their request; `.friend` when they had asked you.
    @discardableResult
    public func befriend(userId: String) async throws -> FriendRelation {
        let output = try await call { try await client.befriend(path: .init(userId: userId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.relation
    }

    /// Removes a friend, withdraws your request or declines theirs.
    public func unfriend(userId: String) async throws {
        let output = try await call { try await client.unfriend(path: .init(userId: userId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Blocks someone: ends any friendship or request; they no longer find you, and their messages are left out of what you read.
    public func block(userId: String) async throws {
        let output = try await call { try await client.blockPerson(path: .init(userId: userId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Lifts a block; a friendship it ended is not restored.
    public func unblock(userId: String) async throws {
        let output = try await call { try await client.unblockPerson(path: .init(userId: userId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Your threads, most recently active first, and the unread messages in all of them (the badge).
    public func threads() async throws -> (threads: [MessageThread], unreadCount: Int) {
        let output = try await call { try await client.listThreads() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.threads, body.unreadCount)
    }

    /// Starts a thread with friends. One friend and no title is your direct thread with them,
    /// the same one each time; more friends or a title make a new group.
    public func createThread(memberIds: [String], title: String? = nil) async throws -> MessageThread {
        let output = try await call { try await client.createThread(body: .json(.init(memberIds: memberIds, title: title))) }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    /// One of your threads, e.g. to refresh its members after `ThreadEvent.membersChanged`.
    public func thread(id: String) async throws -> MessageThread {
        let output = try await call { try await client.getThread(path: .init(threadId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Invites a friend into the thread; a direct thread becomes a group.
    @discardableResult
    public func addThreadMember(threadId: String, userId: String) async throws -> MessageThread {
        let output = try await call { try await client.addThreadMember(path: .init(threadId: threadId, userId: userId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Removes someone from the thread, or, with your own id, leaves it.
    public func removeThreadMember(threadId: String, userId: String) async throws {
        let output = try await call { try await client.removeThreadMember(path: .init(threadId: threadId, userId: userId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// A page of messages, newest first; pass `nextBefore` as `before` for older ones (nil on the last page).
    public func messages(threadId: String, before: Int64? = nil, limit: Int = 30) async throws -> (messages: [Message], nextBefore: Int64?) {
        let output = try await call { try await client.listThreadMessages(path: .init(threadId: threadId), query: .init(before: before, limit: limit)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.messages, body.nextBefore)
    }

    /// Sends a message under `id`, or edits your message with that id. Keep `id` with a message
    /// queued offline and send it again with the same one: it is stored once.
    @discardableResult
    public func sendMessage(threadId: String, id: String, text: String) async throws -> Message {
        let output = try await call {
            try await client.putThreadMessage(path: .init(threadId: threadId, messageId: id), body: .json(.init(text: text)))
        }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    /// Sends a new message under an id made now; its `id` edits or deletes it later.
    @discardableResult
    public func sendMessage(threadId: String, text: String) async throws -> Message {
        try await sendMessage(threadId: threadId, id: UUID().uuidString.lowercased(), text: text)
    }

    /// Deletes your message for everyone; deleting one that is gone, or not yours, changes nothing.
    public func deleteMessage(threadId: String, id: String) async throws {
        let output = try await call { try await client.deleteThreadMessage(path: .init(threadId: threadId, messageId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Marks everything in the thread read, and its notifications with it.
    public func markThreadRead(id: String) async throws {
        let output = try await call { try await client.markThreadRead(path: .init(threadId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// A thread's messages as they are sent, edited and deleted. Reconnects by itself after a
    /// dropped connection and gets what happened meanwhile, so nothing is missed or repeated.
    /// Finishes with `WaymarkClientError` when the server refuses it (no session, or you are not
    /// or no longer in the thread); ends when the consuming task is cancelled.
    ///
    /// `sequence`: start after this point instead of at the moment the stream connects, e.g.
    /// the `sequence` of the newest message of the page just shown, so that nothing sent in
    /// between is lost.
    public func liveThread(id: String, after sequence: Int64? = nil, reconnectDelay: Duration = .seconds(1)) -> AsyncThrowingStream<ThreadEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = sequence
                while !Task.isCancelled {
                    do {
                        let resumeFrom = last
                        let output = try await call {
                            try await streamingClient.streamThread(path: .init(threadId: id), headers: .init(lastEventID: resumeFrom.map(String.init)))
                        }
                        guard case .ok(let ok) = output else { throw Self.unexpected }
                        for try await event in try ok.body.textEventStream.asDecodedServerSentEvents() {
                            if let change = try Self.threadEvent(event) { continuation.yield(change) }
                            if let idText = event.id, let eventId = Int64(idText) { last = eventId }
                        }
                    } catch is CancellationError {
                        break
                    } catch let error as WaymarkClientError where (400..<500).contains(error.status ?? 0) {
                        // Refused (signed out, not in the thread): retrying cannot help.
                        continuation.finish(throwing: error)
                        return
                    } catch let error as DecodingError {
                        // An event this SDK cannot read would come again on every reconnection.
                        continuation.finish(throwing: error)
                        return
                    } catch {
                        // Dropped connection or server restart: try again after a pause. The
                        // server also ends the stream when you leave; the next connection's
                        // refusal then finishes it.
                    }
                    try? await Task.sleep(for: reconnectDelay)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A friend's hikes, newest first, without calories (those stay the friend's).
    public func friendHikes(userId: String, offset: Int = 0, limit: Int = 10) async throws -> (person: PersonCard, hikes: [HikeSummary], total: Int) {
        let output = try await call { try await client.listFriendHikes(path: .init(userId: userId), query: .init(limit: limit, offset: offset)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.person, body.hikes, body.total)
    }

    /// One of a friend's hikes with its path.
    public func friendHike(userId: String, hikeId: String) async throws -> Hike {
        let output = try await call { try await client.getFriendHike(path: .init(userId: userId, hikeId: hikeId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    private struct DeletedMessage: Decodable { var id: String }

    /// Nil for an event kind this SDK does not know, which a newer server may send.
    private static func threadEvent(_ event: ServerSentEvent) throws -> ThreadEvent? {
        switch event.event {
        case "message":
            guard let data = event.data else { return nil }
            return .message(try liveDecoder.decode(Message.self, from: Data(data.utf8)))
        case "message-deleted":
            guard let data = event.data else { return nil }
            return .deleted(id: try liveDecoder.decode(DeletedMessage.self, from: Data(data.utf8)).id)
        case "members":
            return .membersChanged
        default:
            return nil
        }
    }
}

/// Location sharing with friends (TRL-9): off until the person turns it on; while on, the app
/// reports the position every `reportEverySeconds` and only the latest is kept; a friend's
/// position is seen only while both share. Turning it off deletes the stored position at once.
extension WaymarkClient {
    /// Whether you share, your stored position and how often to report it.
    public typealias LocationSharing = Components.Schemas.LocationSharing
    /// A position as stored: latitude, longitude, accuracy in metres and when it was reported.
    public typealias SharedPosition = Components.Schemas.SharedPosition
    /// A friend who shares, and where they were last reported.
    public typealias FriendPosition = Components.Schemas.FriendPositions.FriendsPayloadPayload

    /// Your setting, to show the switch and to know whether to report.
    public func locationSharing() async throws -> LocationSharing {
        let output = try await call { try await client.getLocationSharing() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Turns sharing on or off; off deletes your stored position.
    @discardableResult
    public func setLocationSharing(_ on: Bool) async throws -> LocationSharing {
        let output = try await call { try await client.setLocationSharing(body: .json(.init(sharing: on))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Replaces your stored position. Refused with the problem `sharing-off` (409) while you do not share.
    @discardableResult
    public func reportPosition(_ position: Coordinate, accuracy: Double) async throws -> SharedPosition {
        let output = try await call {
            try await client.reportSharedPosition(body: .json(.init(latitude: position.latitude, longitude: position.longitude, accuracy: accuracy)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Where your sharing friends are; nobody while you do not share yourself (`sharing` false).
    public func friendPositions() async throws -> (sharing: Bool, friends: [FriendPosition]) {
        let output = try await call { try await client.listFriendPositions() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.sharing, body.friends)
    }
}
