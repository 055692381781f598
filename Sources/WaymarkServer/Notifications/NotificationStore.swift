import Foundation
import SQLKit

/// One notification to be stored for one person (PRK-15).
struct NotificationDraft: Sendable {
    /// In the order a person sees them when choosing what to be told about.
    enum Kind: String, Sendable, CaseIterable {
        case holdAsking = "hold-asking"
        case holdMoved = "hold-moved"
        case holdExpired = "hold-expired"
        case lotAlmostFull = "lot-almost-full"
        case lotFull = "lot-full"
        case spaceFreed = "space-freed"
        case bookingCancelled = "booking-cancelled"
        case planUnreachable = "plan-unreachable"
        case trailSuggestions = "trail-suggestions"
        case friendRequest = "friend-request"
        case friendAccepted = "friend-accepted"
        case message = "thread-message"
        case timeToLeave = "time-to-leave"
    }

    var userId: String
    var kind: Kind
    var title: String
    var body: String
    var lotId: String? = nil
    var bookingId: String? = nil
    var holdId: String? = nil
    /// A day of the person's plan (`YYYY-MM-DD`) the notice is about.
    var planDay: String? = nil
    /// A message thread the notice is about.
    var threadId: String? = nil
    /// A planner event the notice is about (with `planDay`, the occurrence).
    var eventId: String? = nil
    /// The person whose doing it tells of, when it is another person's.
    var fromUserId: String? = nil
}

struct NotificationRow: Sendable {
    var seq: Int64
    var id: String
    var userId: String
    var kind: String
    var title: String
    var body: String
    var lotId: String?
    var bookingId: String?
    var holdId: String?
    var planDay: String?
    var threadId: String?
    var eventId: String?
    var createdAt: Int64
    var readAt: Int64?

    static let columns = "seq, id, user_id, kind, title, body, lot_id, booking_id, hold_id, plan_day, thread_id, event_id, created_at, read_at"

    init(_ r: any SQLRow) throws {
        seq = try r.decode(column: "seq", as: Int64.self)
        id = try r.decode(column: "id", as: String.self)
        userId = try r.decode(column: "user_id", as: String.self)
        kind = try r.decode(column: "kind", as: String.self)
        title = try r.decode(column: "title", as: String.self)
        body = try r.decode(column: "body", as: String.self)
        lotId = try r.decode(column: "lot_id", as: String?.self)
        bookingId = try r.decode(column: "booking_id", as: String?.self)
        holdId = try r.decode(column: "hold_id", as: String?.self)
        planDay = try r.decode(column: "plan_day", as: String?.self)
        threadId = try r.decode(column: "thread_id", as: String?.self)
        eventId = try r.decode(column: "event_id", as: String?.self)
        createdAt = try r.decode(column: "created_at", as: Int64.self)
        readAt = try r.decode(column: "read_at", as: Int64?.self)
    }
}

/// The SQL of notifications and watches. `insert` also runs inside other writers'
/// transactions (ingest, holds), so that a notification exists exactly when its cause committed.
enum NotificationStore {
    /// An inbox keeps this many, newest first; older ones go when new ones come.
    static let keepPerUser = 200
    /// And nothing older than this (pruned hourly).
    static let maxAge: TimeInterval = 30 * 86_400

    /// PostgreSQL advisory lock key taken by every transaction that adds notifications, so that
    /// sequences commit in order and the live tail never skips one.
    static let appendLockKey: Int64 = 0x5761_796D_4E6F_74 // "WaymNot"

    static func insert(_ drafts: [NotificationDraft], at now: Date, sql: any SQLDatabase) async throws {
        guard !drafts.isEmpty else { return }
        if sql.dialect.name == "postgresql" { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: appendLockKey))").run() }
        for d in drafts {
            try await sql.raw("""
                INSERT INTO notifications (id, user_id, kind, title, body, lot_id, booking_id, hold_id, plan_day, thread_id, event_id, from_user_id, created_at)
                VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: d.userId), \(bind: d.kind.rawValue), \(bind: d.title),
                        \(bind: d.body), \(bind: d.lotId), \(bind: d.bookingId), \(bind: d.holdId), \(bind: d.planDay), \(bind: d.threadId), \(bind: d.eventId), \(bind: d.fromUserId), \(bind: now.millis))
                """).run()
        }
        for userId in Set(drafts.map(\.userId)) {
            try await sql.raw("""
                DELETE FROM notifications WHERE user_id = \(bind: userId) AND seq <= (
                  SELECT seq FROM notifications WHERE user_id = \(bind: userId) ORDER BY seq DESC LIMIT 1 OFFSET \(unsafeRaw: String(keepPerUser)))
                """).run()
        }
    }

    static func watchers(lotId: String, sql: any SQLDatabase) async throws -> [String] {
        try await sql.raw("SELECT user_id FROM lot_watches WHERE lot_id = \(bind: lotId) ORDER BY user_id").all()
            .map { try $0.decode(column: "user_id", as: String.self) }
    }

    /// Notifications after `seq` in order, for the live tail.
    static func after(_ seq: Int64, userId: String? = nil, limit: Int, sql: any SQLDatabase) async throws -> [NotificationRow] {
        let mine: SQLQueryString = userId.map { "AND user_id = \(bind: $0)" } ?? ""
        return try await sql.raw("""
            SELECT \(unsafeRaw: NotificationRow.columns) FROM notifications WHERE seq > \(bind: seq) \(mine)
            ORDER BY seq LIMIT \(unsafeRaw: String(limit))
            """).all().map(NotificationRow.init)
    }

    static func lastSeq(sql: any SQLDatabase) async throws -> Int64 {
        try await sql.raw("SELECT MAX(seq) AS m FROM notifications").first()?.decode(column: "m", as: Int64?.self) ?? 0
    }

    static func prune(now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM notifications WHERE created_at < \(bind: now.addingTimeInterval(-maxAge).millis)").run()
    }
}
