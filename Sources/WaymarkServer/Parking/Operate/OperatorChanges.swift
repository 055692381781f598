import Foundation
import SQLKit

/// The record of what operators changed (PRK-1): every change, with who made it and when, in
/// the transaction of the change itself, so a change is never without its record.
enum OperatorChanges {
    enum Action: String, CaseIterable, Sendable {
        case lotSettings, spotClosed, spotOpened, operatorGranted, operatorRevoked, closureAdded, closureLifted
        case gatewayAdded, gatewayRevoked, gatewaySecretReplaced, sitePermits
    }

    struct Change: Sendable {
        var siteId: String
        var lotId: String? = nil
        var userId: String
        /// The account a grant or revocation names.
        var subjectId: String? = nil
        var action: Action
        /// One sentence for the record, e.g. "Changed the price and the hours of Lot A";
        /// `OperatorChanges.subject` stands for the subject's name, filled in when read.
        var summary: String
        var before: String? = nil
        var after: String? = nil
    }

    static let subject = "{subject}"

    struct Listed: Sendable {
        var id: String
        var at: Date
        var lotId: String?
        var lotName: String?
        /// The operator's username or email; nil once their account is erased.
        var by: String?
        var action: Action
        var summary: String
    }

    static func record(_ c: Change, at now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO operator_changes (id, site_id, lot_id, user_id, subject_id, at, action, summary, before, after)
            VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: c.siteId), \(bind: c.lotId), \(bind: c.userId), \(bind: c.subjectId), \(bind: now.millis),
                    \(bind: c.action.rawValue), \(bind: c.summary), \(bind: c.before), \(bind: c.after))
            """).run()
    }

    /// Newest first.
    static func list(siteId: String, limit: Int, sql: any SQLDatabase) async throws -> [Listed] {
        try await sql.raw("""
            SELECT c.id, c.at, c.lot_id, l.name AS lot_name, u.username, u.email, c.action, c.summary,
              t.username AS subject_username, t.email AS subject_email
            FROM operator_changes c LEFT JOIN lots l ON l.id = c.lot_id LEFT JOIN users u ON u.id = c.user_id
              LEFT JOIN users t ON t.id = c.subject_id
            WHERE c.site_id = \(bind: siteId) ORDER BY c.at DESC, c.id LIMIT \(bind: limit)
            """).all().compactMap { row in
            guard let action = Action(rawValue: try row.decode(column: "action", as: String.self)) else { return nil }
            return Listed(id: try row.decode(column: "id", as: String.self), at: Date(millis: try row.decode(column: "at", as: Int64.self)),
                          lotId: try row.decode(column: "lot_id", as: String?.self), lotName: try row.decode(column: "lot_name", as: String?.self),
                          by: try row.decode(column: "username", as: String?.self) ?? row.decode(column: "email", as: String?.self),
                          action: action, summary: try row.decode(column: "summary", as: String.self).replacingOccurrences(
                            of: subject, with: try row.decode(column: "subject_username", as: String?.self)
                                ?? row.decode(column: "subject_email", as: String?.self) ?? "an erased account"))
        }
    }

    /// An erased operator's changes stay, under one random tombstone instead of their id.
    static func erase(userId: String, sql: any SQLDatabase) async throws {
        let tombstone = "erased-" + UUID().uuidString.lowercased()
        try await sql.raw("UPDATE operator_changes SET user_id = \(bind: tombstone) WHERE user_id = \(bind: userId)").run()
        try await sql.raw("UPDATE operator_changes SET subject_id = NULL WHERE subject_id = \(bind: userId)").run()
        try await sql.raw("UPDATE site_operators SET granted_by = NULL WHERE granted_by = \(bind: userId)").run()
        try await sql.raw("DELETE FROM site_operators WHERE user_id = \(bind: userId)").run()
    }
}
