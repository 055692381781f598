import Foundation
import SQLKit
import WaymarkCore

/// A user as stored, with whether a picture was uploaded.
struct UserRow: Decodable, Sendable {
    var id: String
    var kind: String
    var username: String?
    var passwordHash: String?
    var email: String?
    var firstName: String?
    var lastName: String?
    var about: String
    var pictureUrl: String?
    var units: String
    var permits: String
    var createdAt: Int64
    var pictureUpdatedAt: Int64?
    var isOperator: Int

    static let select = """
        SELECT u.id, u.kind, u.username, u.password_hash, u.email, u.first_name, u.last_name, u.about,
               u.picture_url, u.units, u.permits, u.created_at, p.updated_at AS picture_updated_at,
               CASE WHEN EXISTS (SELECT 1 FROM operators o WHERE o.user_id = u.id) THEN 1 ELSE 0 END AS is_operator
        FROM users u LEFT JOIN user_pictures p ON p.user_id = u.id
        """

    var userKind: UserKind { UserKind(rawValue: kind) ?? .device }
    var heldPermits: HeldPermits { HeldPermits(stored: permits) }
    var unitPreferences: UnitPreferences { StoredUnits.decode(units) }
}

/// Units as "km,C,m".
enum StoredUnits {
    static func encode(_ u: UnitPreferences) -> String {
        [u.distance.rawValue, u.temperature.rawValue, u.elevation.rawValue].joined(separator: ",")
    }

    static func decode(_ text: String) -> UnitPreferences {
        let p = text.split(separator: ",").map(String.init)
        guard p.count == 3, let d = UnitPreferences.Distance(rawValue: p[0]),
              let t = UnitPreferences.Temperature(rawValue: p[1]), let e = UnitPreferences.Elevation(rawValue: p[2])
        else { return .metric }
        return UnitPreferences(distance: d, temperature: t, elevation: e)
    }
}

/// Read queries of the accounts area.
struct AccountQueries: Sendable {
    let store: SQLStore

    func user(id: String, on sql: (any SQLDatabase)? = nil) async throws -> UserRow? {
        try await (sql ?? store.sql).raw("\(unsafeRaw: UserRow.select) WHERE u.id = \(bind: id)")
            .first(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func account(usernameKey: String) async throws -> UserRow? {
        try await store.sql.raw("\(unsafeRaw: UserRow.select) WHERE u.username_key = \(bind: usernameKey)")
            .first(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    /// By username or email address, regardless of case.
    func account(login: String) async throws -> UserRow? {
        let key = login.lowercased()
        return try await store.sql.raw("""
            \(unsafeRaw: UserRow.select) WHERE u.username_key = \(bind: key) OR u.email_key = \(bind: key)
            ORDER BY CASE WHEN u.username_key = \(bind: key) THEN 0 ELSE 1 END
            """)
            .first(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func picture(userId: String) async throws -> (contentType: String, bytes: Data)? {
        guard let row = try await store.sql.raw("SELECT content_type, bytes FROM user_pictures WHERE user_id = \(bind: userId)").first()
        else { return nil }
        return (try row.decode(column: "content_type", as: String.self), try row.decode(column: "bytes", as: Data.self))
    }
}
