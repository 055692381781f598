import Foundation
import SQLKit

/// How a person appears to others in Friends and Messages: their username, their name as they
/// gave it, and their picture. Nothing else of the account is shown.
struct PersonCard: Sendable, Equatable {
    var id: String
    var username: String
    var name: String
    /// Their uploaded picture, the address they gave, or the default avatar, as `Me` has it.
    var pictureURL: String

    static let columns: SQLQueryString = """
        u.id, u.username, u.first_name, u.last_name, u.picture_url,
        (SELECT p.updated_at FROM user_pictures p WHERE p.user_id = u.id) AS picture_updated_at
        """

    init(_ r: any SQLRow) throws {
        id = try r.decode(column: "id", as: String.self)
        username = try r.decode(column: "username", as: String?.self) ?? ""
        let first = try r.decode(column: "first_name", as: String?.self) ?? ""
        let last = try r.decode(column: "last_name", as: String?.self) ?? ""
        let full = [first, last].filter { !$0.isEmpty }.joined(separator: " ")
        name = full.isEmpty ? username : full
        if let uploaded = try r.decode(column: "picture_updated_at", as: Int64?.self) {
            pictureURL = "/v1/users/\(id)/picture?v=\(uploaded)"
        } else {
            pictureURL = try r.decode(column: "picture_url", as: String?.self) ?? "/v1/users/\(id)/picture"
        }
    }

    /// The cards of these accounts, in the order of `ids`; ids of no account are left out.
    static func of(_ ids: [String], sql: any SQLDatabase) async throws -> [PersonCard] {
        guard !ids.isEmpty else { return [] }
        let list = SQLList(ids.map { SQLBind($0) })
        let cards = try await sql.raw("SELECT \(columns) FROM users u WHERE u.kind = 'account' AND u.id IN (\(list))").all().map(PersonCard.init)
        let byId = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { byId[$0] }
    }
}

/// PostgreSQL advisory locks of the social tables: a pair of people (requests, friendship,
/// blocks) and a thread (its members and messages). A transaction takes a pair's lock before a
/// thread's, never the other way round.
enum SocialLocks {
    static let pairSpace = 0x5759_0010
    static let threadSpace = 0x5759_0011

    static func pairKey(_ a: String, _ b: String) -> String { a < b ? "\(a)|\(b)" : "\(b)|\(a)" }

    static func lockPair(_ a: String, _ b: String, sql: any SQLDatabase) async throws {
        try await AdvisoryLocks.lock(space: pairSpace, id: pairKey(a, b), sql: sql)
    }

    static func lockThread(_ id: String, sql: any SQLDatabase) async throws {
        try await AdvisoryLocks.lock(space: threadSpace, id: id, sql: sql)
    }
}
