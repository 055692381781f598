import Foundation
import SQLKit
import WaymarkCore

/// Private subscription addresses (PLN-10): a secret in the address is the key, kept only as its
/// SHA-256, one per calendar; making a new one revokes the old. A calendar app asks again as
/// often as the feed says, and is answered "unchanged" from the calendar's row alone.
struct CalendarSubscriptions: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let files: CalendarFiles
    let transit: TransitServices

    static let prefix = "wcal_"
    /// What the feed asks apps to keep to; Google reads it as a hint and polls less often anyway.
    static let refreshMinutes = 60

    struct Subscription: Sendable {
        var active: Bool
        var token: String?
        var includeTravel = false
        var createdAt: Date?
        var fetchedAt: Date?
    }

    enum Feed: Sendable {
        case unchanged(etag: String, lastModified: Date)
        case calendar(text: String, name: String, etag: String, lastModified: Date)
    }

    func subscription(_ principal: Principal, calendarId: String) async throws -> Subscription {
        try await requireCalendar(principal, calendarId, on: store.sql)
        guard let row = try await store.sql.raw("""
            SELECT include_travel, created_at, fetched_at FROM planner_subscriptions WHERE calendar_id = \(bind: calendarId)
            """).first() else { return Subscription(active: false) }
        return Subscription(active: true, includeTravel: try row.decode(column: "include_travel", as: Bool.self),
                            createdAt: Date(millis: try row.decode(column: "created_at", as: Int64.self)),
                            fetchedAt: try row.decode(column: "fetched_at", as: Int64?.self).map(Date.init(millis:)))
    }

    func create(_ principal: Principal, calendarId: String, includeTravel: Bool) async throws -> Subscription {
        let token = Secrets.make(prefix: Self.prefix), now = now()
        try await store.write { sql in
            try await requireCalendar(principal, calendarId, on: sql)
            try await sql.raw("DELETE FROM planner_subscriptions WHERE calendar_id = \(bind: calendarId)").run()
            try await sql.raw("""
                INSERT INTO planner_subscriptions (calendar_id, user_id, token_hash, include_travel, created_at)
                VALUES (\(bind: calendarId), \(bind: principal.userId), \(bind: Secrets.hash(token)), \(bind: includeTravel), \(bind: now.millis))
                """).run()
        }
        return Subscription(active: true, token: token, includeTravel: includeTravel, createdAt: now)
    }

    func delete(_ principal: Principal, calendarId: String) async throws {
        try await store.write { sql in
            try await requireCalendar(principal, calendarId, on: sql)
            try await sql.raw("DELETE FROM planner_subscriptions WHERE calendar_id = \(bind: calendarId)").run()
        }
    }

    /// The feed behind a secret. The validators come from when the calendar last changed (and,
    /// with travel, when preferences, the timetable or the day changed), so "unchanged" costs one
    /// row read.
    func feed(token raw: String, ifNoneMatch: String?, ifModifiedSince: String?) async throws -> Feed {
        let token = raw.hasSuffix(".ics") ? String(raw.dropLast(4)) : raw
        guard token.hasPrefix(Self.prefix), token.count <= 80, let row = try await store.sql.raw("""
            SELECT s.calendar_id, s.user_id, s.include_travel, s.created_at, c.changed_at FROM planner_subscriptions s
            JOIN planner_calendars c ON c.id = s.calendar_id WHERE s.token_hash = \(bind: Secrets.hash(token))
            """).first() else { throw Problem.notFound("calendar feed") }
        let calendarId = try row.decode(column: "calendar_id", as: String.self)
        let userId = try row.decode(column: "user_id", as: String.self)
        let travel = try row.decode(column: "include_travel", as: Bool.self)
        var stamps = [try row.decode(column: "created_at", as: Int64.self), try row.decode(column: "changed_at", as: Int64.self)]
        var version = ""
        if travel {
            let now = now()
            let prefs = try await store.sql.raw("SELECT updated_at FROM planner_preferences WHERE user_id = \(bind: userId)").first()
            stamps.append(try prefs?.decode(column: "updated_at", as: Int64.self) ?? 0)
            // The trips are the coming days': a new day is a new feed, and so is a new timetable.
            stamps.append(DayPlans.midnight(LocalDay(containing: now, timeZone: .gmt), .gmt).millis)
            version = try await transit.store.current().map { "\($0.version)" } ?? ""
        }
        // HTTP dates have whole seconds; the validator must compare equal to what it was sent as.
        let lastModified = Date(timeIntervalSince1970: (Double(stamps.max() ?? 0) / 1000).rounded(.down))
        let etag = "W/\"" + String(Secrets.hash("\(calendarId)|\(travel)|\(stamps)|\(version)").prefix(27)) + "\""
        let fetchedAt = now().millis
        try await store.write { sql in
            try await sql.raw("UPDATE planner_subscriptions SET fetched_at = \(bind: fetchedAt) WHERE calendar_id = \(bind: calendarId)").run()
        }
        // If-None-Match wins over If-Modified-Since when both are sent (RFC 9110, 13.2.2).
        if let ifNoneMatch {
            if ETag.matches(ifNoneMatch, etag) { return .unchanged(etag: etag, lastModified: lastModified) }
        } else if let since = ifModifiedSince.flatMap(HTTPDate.parse), lastModified <= since {
            return .unchanged(etag: etag, lastModified: lastModified)
        }
        let file = try await files.export(userId: userId, calendarId: calendarId, travel: travel, refreshMinutes: Self.refreshMinutes)
        return .calendar(text: file.text, name: file.name, etag: etag, lastModified: lastModified)
    }

    private func requireCalendar(_ principal: Principal, _ calendarId: String, on sql: any SQLDatabase) async throws {
        guard try await sql.raw("""
            SELECT id FROM planner_calendars WHERE id = \(bind: calendarId) AND user_id = \(bind: principal.userId)
            """).first() != nil else { throw Problem.notFound("calendar") }
    }
}
