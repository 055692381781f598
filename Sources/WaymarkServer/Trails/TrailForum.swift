import Foundation
import SQLKit
import WaymarkCore

/// A forum post as the thread shows it: who wrote it, when, its text and the pinned point.
struct TrailForumPostRow: Sendable {
    var id: String
    var trailId: String
    var userId: String
    var authorName: String
    var text: String
    var pin: Coordinate
    var hidden: Bool
    var createdAt: Date
    var updatedAt: Date
}

/// Each trail's community forum (TRL-5): posts pinned to a point near the trail, visible to
/// everyone, newest first; writing needs an account. The device chooses a post's id, so a post
/// written offline and sent again after a lost answer is stored once.
struct TrailForum: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    private static let select: SQLQueryString = """
        SELECT p.id, p.trail_id, p.user_id, p.text, p.latitude, p.longitude, p.hidden, p.created_at, p.updated_at,
               COALESCE(u.username, '') AS author
        FROM trail_forum_posts p JOIN users u ON u.id = p.user_id
        """

    private static func row(_ r: any SQLRow) throws -> TrailForumPostRow {
        TrailForumPostRow(
            id: try r.decode(column: "id", as: String.self), trailId: try r.decode(column: "trail_id", as: String.self),
            userId: try r.decode(column: "user_id", as: String.self), authorName: try r.decode(column: "author", as: String.self),
            text: try r.decode(column: "text", as: String.self),
            pin: Coordinate(latitude: try r.decode(column: "latitude", as: Double.self), longitude: try r.decode(column: "longitude", as: Double.self)),
            hidden: try r.decode(column: "hidden", as: Bool.self),
            createdAt: Date(millis: try r.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(millis: try r.decode(column: "updated_at", as: Int64.self)))
    }

    static func problem(_ v: ForumPostRules.Violation) -> Problem {
        switch v {
        case .textEmpty:
            Problem(type: "post-text-empty", title: "The post is empty", status: 400, detail: "Write what you want others to know about the pinned spot.")
        case .textTooLong(let n):
            Problem(type: "post-text-too-long", title: "The post is too long", status: 400,
                    detail: "A post holds at most \(ForumPostRules.maxTextLength) characters; this one has \(n).")
        case .textHasControlCharacters:
            Problem(type: "post-text-invalid", title: "The post holds characters that cannot be shown", status: 400,
                    detail: "Remove control characters other than line breaks and tabs.")
        case .pinInvalid:
            Problem(type: "post-pin-invalid", title: "The pin is not a place on Earth", status: 400,
                    detail: "Latitude must be within −90…90 and longitude within −180…180.")
        case .pinTooFar(let metres):
            Problem(type: "post-pin-too-far", title: "The pin is too far from the trail", status: 400,
                    detail: "Pins must be within \(Int(ForumPostRules.maxPinDistance / 1000)) km of the trail; this one is \(Int((metres / 1000).rounded())) km away. Post about another trail on its own forum.")
        }
    }

    /// A page of the visible posts, newest first, and how many there are.
    func page(trailId: String, limit: Int, offset: Int) async throws -> (posts: [TrailForumPostRow], total: Int) {
        let posts = try await store.sql.raw("""
            \(Self.select) WHERE p.trail_id = \(bind: trailId) AND NOT p.hidden
            ORDER BY p.created_at DESC, p.id LIMIT \(bind: limit) OFFSET \(bind: offset)
            """).all().map(Self.row)
        let total = try await store.sql.raw("SELECT COUNT(*) AS n FROM trail_forum_posts WHERE trail_id = \(bind: trailId) AND NOT hidden")
            .first()?.decode(column: "n", as: Int.self) ?? 0
        return (posts, total)
    }

    /// Writes the post with the device's id (`created`), or edits the text and pin of the
    /// person's own post with that id. Someone else's id is a conflict, never an edit.
    func put(_ principal: Principal, trail: Trail, postId: String, text: String, pin: Coordinate) async throws -> (post: TrailForumPostRow, created: Bool) {
        guard principal.kind == .account else { throw TrailComments.accountRequired }
        let checked: String
        do { checked = try ForumPostRules.validated(text: text, pin: pin, trail: trail) } catch { throw Self.problem(error) }
        let userId = principal.userId, now = now()
        let created = try await store.write { sql -> Bool in
            let inserted = try await sql.raw("""
                INSERT INTO trail_forum_posts (id, trail_id, user_id, text, latitude, longitude, hidden, created_at, updated_at)
                VALUES (\(bind: postId), \(bind: trail.id), \(bind: userId), \(bind: checked), \(bind: pin.latitude), \(bind: pin.longitude),
                        \(bind: false), \(bind: now.millis), \(bind: now.millis))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """).first() != nil
            if inserted { return true }
            guard let owner = try await sql.raw("SELECT user_id, trail_id FROM trail_forum_posts WHERE id = \(bind: postId)").first(),
                  try owner.decode(column: "user_id", as: String.self) == userId,
                  try owner.decode(column: "trail_id", as: String.self) == trail.id else {
                throw Problem.conflict("post-id-taken", "Another post has this id. Choose a new random id (a UUID) for a new post.")
            }
            try await sql.raw("""
                UPDATE trail_forum_posts SET text = \(bind: checked), latitude = \(bind: pin.latitude), longitude = \(bind: pin.longitude),
                    updated_at = \(bind: now.millis)
                WHERE id = \(bind: postId) AND user_id = \(bind: userId)
                """).run()
            return false
        }
        guard let saved = try await store.sql.raw("\(Self.select) WHERE p.id = \(bind: postId)").first().map(Self.row) else { throw Problem.internalError }
        return (saved, created)
    }

    /// Only ever the caller's own post: the statement names their user id.
    func deleteMine(_ principal: Principal, trailId: String, postId: String) async throws {
        try await store.write { sql in
            try await sql.raw("""
                DELETE FROM trail_forum_posts WHERE id = \(bind: postId) AND trail_id = \(bind: trailId) AND user_id = \(bind: principal.userId)
                """).run()
        }
    }

    func report(_ principal: Principal, postId: String, reason: String) async throws {
        try await TrailModeration.posts.report(principal, id: postId, reason: reason, now: now(), store: store)
    }

    /// The moderation queue's posts: reported or hidden, the most reported first.
    func queue() async throws -> [(post: TrailForumPostRow, trailName: String, reports: Int, reasons: [String])] {
        let moderation = TrailModeration.posts
        let posts = try await store.sql.raw("\(Self.select) WHERE \(moderation.inQueue("p"))").all().map(Self.row)
        let (reasons, names) = try await moderation.reasonsAndTrailNames(store: store)
        let out = posts.map { p in (p, names[p.trailId] ?? "", reasons[p.id]?.count ?? 0, reasons[p.id] ?? []) }
        return out.sorted { ($0.2, $0.0.updatedAt) > ($1.2, $1.0.updatedAt) }
    }

    func moderate(postId: String, action: String) async throws {
        try await TrailModeration.posts.moderate(id: postId, action: action, store: store)
    }
}
