import Foundation
import SQLKit
import WaymarkCore

/// Lot reviews (PRK-14). Stars and text are checked by `ReviewRules`; a person's review is
/// written or edited inside one transaction under their lock, so two devices saving at once
/// leave one review, never a unique-key error.
struct ReviewService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    static let accountRequired = Problem(
        type: "account-required", title: "An account is needed", status: 403,
        detail: "Reviews need an account: register or sign in, so that your review has a name and can be edited from any device.")

    static let reviewDeleted = Problem.conflict(
        "review-deleted", "Your review of this lot was deleted after this write was made, so it was not written again.")

    static func problem(_ error: ReviewError) -> Problem {
        switch error {
        case .starsOutOfRange(let stars):
            Problem(type: "review-stars-invalid", title: "Stars must be 1 to 5", status: 400,
                    detail: "A review gives 1 to 5 stars, not \(stars).")
        case .textTooLong(let length):
            Problem(type: "review-text-too-long", title: "The review is too long", status: 400,
                    detail: "A review has at most \(ReviewRules.maxTextLength) characters; this one has \(length).")
        case .textHasControlCharacters:
            Problem(type: "review-text-invalid", title: "The review has characters that cannot be shown", status: 400,
                    detail: "A review is text: control characters other than line breaks and tabs are not allowed.")
        }
    }

    /// Where a page of newest-first reviews stopped: the last review's edit time and id.
    struct Cursor: Sendable, Equatable {
        var updatedAt: Int64
        var id: String

        init(updatedAt: Int64, id: String) {
            self.updatedAt = updatedAt
            self.id = id
        }

        init(_ text: String) throws {
            let parts = text.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let millis = Int64(parts[0]), millis >= 0, UUID(uuidString: String(parts[1])) != nil else {
                throw Problem.badRequest("cursor is not one this server gave out; start from the first page.")
            }
            self.init(updatedAt: millis, id: String(parts[1]).lowercased())
        }

        var text: String { "\(updatedAt).\(id)" }
    }

    struct Page: Sendable {
        var reviews: [LotReview]
        var next: Cursor?
    }

    private static let select = """
        SELECT r.id, r.lot_id, r.user_id, r.stars, r.text, r.created_at, r.updated_at, COALESCE(u.username, '') AS author
        FROM lot_reviews r JOIN users u ON u.id = r.user_id
        """

    private static func review(_ r: any SQLRow) throws -> LotReview {
        LotReview(
            id: try r.decode(column: "id", as: String.self),
            lotId: try r.decode(column: "lot_id", as: String.self),
            userId: try r.decode(column: "user_id", as: String.self),
            authorName: try r.decode(column: "author", as: String.self),
            stars: try r.decode(column: "stars", as: Int.self),
            text: try r.decode(column: "text", as: String.self),
            createdAt: Date(millis: try r.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(millis: try r.decode(column: "updated_at", as: Int64.self)))
    }

    // MARK: Reads

    /// Every rated lot of the site; a lot missing here has no reviews.
    func summaries(siteId: String) async throws -> [String: RatingSummary] {
        let rows = try await store.sql.raw("""
            SELECT r.lot_id, r.stars, COUNT(*) AS n FROM lot_reviews r JOIN lots l ON l.id = r.lot_id
            WHERE l.site_id = \(bind: siteId) GROUP BY r.lot_id, r.stars
            """).all()
        var out: [String: RatingSummary] = [:]
        for row in rows {
            let lotId = try row.decode(column: "lot_id", as: String.self)
            out[lotId, default: RatingSummary()].add(stars: try row.decode(column: "stars", as: Int.self), count: try row.decode(column: "n", as: Int.self))
        }
        return out
    }

    func summary(lotId: String) async throws -> RatingSummary {
        let rows = try await store.sql.raw("SELECT stars, COUNT(*) AS n FROM lot_reviews WHERE lot_id = \(bind: lotId) GROUP BY stars").all()
        var summary = RatingSummary()
        for row in rows {
            summary.add(stars: try row.decode(column: "stars", as: Int.self), count: try row.decode(column: "n", as: Int.self))
        }
        return summary
    }

    /// Newest first (by last edit), `limit` at a time.
    func page(lotId: String, limit: Int, after cursor: Cursor?) async throws -> Page {
        let rows: [any SQLRow]
        if let cursor {
            rows = try await store.sql.raw("""
                \(unsafeRaw: Self.select) WHERE r.lot_id = \(bind: lotId)
                  AND (r.updated_at < \(bind: cursor.updatedAt) OR (r.updated_at = \(bind: cursor.updatedAt) AND r.id < \(bind: cursor.id)))
                ORDER BY r.updated_at DESC, r.id DESC LIMIT \(bind: limit + 1)
                """).all()
        } else {
            rows = try await store.sql.raw("""
                \(unsafeRaw: Self.select) WHERE r.lot_id = \(bind: lotId) ORDER BY r.updated_at DESC, r.id DESC LIMIT \(bind: limit + 1)
                """).all()
        }
        let reviews = try rows.prefix(limit).map(Self.review)
        let next = rows.count > limit ? reviews.last.map { Cursor(updatedAt: $0.updatedAt.millis, id: $0.id) } : nil
        return Page(reviews: reviews, next: next)
    }

    func review(lotId: String, userId: String) async throws -> LotReview? {
        try await Self.review(lotId: lotId, userId: userId, sql: store.sql)
    }

    private static func review(lotId: String, userId: String, sql: any SQLDatabase) async throws -> LotReview? {
        try await sql.raw("\(unsafeRaw: select) WHERE r.lot_id = \(bind: lotId) AND r.user_id = \(bind: userId)")
            .first().map(review)
    }

    // MARK: Writes

    /// Writes the person's review of the lot or replaces its stars and text. `created` tells
    /// which. The lot must exist (the caller checks it: an unknown lot is 404 before any lock).
    func put(_ principal: Principal, lotId: String, stars: Int, text: String,
             idempotencyKey: String?) async throws -> (review: LotReview, created: Bool) {
        guard principal.kind == .account else { throw Self.accountRequired }
        let checked: (stars: Int, text: String)
        do { checked = try ReviewRules.validated(stars: stars, text: text) } catch { throw Self.problem(error) }
        let userId = principal.userId
        let fingerprint = "\(lotId) \(checked.stars) \(checked.text)"
        let now = now()
        return try await store.write { sql in
            try await AdvisoryLocks.lockUser(userId, sql: sql)
            if let idempotencyKey, try await IdempotencyKeys.result(userId: userId, scope: .review, key: idempotencyKey,
                                                                    fingerprint: fingerprint, sql: sql) != nil {
                guard let current = try await Self.review(lotId: lotId, userId: userId, sql: sql) else { throw Self.reviewDeleted }
                return (current, false)
            }
            let existing = try await Self.review(lotId: lotId, userId: userId, sql: sql)
            let id = existing?.id ?? UUID().uuidString.lowercased()
            if existing != nil {
                try await sql.raw("""
                    UPDATE lot_reviews SET stars = \(bind: checked.stars), text = \(bind: checked.text), updated_at = \(bind: now.millis)
                    WHERE id = \(bind: id)
                    """).run()
            } else {
                try await sql.raw("""
                    INSERT INTO lot_reviews (id, lot_id, user_id, stars, text, created_at, updated_at) VALUES
                    (\(bind: id), \(bind: lotId), \(bind: userId), \(bind: checked.stars), \(bind: checked.text), \(bind: now.millis), \(bind: now.millis))
                    """).run()
            }
            if let idempotencyKey {
                try await IdempotencyKeys.remember(userId: userId, scope: .review, key: idempotencyKey, fingerprint: fingerprint,
                                                   resultId: id, at: now, sql: sql)
            }
            guard let saved = try await Self.review(lotId: lotId, userId: userId, sql: sql) else { throw Problem.internalError }
            return (saved, existing == nil)
        }
    }

    /// Only ever the caller's own review: the statement names their user id.
    func delete(_ principal: Principal, lotId: String) async throws {
        guard principal.kind == .account else { throw Self.accountRequired }
        try await store.write { sql in
            try await sql.raw("DELETE FROM lot_reviews WHERE lot_id = \(bind: lotId) AND user_id = \(bind: principal.userId)").run()
        }
    }
}
