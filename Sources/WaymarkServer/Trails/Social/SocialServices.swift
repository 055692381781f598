import Foundation
import Logging
import SQLKit

/// Friends, message threads and location sharing: the social side of Trails (TRL-8, TRL-9).
struct SocialServices: Sendable {
    let friends: Friends
    let threads: MessageThreads
    let location: LocationSharing
    let hub: ThreadHub

    init(_ env: WaymarkEnvironment, notifier: Notifier) {
        hub = ThreadHub(store: env.store, pollInterval: env.livePollInterval, logger: env.logger)
        friends = Friends(store: env.store, notifier: notifier, now: env.now)
        threads = MessageThreads(store: env.store, hub: hub, notifier: notifier, now: env.now)
        location = LocationSharing(store: env.store, now: env.now)
    }

    /// The threads' live tail; with jobs, a daily removal of thread events past their week.
    func start(_ background: BackgroundTasks, jobs: Bool, environment env: WaymarkEnvironment) {
        let hub = hub
        background.start { await hub.run() }
        guard jobs else { return }
        background.start {
            while !Task.isCancelled {
                try? await MessageThreads.prune(now: env.now(), sql: env.store.sql)
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }

    static let signedInOperations: Set<String> = [
        "searchPeople", "getFriends", "befriend", "unfriend", "blockPerson", "unblockPerson",
        "listThreads", "createThread", "getThread", "addThreadMember", "removeThreadMember",
        "listThreadMessages", "putThreadMessage", "deleteThreadMessage", "markThreadRead", "streamThread",
        "getLocationSharing", "setLocationSharing", "reportSharedPosition", "listFriendPositions",
        "listFriendHikes", "getFriendHike",
    ]
}

/// What the social side keeps of a person (ACC-5): erasing an account erases its friendships,
/// requests, blocks (both ways), memberships, the messages it wrote and its shared position.
/// A thread left without members goes too. Guests have none of it, so nothing moves on sign-in.
struct SocialPersonalData: PersonalData {
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws {}

    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        let u = userId
        // Open threads drop the person's messages at once, as if they deleted each.
        if sql.dialect.name == "postgresql" { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: MessageThreads.appendLockKey))").run() }
        try await sql.raw("""
            INSERT INTO thread_events (thread_id, kind, message_id, created_at)
            SELECT thread_id, 'deleted', id, \(bind: now.millis) FROM messages WHERE author_id = \(bind: u) ORDER BY posted_seq
            """).run()
        for q: SQLQueryString in [
            "DELETE FROM friend_requests WHERE from_id = \(bind: u) OR to_id = \(bind: u)",
            "DELETE FROM friendships WHERE user_id = \(bind: u) OR friend_id = \(bind: u)",
            "DELETE FROM person_blocks WHERE user_id = \(bind: u) OR blocked_id = \(bind: u)",
            "DELETE FROM messages WHERE author_id = \(bind: u)",
            "DELETE FROM thread_members WHERE user_id = \(bind: u)",
            "UPDATE message_threads SET created_by = NULL WHERE created_by = \(bind: u)",
            // A direct thread's key names both people; the one left keeps the thread as a plain one.
            "UPDATE message_threads SET direct_key = NULL WHERE direct_key LIKE \(bind: "%" + u + "%")",
            "DELETE FROM messages WHERE thread_id IN (SELECT id FROM message_threads t WHERE NOT EXISTS (SELECT 1 FROM thread_members m WHERE m.thread_id = t.id))",
            "DELETE FROM message_threads WHERE NOT EXISTS (SELECT 1 FROM thread_members m WHERE m.thread_id = message_threads.id)",
            "DELETE FROM location_shares WHERE user_id = \(bind: u)",
            // What others were told of the person names them.
            "DELETE FROM notifications WHERE from_user_id = \(bind: u)",
        ] {
            try await sql.raw(q).run()
        }
    }
}
