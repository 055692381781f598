import Foundation
import SQLKit

/// Who may read the operator analytics (PRK-17). Granted and revoked from the command line only:
/// no API operation can make an operator, so a stolen session cannot promote itself.
struct Operators: Sendable {
    let store: SQLStore
    let queries: AccountQueries

    struct Listing: Sendable {
        var userId: String
        var username: String?
        var email: String?
        var grantedAt: Date
    }

    static let required = Problem(
        type: "operator-required", title: "Operators only", status: 403,
        detail: "Only an operator of this Waymark may do this; whoever runs it grants that with `waymark operator grant`.")

    func isOperator(_ userId: String) async throws -> Bool {
        try await store.sql.raw("SELECT user_id FROM operators WHERE user_id = \(bind: userId)").first() != nil
    }

    func require(_ principal: Principal) async throws {
        guard principal.kind == .account, try await isOperator(principal.userId) else { throw Self.required }
    }

    /// By email address or username. Nil: no such account. Granting twice changes nothing.
    func grant(login: String, now: Date) async throws -> UserRow? {
        guard let user = try await queries.account(login: login), user.userKind == .account else { return nil }
        try await store.write { sql in
            try await sql.raw("""
                INSERT INTO operators (user_id, granted_at) VALUES (\(bind: user.id), \(bind: now.millis))
                ON CONFLICT (user_id) DO NOTHING
                """).run()
        }
        return user
    }

    /// False: no such account, or it was not an operator.
    func revoke(login: String) async throws -> Bool {
        guard let user = try await queries.account(login: login) else { return false }
        return try await store.write { sql in
            let was = try await sql.raw("SELECT user_id FROM operators WHERE user_id = \(bind: user.id)").first() != nil
            try await sql.raw("DELETE FROM operators WHERE user_id = \(bind: user.id)").run()
            return was
        }
    }

    func list() async throws -> [Listing] {
        try await store.sql.raw("""
            SELECT o.user_id, o.granted_at, u.username, u.email FROM operators o JOIN users u ON u.id = o.user_id
            ORDER BY o.granted_at, o.user_id
            """).all().map { row in
            Listing(userId: try row.decode(column: "user_id", as: String.self),
                    username: try row.decode(column: "username", as: String?.self),
                    email: try row.decode(column: "email", as: String?.self),
                    grantedAt: Date(millis: try row.decode(column: "granted_at", as: Int64.self)))
        }
    }
}
