import Foundation
import SQLKit
import SQLiteKit
import WaymarkCore

/// Everything stored about a person, table by table (ACC-12). The tables are listed here, in
/// one place, and a test reads the schema to fail when a table naming a person is missing.
enum PersonalExport {
    /// A table's rows about the person: those where any of `columns` holds their id.
    struct Source: Sendable {
        var table: String
        var columns: [String]
        init(_ table: String, _ columns: String...) { self.table = table; self.columns = columns }
    }

    static let sources: [Source] = [
        .init("users", "id"), .init("sessions", "user_id"), .init("user_pictures", "user_id"),
        .init("password_resets", "user_id"), .init("idempotency_keys", "user_id"), .init("user_activity_days", "user_id"),
        .init("card_payments", "user_id"),
        .init("operators", "user_id"),
        // Parking
        .init("holds", "user_id"), .init("bookings", "user_id"), .init("booking_series", "user_id"), .init("lot_reviews", "user_id"),
        .init("schedule_blocks", "user_id"),
        .init("site_operators", "user_id", "granted_by"), .init("operator_changes", "user_id", "subject_id"),
        // Notifications
        .init("notifications", "user_id"), .init("lot_watches", "user_id"), .init("push_subscriptions", "user_id"),
        .init("push_preferences", "user_id"),
        // Planner
        .init("planner_calendars", "user_id"), .init("planner_events", "user_id"), .init("planner_preferences", "user_id"),
        .init("planner_positions", "user_id"), .init("leave_alerts", "user_id"), .init("planner_subscriptions", "user_id"),
        .init("planner_tickets", "user_id"),
        // Trails
        .init("trail_favourites", "user_id"), .init("trail_suggestions", "user_id"), .init("trail_comments", "user_id"),
        .init("trail_comment_votes", "user_id"), .init("trail_comment_reports", "user_id"), .init("trail_forum_posts", "user_id"),
        .init("trail_forum_reports", "user_id"), .init("hikes", "user_id"), .init("hiker_bodies", "user_id"),
        .init("scavenger_finds", "user_id"),
        // Friends and messages
        .init("friend_requests", "from_id", "to_id"), .init("friendships", "user_id"), .init("person_blocks", "user_id"),
        .init("thread_members", "user_id"), .init("messages", "author_id"), .init("location_shares", "user_id"),
    ]

    /// Secrets that open the account or a push channel: their hashes prove nothing to the
    /// person and would help whoever got hold of the file.
    static let withheld: Set<String> = ["password_hash", "token_hash", "code_hash", "secret_hash", "p256dh", "auth", "client_secret"]

    static func rows(userId: String, sql: any SQLDatabase) async throws -> [String: [[String: (any Sendable)?]]] {
        var tables: [String: [[String: (any Sendable)?]]] = [:]
        for source in sources {
            let match: [SQLQueryString] = source.columns.map { "\(unsafeRaw: $0) = \(bind: userId)" }
            let rows = try await sql.raw("SELECT * FROM \(unsafeRaw: source.table) WHERE \(match.joined(separator: " OR "))").all()
            tables[source.table] = try rows.map(values)
        }
        // The wallet's movements are kept under the wallet's ledger account, not a user column.
        let wallet = LedgerAccount.wallet(userId).key
        tables["ledger_entries"] = try await sql.raw("""
            SELECT e.transaction_id, e.currency, e.amount_minor, t.movement, t.at, t.reference
            FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
            WHERE e.account = \(bind: wallet) ORDER BY t.seq
            """).all().map(values)
        return tables
    }

    /// A row's columns as JSON values, each as stored.
    static func values(_ row: any SQLRow) throws -> [String: (any Sendable)?] {
        var out: [String: (any Sendable)?] = [:]
        for column in row.allColumns where !withheld.contains(column) {
            if let sqlite = row as? SQLiteRow {
                switch sqlite.column(column) {
                case .integer(let i): out[column] = Int(i)
                case .float(let d): out[column] = d
                case .text(let t): out[column] = t
                case .blob(let b): out[column] = Data(buffer: b).base64EncodedString()
                case .null, nil: out[column] = nil as String?
                }
                continue
            }
            // PostgreSQL's types are strict: the first decoding that works is the column's type.
            if try row.decodeNil(column: column) { out[column] = nil as String? }
            else if let i = try? row.decode(column: column, as: Int.self) { out[column] = i }
            else if let d = try? row.decode(column: column, as: Double.self) { out[column] = d }
            else if let b = try? row.decode(column: column, as: Bool.self) { out[column] = b }
            else if let s = try? row.decode(column: column, as: String.self) { out[column] = s }
            else if let d = try? row.decode(column: column, as: Data.self) { out[column] = d.base64EncodedString() }
        }
        return out
    }
}
