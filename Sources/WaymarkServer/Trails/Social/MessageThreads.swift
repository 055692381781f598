import Foundation
import SQLKit
import WaymarkCore

/// A message as a thread shows it. `seq` orders the thread and pages it.
struct MessageRow: Sendable {
    var id: String
    var threadId: String
    var author: PersonCard
    var text: String
    var seq: Int64
    var sentAt: Date
    var editedAt: Date?

    static let columns: SQLQueryString = "m.id AS message_id, m.thread_id, m.text, m.posted_seq, m.created_at AS sent_at, m.edited_at, \(PersonCard.columns)"

    init(_ r: any SQLRow) throws {
        id = try r.decode(column: "message_id", as: String.self)
        threadId = try r.decode(column: "thread_id", as: String.self)
        author = try PersonCard(r)
        text = try r.decode(column: "text", as: String.self)
        seq = try r.decode(column: "posted_seq", as: Int64.self)
        sentAt = Date(millis: try r.decode(column: "sent_at", as: Int64.self))
        editedAt = try r.decode(column: "edited_at", as: Int64?.self).map(Date.init(millis:))
    }
}

/// A thread as its member sees it in Messages.
struct ThreadRow: Sendable {
    var id: String
    var title: String?
    var direct: Bool
    var members: [PersonCard]
    var unreadCount: Int
    var lastMessage: MessageRow?
    var updatedAt: Date
}

/// Message threads (TRL-8): direct (one per pair of friends) and groups. Only members read or
/// write a thread; people are added by a member they are friends with; everyone writes, edits
/// and deletes only their own messages. Every change is an event in `thread_events`, which the
/// thread's live stream tails (`ThreadHub`). Messages of people a member blocked are left out
/// of what that member reads.
struct MessageThreads: Sendable {
    let store: SQLStore
    let hub: ThreadHub
    let notifier: Notifier
    let now: @Sendable () -> Date

    static let maxThreads = 200

    // MARK: Reading

    static func isMember(_ userId: String, of threadId: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT 1 AS x FROM thread_members WHERE thread_id = \(bind: threadId) AND user_id = \(bind: userId)").first() != nil
    }

    /// The person's threads, most recently active first, with members, unread counts and the last message.
    func list(_ me: Principal) async throws -> [ThreadRow] {
        try Friends.requireAccount(me)
        return try await Self.threads(of: me.userId, only: nil, sql: store.sql)
    }

    func thread(_ me: Principal, _ id: String) async throws -> ThreadRow {
        try Friends.requireAccount(me)
        guard let t = try await Self.threads(of: me.userId, only: id, sql: store.sql).first else { throw Problem.notFound("thread") }
        return t
    }

    /// Total unread messages across the person's threads: the navigation's badge.
    func unreadTotal(_ me: Principal) async throws -> Int {
        try await store.sql.raw("""
            SELECT COUNT(*) AS n FROM thread_members tm JOIN messages m ON m.thread_id = tm.thread_id
            WHERE tm.user_id = \(bind: me.userId) AND m.posted_seq > tm.read_seq AND m.author_id <> \(bind: me.userId)
              AND m.author_id NOT IN (SELECT blocked_id FROM person_blocks WHERE user_id = \(bind: me.userId))
            """).first()?.decode(column: "n", as: Int.self) ?? 0
    }

    private static func threads(of me: String, only: String?, sql: any SQLDatabase) async throws -> [ThreadRow] {
        let one: SQLQueryString = only.map { "AND t.id = \(bind: $0)" } ?? ""
        let rows = try await sql.raw("""
            SELECT t.id, t.title, t.direct_key, t.updated_at, tm.read_seq FROM thread_members tm JOIN message_threads t ON t.id = tm.thread_id
            WHERE tm.user_id = \(bind: me) \(one) ORDER BY t.updated_at DESC, t.id LIMIT \(bind: maxThreads)
            """).all()
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
        let list = SQLList(ids.map { SQLBind($0) })
        var members: [String: [PersonCard]] = [:]
        for r in try await sql.raw("""
            SELECT tm.thread_id, \(PersonCard.columns) FROM thread_members tm JOIN users u ON u.id = tm.user_id
            WHERE tm.thread_id IN (\(list)) ORDER BY tm.joined_at, u.username
            """).all() {
            members[try r.decode(column: "thread_id", as: String.self), default: []].append(try PersonCard(r))
        }
        let hidden: SQLQueryString = "m.author_id NOT IN (SELECT blocked_id FROM person_blocks WHERE user_id = \(bind: me))"
        var unread: [String: Int] = [:]
        for r in try await sql.raw("""
            SELECT m.thread_id, COUNT(*) AS n FROM messages m JOIN thread_members tm ON tm.thread_id = m.thread_id AND tm.user_id = \(bind: me)
            WHERE m.thread_id IN (\(list)) AND m.posted_seq > tm.read_seq AND m.author_id <> \(bind: me) AND \(hidden)
            GROUP BY m.thread_id
            """).all() {
            unread[try r.decode(column: "thread_id", as: String.self)] = try r.decode(column: "n", as: Int.self)
        }
        var last: [String: MessageRow] = [:]
        for r in try await sql.raw("""
            SELECT \(MessageRow.columns) FROM messages m JOIN users u ON u.id = m.author_id
            WHERE m.thread_id IN (\(list)) AND \(hidden) AND m.posted_seq = (
              SELECT MAX(m2.posted_seq) FROM messages m2 WHERE m2.thread_id = m.thread_id
                AND m2.author_id NOT IN (SELECT blocked_id FROM person_blocks WHERE user_id = \(bind: me)))
            """).all() {
            let m = try MessageRow(r)
            last[m.threadId] = m
        }
        return try rows.map { r in
            let id = try r.decode(column: "id", as: String.self)
            return ThreadRow(id: id, title: try r.decode(column: "title", as: String?.self),
                             direct: try r.decode(column: "direct_key", as: String?.self) != nil,
                             members: members[id] ?? [], unreadCount: unread[id] ?? 0, lastMessage: last[id],
                             updatedAt: Date(millis: try r.decode(column: "updated_at", as: Int64.self)))
        }
    }

    /// Messages before `before` (a message's `seq`), newest first.
    func messages(_ me: Principal, threadId: String, before: Int64?, limit: Int) async throws -> [MessageRow] {
        try Friends.requireAccount(me)
        let sql = store.sql
        guard try await Self.isMember(me.userId, of: threadId, sql: sql) else { throw Problem.notFound("thread") }
        let older: SQLQueryString = before.map { "AND m.posted_seq < \(bind: $0)" } ?? ""
        return try await sql.raw("""
            SELECT \(MessageRow.columns) FROM messages m JOIN users u ON u.id = m.author_id
            WHERE m.thread_id = \(bind: threadId) \(older)
              AND m.author_id NOT IN (SELECT blocked_id FROM person_blocks WHERE user_id = \(bind: me.userId))
            ORDER BY m.posted_seq DESC LIMIT \(bind: limit)
            """).all().map(MessageRow.init)
    }

    // MARK: Threads and members

    /// Starts a thread with friends. With one friend and no name it is the pair's direct thread,
    /// made once (`created` false when it existed).
    func create(_ me: Principal, memberIds: [String], title: String?) async throws -> (thread: ThreadRow, created: Bool) {
        try Friends.requireAccount(me)
        let others = Array(Set(memberIds.map { $0.lowercased() })).filter { $0 != me.userId }.sorted()
        guard !others.isEmpty else { throw Problem.badRequest("Choose at least one friend to write to.") }
        guard others.count <= MessageRules.maxMembers else { throw Problem.badRequest("A thread has at most \(MessageRules.maxMembers) people besides you.") }
        let name = try title.map { try Self.checkedTitle($0) }
        let directKey = others.count == 1 && name == nil ? SocialLocks.pairKey(me.userId, others[0]) : nil
        let now = now()
        let (id, created) = try await store.write { sql -> (String, Bool) in
            if directKey != nil { try await SocialLocks.lockPair(me.userId, others[0], sql: sql) }
            for other in others {
                guard try await Friends.areFriends(me.userId, other, sql: sql) else { throw Self.notFriends }
            }
            if let directKey, let existing = try await sql.raw("SELECT id FROM message_threads WHERE direct_key = \(bind: directKey)").first() {
                let id = try existing.decode(column: "id", as: String.self)
                // Someone who left their direct thread comes back to it.
                try await sql.raw("""
                    INSERT INTO thread_members (thread_id, user_id, joined_at) VALUES (\(bind: id), \(bind: me.userId), \(bind: now.millis))
                    ON CONFLICT (thread_id, user_id) DO NOTHING
                    """).run()
                return (id, false)
            }
            let id = UUID().uuidString.lowercased()
            try await sql.raw("""
                INSERT INTO message_threads (id, title, direct_key, created_by, created_at, updated_at)
                VALUES (\(bind: id), \(bind: name), \(bind: directKey), \(bind: me.userId), \(bind: now.millis), \(bind: now.millis))
                """).run()
            for user in [me.userId] + others {
                try await sql.raw("INSERT INTO thread_members (thread_id, user_id, joined_at) VALUES (\(bind: id), \(bind: user), \(bind: now.millis))").run()
            }
            return (id, true)
        }
        return (try await thread(me, id), created)
    }

    static let notFriends = Problem(type: "not-friends", title: "Only friends can write to each other", status: 403,
                                    detail: "Add them as a friend first; once they accept, you can write to them.")

    static func checkedTitle(_ raw: String) throws -> String {
        do { return try MessageRules.title(raw) } catch {
            let detail = switch error {
            case .empty: "A thread's name cannot be empty; leave it out for none."
            case .tooLong(let n, let limit): "A thread's name has at most \(limit) characters; this one has \(n)."
            case .controlCharacters: "A thread's name is one line of text without control characters."
            }
            throw Problem.badRequest(detail)
        }
    }

    /// Adds a friend of the member inviting; a direct thread that gets a third person becomes a group.
    func invite(_ me: Principal, threadId: String, userId: String) async throws -> ThreadRow {
        try Friends.requireAccount(me)
        let now = now()
        let changed = try await store.write { sql -> Bool in
            try await SocialLocks.lockPair(me.userId, userId, sql: sql)
            try await SocialLocks.lockThread(threadId, sql: sql)
            guard try await Self.isMember(me.userId, of: threadId, sql: sql) else { throw Problem.notFound("thread") }
            if try await Self.isMember(userId, of: threadId, sql: sql) { return false }
            guard try await Friends.areFriends(me.userId, userId, sql: sql) else { throw Self.notFriends }
            let count = try await sql.raw("SELECT COUNT(*) AS n FROM thread_members WHERE thread_id = \(bind: threadId)").first()?.decode(column: "n", as: Int.self) ?? 0
            guard count <= MessageRules.maxMembers else { throw Problem.conflict("thread-full", "A thread has at most \(MessageRules.maxMembers + 1) people.") }
            try await sql.raw("INSERT INTO thread_members (thread_id, user_id, joined_at) VALUES (\(bind: threadId), \(bind: userId), \(bind: now.millis))").run()
            // The new member reads from here on as unread only what comes after.
            try await sql.raw("""
                UPDATE thread_members SET read_seq = (SELECT COALESCE(MAX(posted_seq), 0) FROM messages WHERE thread_id = \(bind: threadId))
                WHERE thread_id = \(bind: threadId) AND user_id = \(bind: userId)
                """).run()
            try await sql.raw("UPDATE message_threads SET direct_key = NULL, updated_at = \(bind: now.millis) WHERE id = \(bind: threadId)").run()
            _ = try await Self.append("members", thread: threadId, message: nil, now: now, sql: sql)
            return true
        }
        if changed { hub.poke() }
        return try await thread(me, threadId)
    }

    /// Removes a member, or lets the person leave. Removing someone else needs at least two
    /// other people in the thread: a thread of two is left, not emptied of the other.
    func remove(_ me: Principal, threadId: String, userId: String) async throws {
        try Friends.requireAccount(me)
        let now = now()
        try await store.write { sql in
            try await SocialLocks.lockThread(threadId, sql: sql)
            guard try await Self.isMember(me.userId, of: threadId, sql: sql) else { throw Problem.notFound("thread") }
            guard try await Self.isMember(userId, of: threadId, sql: sql) else { throw Problem.notFound("member") }
            let count = try await sql.raw("SELECT COUNT(*) AS n FROM thread_members WHERE thread_id = \(bind: threadId)").first()?.decode(column: "n", as: Int.self) ?? 0
            if userId != me.userId && count <= 2 {
                throw Problem.conflict("thread-too-small", "Only one other person is in this thread, so nobody can be removed. Leave the thread instead.")
            }
            try await sql.raw("DELETE FROM thread_members WHERE thread_id = \(bind: threadId) AND user_id = \(bind: userId)").run()
            if count == 1 {
                try await sql.raw("DELETE FROM message_threads WHERE id = \(bind: threadId)").run()
            } else {
                try await sql.raw("UPDATE message_threads SET updated_at = \(bind: now.millis) WHERE id = \(bind: threadId)").run()
            }
            _ = try await Self.append("members", thread: threadId, message: nil, now: now, sql: sql)
        }
        hub.poke()
    }

    // MARK: Messages

    /// Sends the message under the id the device chose, or changes its text when the writer
    /// sends the id again with another text. In a direct thread both must still be friends.
    func put(_ me: Principal, threadId: String, messageId: String, text raw: String) async throws -> (message: MessageRow, created: Bool) {
        try Friends.requireAccount(me)
        let text: String
        do { text = try MessageRules.text(raw) } catch {
            let detail = switch error {
            case .empty: "A message needs some text."
            case .tooLong(let n, let limit): "A message has at most \(limit) characters; this one has \(n). Send it in parts."
            case .controlCharacters: "A message may have line breaks and tabs but no other control characters."
            }
            throw Problem.badRequest(detail)
        }
        let now = now()
        let created = try await store.write { sql -> Bool in
            try await SocialLocks.lockThread(threadId, sql: sql)
            guard try await Self.isMember(me.userId, of: threadId, sql: sql) else { throw Problem.notFound("thread") }
            if let existing = try await sql.raw("SELECT author_id, thread_id, text FROM messages WHERE id = \(bind: messageId)").first() {
                guard try existing.decode(column: "author_id", as: String.self) == me.userId,
                      try existing.decode(column: "thread_id", as: String.self) == threadId else {
                    throw Problem.conflict("message-id-taken", "Another message has this id. Choose a new random id (a UUID) for a new message.")
                }
                guard try existing.decode(column: "text", as: String.self) != text else { return false }
                try await sql.raw("UPDATE messages SET text = \(bind: text), edited_at = \(bind: now.millis) WHERE id = \(bind: messageId)").run()
                _ = try await Self.append("edited", thread: threadId, message: messageId, now: now, sql: sql)
                return false
            }
            let t = try await sql.raw("SELECT direct_key FROM message_threads WHERE id = \(bind: threadId)").first()
            let others = try await sql.raw("SELECT user_id FROM thread_members WHERE thread_id = \(bind: threadId) AND user_id <> \(bind: me.userId)").all()
                .map { try $0.decode(column: "user_id", as: String.self) }
            if try t?.decode(column: "direct_key", as: String?.self) != nil, let other = others.first,
               try await !Friends.areFriends(me.userId, other, sql: sql) {
                throw Self.notFriends
            }
            let seq = try await Self.append("posted", thread: threadId, message: messageId, now: now, sql: sql)
            try await sql.raw("""
                INSERT INTO messages (id, thread_id, author_id, text, posted_seq, created_at)
                VALUES (\(bind: messageId), \(bind: threadId), \(bind: me.userId), \(bind: text), \(bind: seq), \(bind: now.millis))
                """).run()
            try await sql.raw("UPDATE message_threads SET updated_at = \(bind: now.millis) WHERE id = \(bind: threadId)").run()
            try await sql.raw("UPDATE thread_members SET read_seq = \(bind: seq) WHERE thread_id = \(bind: threadId) AND user_id = \(bind: me.userId)").run()
            try await Self.notify(others, of: text, from: me.userId, threadId: threadId, now: now, sql: sql)
            return true
        }
        hub.poke()
        notifier.delivered()
        guard let message = try await store.sql.raw("""
            SELECT \(MessageRow.columns) FROM messages m JOIN users u ON u.id = m.author_id WHERE m.id = \(bind: messageId)
            """).first().map(MessageRow.init) else { throw Problem.notFound("message") }
        return (message, created)
    }

    /// One notice per thread until it is read: a member with an unread notice of the thread
    /// gets no second one. Nobody is told of a message from someone they blocked.
    private static func notify(_ members: [String], of text: String, from author: String, threadId: String, now: Date, sql: any SQLDatabase) async throws {
        guard let card = try await PersonCard.of([author], sql: sql).first else { return }
        let title = try await sql.raw("SELECT title FROM message_threads WHERE id = \(bind: threadId)").first()?.decode(column: "title", as: String?.self)
        var drafts: [NotificationDraft] = []
        for user in members {
            if try await Friends.hasBlocked(user, author, sql: sql) { continue }
            let waiting = try await sql.raw("""
                SELECT 1 AS x FROM notifications WHERE user_id = \(bind: user) AND thread_id = \(bind: threadId) AND read_at IS NULL
                """).first()
            if waiting != nil { continue }
            let preview = text.count > 140 ? String(text.prefix(139)) + "…" : text
            drafts.append(NotificationDraft(userId: user, kind: .message, title: title.map { "\(card.name) in \($0)" } ?? "Message from \(card.name)",
                                            body: preview, threadId: threadId, fromUserId: author))
        }
        try await Notifier.post(drafts, at: now, within: sql)
    }

    func delete(_ me: Principal, threadId: String, messageId: String) async throws -> Bool {
        try Friends.requireAccount(me)
        let now = now()
        let deleted = try await store.write { sql -> Bool in
            try await SocialLocks.lockThread(threadId, sql: sql)
            guard try await Self.isMember(me.userId, of: threadId, sql: sql) else { throw Problem.notFound("thread") }
            guard try await !sql.raw("""
                DELETE FROM messages WHERE id = \(bind: messageId) AND thread_id = \(bind: threadId) AND author_id = \(bind: me.userId) RETURNING id
                """).all().isEmpty else { return false }
            _ = try await Self.append("deleted", thread: threadId, message: messageId, now: now, sql: sql)
            return true
        }
        if deleted { hub.poke() }
        return deleted
    }

    /// Marks everything in the thread read, and the thread's notices with it.
    func markRead(_ me: Principal, threadId: String) async throws {
        try Friends.requireAccount(me)
        let now = now()
        try await store.write { sql in
            guard try await Self.isMember(me.userId, of: threadId, sql: sql) else { throw Problem.notFound("thread") }
            try await sql.raw("""
                UPDATE thread_members SET read_seq = (SELECT COALESCE(MAX(posted_seq), 0) FROM messages WHERE thread_id = \(bind: threadId))
                WHERE thread_id = \(bind: threadId) AND user_id = \(bind: me.userId)
                """).run()
            try await sql.raw("""
                UPDATE notifications SET read_at = \(bind: now.millis) WHERE user_id = \(bind: me.userId) AND thread_id = \(bind: threadId) AND read_at IS NULL
                """).run()
        }
    }

    // MARK: The log

    /// PostgreSQL advisory lock key taken by every transaction that appends a thread event, so
    /// that sequences commit in order and the live tail never skips one.
    static let appendLockKey: Int64 = 0x5761_796D_5468_72 // "WaymThr"

    static func append(_ kind: String, thread: String, message: String?, now: Date, sql: any SQLDatabase) async throws -> Int64 {
        if sql.dialect.name == "postgresql" { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: appendLockKey))").run() }
        guard let seq = try await sql.raw("""
            INSERT INTO thread_events (thread_id, kind, message_id, created_at)
            VALUES (\(bind: thread), \(bind: kind), \(bind: message), \(bind: now.millis)) RETURNING seq
            """).first()?.decode(column: "seq", as: Int64.self) else { throw Problem.internalError }
        return seq
    }

    /// Events are kept a week: long enough for any stream to catch up after a reconnection.
    static func prune(now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM thread_events WHERE created_at < \(bind: now.addingTimeInterval(-7 * 86_400).millis)").run()
    }
}
