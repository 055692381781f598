import Foundation
import SQLKit

/// Reports and the operators' decisions on them (TRL-12), the same for trail comments and forum
/// posts: each kind names its table, its reports' table and the column joining them.
struct TrailModeration: Sendable {
    let items: String
    let reports: String
    let key: String
    /// "comment", "post": for the words of problems.
    let noun: String

    static let comments = TrailModeration(items: "trail_comments", reports: "trail_comment_reports", key: "comment_id", noun: "comment")
    static let posts = TrailModeration(items: "trail_forum_posts", reports: "trail_forum_reports", key: "post_id", noun: "post")

    /// One report per person and item; reporting again changes nothing. Not one's own.
    func report(_ principal: Principal, id: String, reason: String, now: Date, store: SQLStore) async throws {
        guard principal.kind == .account else { throw TrailComments.accountRequired }
        try await store.write { sql in
            guard let row = try await sql.raw("SELECT user_id FROM \(unsafeRaw: items) WHERE id = \(bind: id)").first() else {
                throw Problem.notFound(noun)
            }
            guard try row.decode(column: "user_id", as: String.self) != principal.userId else {
                throw Problem.forbidden("You cannot report your own \(noun); edit or delete it instead.")
            }
            try await sql.raw("""
                INSERT INTO \(unsafeRaw: reports) (\(unsafeRaw: key), user_id, reason, created_at)
                VALUES (\(bind: id), \(bind: principal.userId), \(bind: reason), \(bind: now.millis))
                ON CONFLICT (\(unsafeRaw: key), user_id) DO NOTHING
                """).run()
        }
    }

    /// hide: no longer shown, reports kept; restore: shown again, reports cleared; dismiss: reports cleared.
    func moderate(id: String, action: String, store: SQLStore) async throws {
        try await store.write { sql in
            guard try await sql.raw("SELECT id FROM \(unsafeRaw: items) WHERE id = \(bind: id)").first() != nil else { throw Problem.notFound(noun) }
            switch action {
            case "hide": try await sql.raw("UPDATE \(unsafeRaw: items) SET hidden = \(bind: true) WHERE id = \(bind: id)").run()
            case "restore":
                try await sql.raw("UPDATE \(unsafeRaw: items) SET hidden = \(bind: false) WHERE id = \(bind: id)").run()
                try await sql.raw("DELETE FROM \(unsafeRaw: reports) WHERE \(unsafeRaw: key) = \(bind: id)").run()
            default: try await sql.raw("DELETE FROM \(unsafeRaw: reports) WHERE \(unsafeRaw: key) = \(bind: id)").run()
            }
        }
    }

    /// What the queue holds: hidden items and items with open reports (`alias` names the items' table).
    func inQueue(_ alias: String) -> SQLQueryString {
        "(\(unsafeRaw: alias).hidden OR EXISTS (SELECT 1 FROM \(unsafeRaw: reports) r WHERE r.\(unsafeRaw: key) = \(unsafeRaw: alias).id))"
    }

    /// Every open report's reason by item, and the names of the trails of the queued items: two
    /// reads for the whole queue, not two per item.
    func reasonsAndTrailNames(store: SQLStore) async throws -> (reasons: [String: [String]], names: [String: String]) {
        var reasons: [String: [String]] = [:]
        for r in try await store.sql.raw("SELECT \(unsafeRaw: key) AS item, reason FROM \(unsafeRaw: reports) ORDER BY created_at").all() {
            reasons[try r.decode(column: "item", as: String.self), default: []].append(try r.decode(column: "reason", as: String.self))
        }
        let names = try await store.sql.raw("""
            SELECT DISTINCT t.id, t.name FROM trails t JOIN \(unsafeRaw: items) i ON i.trail_id = t.id WHERE \(inQueue("i"))
            """).all().reduce(into: [String: String]()) { $0[try $1.decode(column: "id", as: String.self)] = try $1.decode(column: "name", as: String.self) }
        return (reasons, names)
    }
}
