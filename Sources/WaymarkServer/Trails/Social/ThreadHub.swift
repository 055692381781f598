import Foundation
import Logging
import SQLKit

/// Delivers a thread's changes to its open streams (TRL-8): `thread_events` tailed by a
/// `LogTail`, a topic per thread. A posted or edited message goes out with its text as it is
/// when the tail reads it; a message deleted by then goes out only as deleted.
typealias ThreadHub = LogTail<ThreadLog>

extension ThreadHub {
    static let threadBuffer = 500

    convenience init(store: SQLStore, pollInterval: Duration, logger: Logger) {
        self.init(ThreadLog(store: store), name: "threads", pollInterval: pollInterval, readLimit: 1_000,
                  subscriberBuffer: Self.threadBuffer, logger: logger)
    }
}

struct ThreadEventRow: Sendable {
    var seq: Int64
    var threadId: String
    var kind: String
    var messageId: String?
    var message: MessageRow?
}

struct ThreadLog: TailedLog {
    let store: SQLStore

    func newest() async throws -> Int64 {
        try await store.sql.raw("SELECT MAX(seq) AS m FROM thread_events").first()?.decode(column: "m", as: Int64?.self) ?? 0
    }

    func rows(after: Int64, limit: Int) async throws -> [ThreadEventRow] {
        try await Self.events(after: after, thread: nil, limit: limit, sql: store.sql)
    }

    static func events(after: Int64, thread: String?, limit: Int, sql: any SQLDatabase) async throws -> [ThreadEventRow] {
        let one: SQLQueryString = thread.map { "AND e.thread_id = \(bind: $0)" } ?? ""
        return try await sql.raw("""
            SELECT e.seq, e.thread_id AS event_thread, e.kind, e.message_id AS event_message,
                   m.id AS message_id, m.thread_id, m.text, m.posted_seq, m.created_at AS sent_at, m.edited_at,
                   \(PersonCard.columns)
            FROM thread_events e LEFT JOIN messages m ON m.id = e.message_id LEFT JOIN users u ON u.id = m.author_id
            WHERE e.seq > \(bind: after) \(one) ORDER BY e.seq LIMIT \(bind: limit)
            """).all().map { r in
            let present = try r.decode(column: "message_id", as: String?.self) != nil
            return ThreadEventRow(seq: try r.decode(column: "seq", as: Int64.self), threadId: try r.decode(column: "event_thread", as: String.self),
                                  kind: try r.decode(column: "kind", as: String.self), messageId: try r.decode(column: "event_message", as: String?.self),
                                  message: present ? try MessageRow(r) : nil)
        }
    }

    func lastId(of row: ThreadEventRow) -> Int64 { row.seq }
    func topic(of row: ThreadEventRow) -> String { row.threadId }
    func frames(of row: ThreadEventRow) -> [LiveFrame] { Self.frame(row).map { [LiveFrame(id: row.seq, bytes: $0)] } ?? [] }

    /// `message` (posted or edited, with the message), `message-deleted` ({id}), `members`
    /// (the members changed: read the thread again).
    static func frame(_ row: ThreadEventRow) -> [UInt8]? {
        let event: String, json: String
        switch (row.kind, row.message) {
        case ("posted", let m?), ("edited", let m?):
            event = "message"
            json = (try? LiveEncoding.encode(SocialMapping.message(m))) ?? "{}"
        case ("posted", nil), ("edited", nil), ("deleted", _):
            event = "message-deleted"
            json = (try? LiveEncoding.encode(["id": row.messageId ?? ""])) ?? "{}"
        default:
            event = "members"
            json = "{}"
        }
        return Array("id: \(row.seq)\nevent: \(event)\ndata: \(json)\n\n".utf8)
    }
}
