import Foundation
import SQLKit
import WaymarkCore

/// A comment as pages show it: its author's name, stars, text, score and the reader's vote.
struct TrailCommentRow: Sendable {
    var id: String
    var trailId: String
    var userId: String
    var authorName: String
    var stars: Int
    var text: String
    var score: Int
    var hidden: Bool
    var myVote: Int
    var createdAt: Date
    var updatedAt: Date
}

/// Trail comments (TRL-4) and their moderation (TRL-12). Stars and text follow the lot reviews'
/// rules (`ReviewRules`). A comment's score is kept on its row and moved in the transaction that
/// changes a vote, so the highest voted come first without counting votes on every read.
struct TrailComments: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    static let accountRequired = Problem(
        type: "account-required", title: "An account is needed", status: 403,
        detail: "Comments, votes and reports need an account: register or sign in, so that your comment has a name and can be edited from any device.")

    private static func select(viewer: String?) -> SQLQueryString {
        """
        SELECT c.id, c.trail_id, c.user_id, c.stars, c.text, c.score, c.hidden, c.created_at, c.updated_at,
               COALESCE(u.username, '') AS author, COALESCE(v.vote, 0) AS my_vote
        FROM trail_comments c JOIN users u ON u.id = c.user_id
        LEFT JOIN trail_comment_votes v ON v.comment_id = c.id AND v.user_id = \(bind: viewer ?? "")
        """
    }

    private static func row(_ r: any SQLRow) throws -> TrailCommentRow {
        TrailCommentRow(
            id: try r.decode(column: "id", as: String.self), trailId: try r.decode(column: "trail_id", as: String.self),
            userId: try r.decode(column: "user_id", as: String.self), authorName: try r.decode(column: "author", as: String.self),
            stars: try r.decode(column: "stars", as: Int.self), text: try r.decode(column: "text", as: String.self),
            score: try r.decode(column: "score", as: Int.self), hidden: try r.decode(column: "hidden", as: Bool.self),
            myVote: try r.decode(column: "my_vote", as: Int.self),
            createdAt: Date(millis: try r.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(millis: try r.decode(column: "updated_at", as: Int64.self)))
    }

    /// A page of the visible comments but the viewer's own, the highest score first, then the
    /// latest; the viewer's own; the count and mean stars of all visible ones.
    func page(trailId: String, viewer: String?, limit: Int, offset: Int) async throws
        -> (comments: [TrailCommentRow], mine: TrailCommentRow?, total: Int, average: Double?) {
        let sql = store.sql
        let comments = try await sql.raw("""
            \(Self.select(viewer: viewer)) WHERE c.trail_id = \(bind: trailId) AND NOT c.hidden AND c.user_id <> \(bind: viewer ?? "")
            ORDER BY c.score DESC, c.updated_at DESC, c.id LIMIT \(bind: limit) OFFSET \(bind: offset)
            """).all().map(Self.row)
        let mine = try await viewer.asyncMap { v in
            try await sql.raw("\(Self.select(viewer: v)) WHERE c.trail_id = \(bind: trailId) AND c.user_id = \(bind: v)").first().map(Self.row)
        } ?? nil
        let stats = try await sql.raw("""
            SELECT COUNT(*) AS n, AVG(CAST(stars AS DOUBLE PRECISION)) AS mean FROM trail_comments WHERE trail_id = \(bind: trailId) AND NOT hidden
            """).first()
        return (comments, mine, try stats?.decode(column: "n", as: Int.self) ?? 0, try stats?.decode(column: "mean", as: Double?.self))
    }

    func comment(_ id: String, viewer: String?) async throws -> TrailCommentRow? {
        try await store.sql.raw("\(Self.select(viewer: viewer)) WHERE c.id = \(bind: id)").first().map(Self.row)
    }

    /// Writes or edits the person's comment; `created` says which. The trail must exist.
    func put(_ principal: Principal, trailId: String, stars: Int, text: String) async throws -> (comment: TrailCommentRow, created: Bool) {
        guard principal.kind == .account else { throw Self.accountRequired }
        let checked: (stars: Int, text: String)
        do { checked = try ReviewRules.validated(stars: stars, text: text) } catch { throw ReviewService.problem(error) }
        let userId = principal.userId, now = now()
        let created = try await store.write { sql -> Bool in
            // Two devices saving at once leave one comment: the unique key decides, the loser edits.
            let inserted = try await sql.raw("""
                INSERT INTO trail_comments (id, trail_id, user_id, stars, text, score, hidden, created_at, updated_at)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: trailId), \(bind: userId), \(bind: checked.stars), \(bind: checked.text),
                        0, \(bind: false), \(bind: now.millis), \(bind: now.millis))
                ON CONFLICT (trail_id, user_id) DO NOTHING RETURNING id
                """).first() != nil
            if !inserted {
                try await sql.raw("""
                    UPDATE trail_comments SET stars = \(bind: checked.stars), text = \(bind: checked.text), updated_at = \(bind: now.millis)
                    WHERE trail_id = \(bind: trailId) AND user_id = \(bind: userId)
                    """).run()
            }
            return inserted
        }
        guard let saved = try await store.sql.raw("\(Self.select(viewer: userId)) WHERE c.trail_id = \(bind: trailId) AND c.user_id = \(bind: userId)")
            .first().map(Self.row) else { throw Problem.internalError }
        return (saved, created)
    }

    /// Only ever the caller's own comment: the statement names their user id.
    func deleteMine(_ principal: Principal, trailId: String) async throws {
        try await store.write { sql in
            try await sql.raw("DELETE FROM trail_comments WHERE trail_id = \(bind: trailId) AND user_id = \(bind: principal.userId)").run()
        }
    }

    /// Sets the person's vote (+1, -1, 0 to take it back) and moves the score by the difference.
    func vote(_ principal: Principal, commentId: String, vote: Int) async throws -> (score: Int, vote: Int) {
        guard principal.kind == .account else { throw Self.accountRequired }
        return try await store.write { sql in
            guard let c = try await sql.raw("SELECT user_id, hidden FROM trail_comments WHERE id = \(bind: commentId)").first() else {
                throw Problem.notFound("comment")
            }
            guard try c.decode(column: "hidden", as: Bool.self) == false else { throw Problem.notFound("comment") }
            guard try c.decode(column: "user_id", as: String.self) != principal.userId else {
                throw Problem.forbidden("You cannot vote on your own comment.")
            }
            let before = try await sql.raw("""
                SELECT vote FROM trail_comment_votes WHERE comment_id = \(bind: commentId) AND user_id = \(bind: principal.userId)
                """).first()?.decode(column: "vote", as: Int.self) ?? 0
            if vote == 0 {
                try await sql.raw("DELETE FROM trail_comment_votes WHERE comment_id = \(bind: commentId) AND user_id = \(bind: principal.userId)").run()
            } else {
                try await sql.raw("""
                    INSERT INTO trail_comment_votes (comment_id, user_id, vote) VALUES (\(bind: commentId), \(bind: principal.userId), \(bind: vote))
                    ON CONFLICT (comment_id, user_id) DO UPDATE SET vote = excluded.vote
                    """).run()
            }
            let score = try await sql.raw("""
                UPDATE trail_comments SET score = score + \(bind: vote - before) WHERE id = \(bind: commentId) RETURNING score
                """).first()?.decode(column: "score", as: Int.self) ?? 0
            return (score, vote)
        }
    }

    func report(_ principal: Principal, commentId: String, reason: String) async throws {
        try await TrailModeration.comments.report(principal, id: commentId, reason: reason, now: now(), store: store)
    }

    /// The moderation queue: comments with reports or hidden, the most reported first.
    func queue() async throws -> [(comment: TrailCommentRow, trailName: String, reports: Int, reasons: [String])] {
        let moderation = TrailModeration.comments
        let comments = try await store.sql.raw("\(Self.select(viewer: nil)) WHERE \(moderation.inQueue("c"))").all().map(Self.row)
        let (reasons, names) = try await moderation.reasonsAndTrailNames(store: store)
        let out = comments.map { c in (c, names[c.trailId] ?? "", reasons[c.id]?.count ?? 0, reasons[c.id] ?? []) }
        return out.sorted { ($0.2, $0.0.updatedAt) > ($1.2, $1.0.updatedAt) }
    }

    func moderate(commentId: String, action: String) async throws {
        try await TrailModeration.comments.moderate(id: commentId, action: action, store: store)
    }
}

extension Optional {
    func asyncMap<T>(_ f: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let v = self else { return nil }
        return try await f(v)
    }
}
