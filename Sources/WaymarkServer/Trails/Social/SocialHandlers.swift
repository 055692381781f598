import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

// MARK: Friends, messages and location sharing (TRL-8, TRL-9)

extension APIHandler {
    private var social: SocialServices { services.trails.social }

    /// Ids in paths are UUIDs; anything else names nobody.
    private func personId(_ raw: String) throws -> String {
        guard UUID(uuidString: raw) != nil else { throw Problem.notFound("person") }
        return raw.lowercased()
    }

    private func threadId(_ raw: String) throws -> String {
        guard UUID(uuidString: raw) != nil else { throw Problem.notFound("thread") }
        return raw.lowercased()
    }

    func searchPeople(_ input: Operations.SearchPeople.Input) async throws -> Operations.SearchPeople.Output {
        let me = try RequestContext.requirePrincipal()
        let limit = input.query.limit ?? 20
        guard (1...50).contains(limit) else { throw Problem.badRequest("limit must be 1–50.") }
        guard input.query.username.unicodeScalars.count <= 64 else { throw Problem.badRequest("A username has at most 64 characters.") }
        let found = try await social.friends.search(me, username: input.query.username, limit: limit)
        return .ok(.init(body: .json(.init(people: found.map { .init(person: SocialMapping.person($0.card), relation: SocialMapping.relation($0.relation)) }))))
    }

    func getFriends(_ input: Operations.GetFriends.Input) async throws -> Operations.GetFriends.Output {
        let o = try await social.friends.overview(try RequestContext.requirePrincipal())
        func dated(_ list: [(card: PersonCard, at: Date)]) -> [Components.Schemas.DatedPerson] {
            list.map { .init(person: SocialMapping.person($0.card), since: $0.at) }
        }
        return .ok(.init(body: .json(.init(friends: dated(o.friends.map { ($0.card, $0.since) }), incoming: dated(o.incoming),
                                           outgoing: dated(o.outgoing), blocked: o.blocked.map(SocialMapping.person)))))
    }

    func befriend(_ input: Operations.Befriend.Input) async throws -> Operations.Befriend.Output {
        let me = try RequestContext.requirePrincipal()
        let r = try await social.friends.befriend(me, try personId(input.path.userId))
        return .ok(.init(body: .json(.init(relation: SocialMapping.relation(r)))))
    }

    func unfriend(_ input: Operations.Unfriend.Input) async throws -> Operations.Unfriend.Output {
        let me = try RequestContext.requirePrincipal()
        guard try await social.friends.unfriend(me, try personId(input.path.userId)) else { throw Problem.notFound("friend or request") }
        return .noContent(.init())
    }

    func blockPerson(_ input: Operations.BlockPerson.Input) async throws -> Operations.BlockPerson.Output {
        let me = try RequestContext.requirePrincipal()
        try await social.friends.block(me, try personId(input.path.userId))
        return .noContent(.init())
    }

    func unblockPerson(_ input: Operations.UnblockPerson.Input) async throws -> Operations.UnblockPerson.Output {
        let me = try RequestContext.requirePrincipal()
        guard try await social.friends.unblock(me, try personId(input.path.userId)) else { throw Problem.notFound("block") }
        return .noContent(.init())
    }

    // MARK: Threads

    func listThreads(_ input: Operations.ListThreads.Input) async throws -> Operations.ListThreads.Output {
        let me = try RequestContext.requirePrincipal()
        let threads = try await social.threads.list(me)
        return .ok(.init(body: .json(.init(threads: threads.map(SocialMapping.thread), unreadCount: threads.reduce(0) { $0 + $1.unreadCount }))))
    }

    func createThread(_ input: Operations.CreateThread.Input) async throws -> Operations.CreateThread.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        guard body.memberIds.count <= MessageRules.maxMembers else { throw Problem.badRequest("A thread has at most \(MessageRules.maxMembers) people besides you.") }
        let ids = try body.memberIds.map { raw -> String in
            guard UUID(uuidString: raw) != nil else { throw Problem.badRequest("memberIds must be people's ids (UUIDs).") }
            return raw.lowercased()
        }
        let r = try await social.threads.create(me, memberIds: ids, title: body.title)
        let out = SocialMapping.thread(r.thread)
        return r.created ? .created(.init(body: .json(out))) : .ok(.init(body: .json(out)))
    }

    func getThread(_ input: Operations.GetThread.Input) async throws -> Operations.GetThread.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(SocialMapping.thread(try await social.threads.thread(me, try threadId(input.path.threadId))))))
    }

    func addThreadMember(_ input: Operations.AddThreadMember.Input) async throws -> Operations.AddThreadMember.Output {
        let me = try RequestContext.requirePrincipal()
        let t = try await social.threads.invite(me, threadId: try threadId(input.path.threadId), userId: try personId(input.path.userId))
        return .ok(.init(body: .json(SocialMapping.thread(t))))
    }

    func removeThreadMember(_ input: Operations.RemoveThreadMember.Input) async throws -> Operations.RemoveThreadMember.Output {
        let me = try RequestContext.requirePrincipal()
        try await social.threads.remove(me, threadId: try threadId(input.path.threadId), userId: try personId(input.path.userId))
        return .noContent(.init())
    }

    func listThreadMessages(_ input: Operations.ListThreadMessages.Input) async throws -> Operations.ListThreadMessages.Output {
        let me = try RequestContext.requirePrincipal()
        let limit = input.query.limit ?? 30
        guard (1...100).contains(limit) else { throw Problem.badRequest("limit must be 1–100.") }
        if let b = input.query.before, b < 1 { throw Problem.badRequest("before must be a message's sequence (1 or more).") }
        let page = try await social.threads.messages(me, threadId: try threadId(input.path.threadId), before: input.query.before, limit: limit + 1)
        let shown = page.prefix(limit)
        return .ok(.init(body: .json(.init(messages: shown.map(SocialMapping.message), nextBefore: page.count > limit ? shown.last?.seq : nil))))
    }

    func putThreadMessage(_ input: Operations.PutThreadMessage.Input) async throws -> Operations.PutThreadMessage.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let id = try ClientChosenId.validated(input.path.messageId, name: "messageId", noun: "message")
        let r = try await social.threads.put(me, threadId: try threadId(input.path.threadId), messageId: id, text: body.text)
        let out = SocialMapping.message(r.message)
        return r.created ? .created(.init(body: .json(out))) : .ok(.init(body: .json(out)))
    }

    func deleteThreadMessage(_ input: Operations.DeleteThreadMessage.Input) async throws -> Operations.DeleteThreadMessage.Output {
        let me = try RequestContext.requirePrincipal()
        let id = try ClientChosenId.validated(input.path.messageId, name: "messageId", noun: "message")
        _ = try await social.threads.delete(me, threadId: try threadId(input.path.threadId), messageId: id)
        return .noContent(.init())
    }

    func markThreadRead(_ input: Operations.MarkThreadRead.Input) async throws -> Operations.MarkThreadRead.Output {
        let me = try RequestContext.requirePrincipal()
        try await social.threads.markRead(me, threadId: try threadId(input.path.threadId))
        return .noContent(.init())
    }

    /// The thread's changes as Server-Sent Events, started as `streamNotifications` starts (see
    /// there). Each frame is passed on only while the person is still a member, so someone
    /// removed stops hearing the thread at its next change.
    func streamThread(_ input: Operations.StreamThread.Input) async throws -> Operations.StreamThread.Output {
        let me = try RequestContext.requirePrincipal()
        try Friends.requireAccount(me)
        let thread = try threadId(input.path.threadId)
        let store = services.store
        guard try await MessageThreads.isMember(me.userId, of: thread, sql: store.sql) else { throw Problem.notFound("thread") }
        let resumeFrom = input.headers.lastEventID.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
        let start = if let resumeFrom { resumeFrom } else { try await ThreadLog(store: store).newest() }
        let (cursor, frames) = social.hub.subscribe(topic: thread)
        let (members, relay) = AsyncStream<LiveFrame>.makeStream(bufferingPolicy: .bufferingOldest(ThreadHub.threadBuffer))
        let me_ = me.userId
        let pump = Task {
            var through = cursor
            for await frame in frames {
                guard (try? await MessageThreads.isMember(me_, of: thread, sql: store.sql)) == true else { break }
                let blocked = (try? await Friends.blocked(by: me_, sql: store.sql)) ?? []
                if blocked.isEmpty {
                    if case .dropped = relay.yield(frame) { break }
                } else {
                    // The hub's frame is shared by every member; read its events again to leave
                    // out the messages of people this member blocked.
                    let rows = (try? await ThreadLog.events(after: through, thread: thread, limit: 1_000, sql: store.sql)) ?? []
                    let kept = Self.visible(rows.filter { $0.seq <= frame.id }, blocked: blocked)
                        .compactMap { r in ThreadLog.frame(r).map { LiveFrame(id: r.seq, bytes: $0) } }
                    if let batch = LiveFrame(batch: kept), case .dropped = relay.yield(batch) { break }
                }
                through = frame.id
            }
            relay.finish()
        }
        relay.onTermination = { _ in pump.cancel() }
        let body = EventStream.body(frames: members, buffer: ThreadHub.threadBuffer, skipThrough: start) {
            guard start < cursor, let missed = try? await ThreadLog.events(after: start, thread: thread, limit: 1_000, sql: store.sql) else { return [] }
            let blocked = (try? await Friends.blocked(by: me_, sql: store.sql)) ?? []
            return Self.visible(missed.filter { $0.seq <= cursor }, blocked: blocked).compactMap(ThreadLog.frame)
        }
        return .ok(.init(body: .textEventStream(body)))
    }

    /// A thread's events without the messages of people the reader blocked (TRL-8).
    static func visible(_ rows: [ThreadEventRow], blocked: Set<String>) -> [ThreadEventRow] {
        blocked.isEmpty ? rows : rows.filter { row in row.message.map { !blocked.contains($0.author.id) } ?? true }
    }

    // MARK: Location sharing

    private func sharingView(_ me: Principal) async throws -> Components.Schemas.LocationSharing {
        let s = try await social.location.state(me)
        return .init(sharing: s.sharing, position: s.position.map(SocialMapping.position), reportEverySeconds: Int(LocationSharing.reportInterval))
    }

    func getLocationSharing(_ input: Operations.GetLocationSharing.Input) async throws -> Operations.GetLocationSharing.Output {
        .ok(.init(body: .json(try await sharingView(try RequestContext.requirePrincipal()))))
    }

    func setLocationSharing(_ input: Operations.SetLocationSharing.Input) async throws -> Operations.SetLocationSharing.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        try await social.location.setSharing(me, on: body.sharing)
        return .ok(.init(body: .json(try await sharingView(me))))
    }

    func reportSharedPosition(_ input: Operations.ReportSharedPosition.Input) async throws -> Operations.ReportSharedPosition.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        guard b.latitude.isFinite, b.longitude.isFinite, b.accuracy.isFinite else { throw Problem.badRequest("latitude, longitude and accuracy must be numbers.") }
        let p = try await social.location.report(me, latitude: b.latitude, longitude: b.longitude, accuracy: b.accuracy)
        return .ok(.init(body: .json(SocialMapping.position(p))))
    }

    func listFriendPositions(_ input: Operations.ListFriendPositions.Input) async throws -> Operations.ListFriendPositions.Output {
        let me = try RequestContext.requirePrincipal()
        let sharing = try await social.location.state(me).sharing
        let friends = try await social.location.friendsPositions(me)
        return .ok(.init(body: .json(.init(sharing: sharing, friends: friends.map { .init(person: SocialMapping.person($0.friend), position: SocialMapping.position($0.position)) }))))
    }
}

// MARK: A friend's hikes

extension APIHandler {
    /// The friend's id once it is sure they are a friend; anyone else is nobody (404).
    private func friend(_ raw: String) async throws -> (me: Principal, friend: PersonCard) {
        let me = try RequestContext.requirePrincipal()
        try Friends.requireAccount(me)
        guard UUID(uuidString: raw) != nil else { throw Problem.notFound("person") }
        let id = raw.lowercased()
        let sql = services.store.sql
        guard try await Friends.areFriends(me.userId, id, sql: sql), let card = try await PersonCard.of([id], sql: sql).first else {
            throw Problem.notFound("person")
        }
        return (me, card)
    }

    func listFriendHikes(_ input: Operations.ListFriendHikes.Input) async throws -> Operations.ListFriendHikes.Output {
        let (_, card) = try await friend(input.path.userId)
        let limit = input.query.limit ?? 10, offset = input.query.offset ?? 0
        guard (1...100).contains(limit), (0...100_000).contains(offset) else { throw Problem.badRequest("limit must be 1–100 and offset 0–100000.") }
        let page = try await services.trails.hikes.list(userId: card.id, sort: .date, limit: limit, offset: offset)
        return .ok(.init(body: .json(.init(person: SocialMapping.person(card), hikes: page.hikes.map { SocialMapping.friendsView(of: $0) }.map(TrailsMapping.hikeSummary),
                                           total: page.total, timeZone: services.trails.timeZone.identifier))))
    }

    func getFriendHike(_ input: Operations.GetFriendHike.Input) async throws -> Operations.GetFriendHike.Output {
        let (_, card) = try await friend(input.path.userId)
        let id = try ClientChosenId.validated(input.path.hikeId, name: "hikeId", noun: "hike")
        guard let hike = try await services.trails.hikes.hike(userId: card.id, id: id) else { throw Problem.notFound("hike") }
        return .ok(.init(body: .json(TrailsMapping.hike(SocialMapping.friendsView(of: hike)))))
    }
}
