import Foundation
import SQLKit
import WaymarkCore

/// Friends (TRL-8): people find each other by username, ask, accept or decline, and may remove
/// a friend or block a person. Blocking ends the friendship and any request either way, hides
/// the blocker from the blocked person's search, and refuses their requests from then on.
/// Only accounts take part: a friend is someone with a name to find.
struct Friends: Sendable {
    let store: SQLStore
    let notifier: Notifier
    let now: @Sendable () -> Date

    enum Relation: String, Sendable { case friend, requested, asksYou = "asks-you", blocked, none }

    struct Overview: Sendable {
        var friends: [(card: PersonCard, since: Date)]
        var incoming: [(card: PersonCard, at: Date)]
        var outgoing: [(card: PersonCard, at: Date)]
        var blocked: [PersonCard]
    }

    static let accountRequired = Problem(type: "account-required", title: "Sign in to an account", status: 403,
                                         detail: "Friends and messages need an account, so that others can find you by your username.")

    static func requireAccount(_ p: Principal) throws { guard p.kind == .account else { throw accountRequired } }

    // MARK: Reading

    static func relation(of me: String, to other: String, sql: any SQLDatabase) async throws -> Relation {
        let r = try await sql.raw("""
            SELECT
              (SELECT COUNT(*) FROM friendships WHERE user_id = \(bind: me) AND friend_id = \(bind: other)) AS friend,
              (SELECT COUNT(*) FROM friend_requests WHERE from_id = \(bind: me) AND to_id = \(bind: other)) AS requested,
              (SELECT COUNT(*) FROM friend_requests WHERE from_id = \(bind: other) AND to_id = \(bind: me)) AS asks,
              (SELECT COUNT(*) FROM person_blocks WHERE user_id = \(bind: me) AND blocked_id = \(bind: other)) AS blocked
            """).first()
        func n(_ c: String) throws -> Int { try r?.decode(column: c, as: Int.self) ?? 0 }
        if try n("blocked") > 0 { return .blocked }
        if try n("friend") > 0 { return .friend }
        if try n("requested") > 0 { return .requested }
        if try n("asks") > 0 { return .asksYou }
        return .none
    }

    static func areFriends(_ a: String, _ b: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT 1 AS x FROM friendships WHERE user_id = \(bind: a) AND friend_id = \(bind: b)").first() != nil
    }

    static func hasBlocked(_ a: String, _ b: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT 1 AS x FROM person_blocks WHERE user_id = \(bind: a) AND blocked_id = \(bind: b)").first() != nil
    }

    /// Everyone `a` has blocked.
    static func blocked(by a: String, sql: any SQLDatabase) async throws -> Set<String> {
        Set(try await sql.raw("SELECT blocked_id FROM person_blocks WHERE user_id = \(bind: a)").all()
            .map { try $0.decode(column: "blocked_id", as: String.self) })
    }

    func overview(_ me: Principal) async throws -> Overview {
        try Self.requireAccount(me)
        let sql = store.sql
        func dated(_ q: SQLQueryString) async throws -> [(card: PersonCard, at: Date)] {
            try await sql.raw(q).all().map { (try PersonCard($0), Date(millis: try $0.decode(column: "at", as: Int64.self))) }
        }
        let friends = try await dated("""
            SELECT \(PersonCard.columns), f.created_at AS at FROM friendships f JOIN users u ON u.id = f.friend_id
            WHERE f.user_id = \(bind: me.userId) ORDER BY LOWER(COALESCE(u.first_name, u.username)), u.username
            """)
        let incoming = try await dated("""
            SELECT \(PersonCard.columns), r.created_at AS at FROM friend_requests r JOIN users u ON u.id = r.from_id
            WHERE r.to_id = \(bind: me.userId) ORDER BY r.created_at DESC
            """)
        let outgoing = try await dated("""
            SELECT \(PersonCard.columns), r.created_at AS at FROM friend_requests r JOIN users u ON u.id = r.to_id
            WHERE r.from_id = \(bind: me.userId) ORDER BY r.created_at DESC
            """)
        let blocked = try await dated("""
            SELECT \(PersonCard.columns), b.created_at AS at FROM person_blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.user_id = \(bind: me.userId) ORDER BY u.username
            """).map(\.card)
        return Overview(friends: friends.map { ($0.card, $0.at) }, incoming: incoming, outgoing: outgoing, blocked: blocked)
    }

    /// Accounts whose username starts with `text` (case does not matter), with how each stands
    /// to the person asking; people who blocked them are not found.
    func search(_ me: Principal, username text: String, limit: Int) async throws -> [(card: PersonCard, relation: Relation)] {
        try Self.requireAccount(me)
        let key = UsernameRules.key(text.trimmingCharacters(in: .whitespaces))
        guard key.count >= 2 else { throw Problem.badRequest("Type at least 2 characters of a username.") }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let sql = store.sql
        let cards = try await sql.raw("""
            SELECT \(PersonCard.columns) FROM users u
            WHERE u.kind = 'account' AND u.username_key LIKE \(bind: escaped + "%") ESCAPE '\\' AND u.id <> \(bind: me.userId)
              AND NOT EXISTS (SELECT 1 FROM person_blocks b WHERE b.user_id = u.id AND b.blocked_id = \(bind: me.userId))
            ORDER BY CASE WHEN u.username_key = \(bind: key) THEN 0 ELSE 1 END, u.username_key LIMIT \(bind: limit)
            """).all().map(PersonCard.init)
        var out: [(PersonCard, Relation)] = []
        for c in cards { out.append((c, try await Self.relation(of: me.userId, to: c.id, sql: sql))) }
        return out
    }

    // MARK: Writing

    /// Asks `other` to be friends, or accepts when they asked first. A person who blocked the
    /// asker is, to the asker, nobody: 404, as for an id of no account.
    func befriend(_ me: Principal, _ other: String) async throws -> Relation {
        try Self.requireAccount(me)
        guard other != me.userId else { throw Problem.badRequest("You cannot be your own friend.") }
        let now = now()
        let (relation, drafts) = try await store.write { sql -> (Relation, [NotificationDraft]) in
            try await SocialLocks.lockPair(me.userId, other, sql: sql)
            let cards = try await PersonCard.of([me.userId, other], sql: sql)
            guard cards.count == 2, try await !Self.hasBlocked(other, me.userId, sql: sql) else { throw Problem.notFound("person") }
            switch try await Self.relation(of: me.userId, to: other, sql: sql) {
            case .blocked:
                throw Problem.conflict("person-blocked", "You blocked this person. Unblock them first.")
            case .friend:
                return (.friend, [])
            case .requested:
                return (.requested, [])
            case .asksYou:
                try await sql.raw("DELETE FROM friend_requests WHERE from_id = \(bind: other) AND to_id = \(bind: me.userId)").run()
                for (a, b) in [(me.userId, other), (other, me.userId)] {
                    try await sql.raw("INSERT INTO friendships (user_id, friend_id, created_at) VALUES (\(bind: a), \(bind: b), \(bind: now.millis))").run()
                }
                let d = NotificationDraft(userId: other, kind: .friendAccepted, title: "\(cards[0].name) accepted your friend request",
                                          body: "You can now message each other and, when you both share it, see each other on the map.", fromUserId: me.userId)
                try await Notifier.post([d], at: now, within: sql)
                return (.friend, [d])
            case .none:
                try await sql.raw("INSERT INTO friend_requests (from_id, to_id, created_at) VALUES (\(bind: me.userId), \(bind: other), \(bind: now.millis))").run()
                let d = NotificationDraft(userId: other, kind: .friendRequest, title: "\(cards[0].name) wants to be your friend",
                                          body: "@\(cards[0].username) sent you a friend request. Accept or decline it in Friends.", fromUserId: me.userId)
                try await Notifier.post([d], at: now, within: sql)
                return (.requested, [d])
            }
        }
        if !drafts.isEmpty { notifier.delivered() }
        return relation
    }

    /// Ends a friendship, withdraws a request or declines one; false when there was none.
    func unfriend(_ me: Principal, _ other: String) async throws -> Bool {
        try Self.requireAccount(me)
        return try await store.write { sql in
            try await SocialLocks.lockPair(me.userId, other, sql: sql)
            return try await Self.separate(me.userId, other, sql: sql)
        }
    }

    private static func separate(_ a: String, _ b: String, sql: any SQLDatabase) async throws -> Bool {
        var removed = false
        for q: SQLQueryString in [
            "DELETE FROM friendships WHERE (user_id = \(bind: a) AND friend_id = \(bind: b)) OR (user_id = \(bind: b) AND friend_id = \(bind: a)) RETURNING user_id",
            "DELETE FROM friend_requests WHERE (from_id = \(bind: a) AND to_id = \(bind: b)) OR (from_id = \(bind: b) AND to_id = \(bind: a)) RETURNING from_id",
        ] {
            if try await !sql.raw(q).all().isEmpty { removed = true }
        }
        return removed
    }

    func block(_ me: Principal, _ other: String) async throws {
        try Self.requireAccount(me)
        guard other != me.userId else { throw Problem.badRequest("You cannot block yourself.") }
        let now = now()
        try await store.write { sql in
            try await SocialLocks.lockPair(me.userId, other, sql: sql)
            guard try await !PersonCard.of([other], sql: sql).isEmpty else { throw Problem.notFound("person") }
            _ = try await Self.separate(me.userId, other, sql: sql)
            try await sql.raw("""
                INSERT INTO person_blocks (user_id, blocked_id, created_at) VALUES (\(bind: me.userId), \(bind: other), \(bind: now.millis))
                ON CONFLICT (user_id, blocked_id) DO NOTHING
                """).run()
        }
    }

    func unblock(_ me: Principal, _ other: String) async throws -> Bool {
        try Self.requireAccount(me)
        return try await store.write { sql in
            try await !sql.raw("DELETE FROM person_blocks WHERE user_id = \(bind: me.userId) AND blocked_id = \(bind: other) RETURNING user_id").all().isEmpty
        }
    }
}
