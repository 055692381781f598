import Foundation
import SQLKit
import WaymarkCore

/// Validation of free-text profile fields at the edge.
enum ProfileRules {
    static func name(_ value: String?, field: String) throws -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        guard value.count <= 64 else { throw Problem.badRequest("\(field) has at most 64 characters.") }
        guard !value.unicodeScalars.contains(where: isControl) else { throw Problem.badRequest("\(field) may not contain control characters.") }
        return value
    }

    static func email(_ value: String?) throws -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        guard EmailRules.isPlausible(value) else { throw Problem.badRequest("email is not a valid address.") }
        return value
    }

    /// ACC-10: at most 300 characters; line breaks allowed, other control characters not.
    static func about(_ value: String?) throws -> String {
        let value = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard value.count <= 300 else { throw Problem.badRequest("about has at most 300 characters (it has \(value.count)).") }
        guard !value.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" }) else {
            throw Problem.badRequest("about may not contain control characters.")
        }
        return value
    }

    static func pictureURL(_ value: String?) throws -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        guard value.count <= 2048, !value.unicodeScalars.contains(where: { isControl($0) || $0 == " " }),
              let url = URL(string: value), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty
        else { throw Problem.badRequest("pictureURL must be an https:// address.") }
        return value
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7f...0x9f).contains(s.value) }
}

/// Pictures (ACC-10): the first bytes must say the same as the content type.
enum PictureRules {
    static let maximumBytes = 1 << 20

    enum Kind: String, CaseIterable {
        case png = "image/png", jpeg = "image/jpeg", webp = "image/webp"

        func matches(_ data: Data) -> Bool {
            let b = [UInt8](data.prefix(12))
            switch self {
            case .png: return b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            case .jpeg: return b.starts(with: [0xFF, 0xD8, 0xFF])
            case .webp: return b.count == 12 && b[0..<4] == [0x52, 0x49, 0x46, 0x46] && b[8..<12] == [0x57, 0x45, 0x42, 0x50]
            }
        }
    }
}

struct ProfileService: Sendable {
    let store: SQLStore
    let queries: AccountQueries
    let now: @Sendable () -> Date

    struct Update: Sendable {
        var email: String?
        var firstName: String?
        var lastName: String?
        var about: String?
        var pictureURL: String?
        var units: UnitPreferences?
    }

    func update(_ principal: Principal, _ u: Update) async throws -> UserRow {
        let email = try ProfileRules.email(u.email)
        let first = try ProfileRules.name(u.firstName, field: "firstName")
        let last = try ProfileRules.name(u.lastName, field: "lastName")
        let about = try ProfileRules.about(u.about)
        let picture = try ProfileRules.pictureURL(u.pictureURL)
        guard let user = try await queries.user(id: principal.userId) else { throw Problem.unauthorized }
        if email != nil && user.userKind == .device {
            throw Problem.badRequest("A device identity has no email address; register to add one.")
        }
        let units = u.units ?? user.unitPreferences
        let now = now()
        try await store.write { sql in
            try await AccountService.checkUnique(usernameKey: nil, emailKey: email?.lowercased(), excluding: user.id, on: sql)
            try await sql.raw("""
                UPDATE users SET email = \(bind: email), email_key = \(bind: email?.lowercased()),
                    first_name = \(bind: first), last_name = \(bind: last), about = \(bind: about),
                    picture_url = \(bind: picture), units = \(bind: StoredUnits.encode(units)), updated_at = \(bind: now.millis)
                WHERE id = \(bind: user.id)
                """).run()
        }
        return try await require(user.id)
    }

    /// Replaces every permit the person holds; each must be one its site issues (or the placard).
    func setPermits(_ principal: Principal, _ entries: [(siteId: String?, permit: Permit)]) async throws -> HeldPermits {
        var held = HeldPermits()
        var kindsBySite: [String: [PermitKind]] = [:]
        for (siteId, permit) in entries {
            guard let siteId else {
                guard permit == .handicap else {
                    throw Self.unknownPermit("\"\(permit)\" needs the id of the site that issues it; only the disabled placard (\"handicap\") is held without one.")
                }
                held.placard = true
                continue
            }
            if permit == .handicap {
                throw Self.unknownPermit("The disabled placard (\"handicap\") counts on every site: send it without a site id.")
            }
            if kindsBySite[siteId] == nil {
                guard let row = try await ParkingQueries(store: store).site(id: siteId) else {
                    throw Self.unknownPermit("There is no site \(siteId).")
                }
                kindsBySite[siteId] = try row.permitKinds()
            }
            let kinds = kindsBySite[siteId] ?? []
            guard kinds.contains(where: { $0.code == permit }) else {
                let issued = kinds.isEmpty ? "it issues no permits" : "its permits are " + kinds.map { "\"\($0.code)\" (\($0.name))" }.joined(separator: ", ")
                throw Self.unknownPermit("That site does not issue \"\(permit)\"; \(issued).")
            }
            held.bySite[siteId, default: []].insert(permit)
        }
        let now = now(), stored = held.stored
        try await store.write { sql in
            try await sql.raw("""
                UPDATE users SET permits = \(bind: stored), updated_at = \(bind: now.millis)
                WHERE id = \(bind: principal.userId)
                """).run()
        }
        return try await require(principal.userId).heldPermits
    }

    static func unknownPermit(_ detail: String) -> Problem {
        Problem(type: "permit-unknown", title: "That permit is not one a site issues", status: 400, detail: detail)
    }

    func setPicture(_ principal: Principal, kind: PictureRules.Kind, data: Data) async throws -> UserRow {
        guard !data.isEmpty, kind.matches(data) else {
            throw Problem.badRequest("The body is not a \(kind.rawValue) image.")
        }
        let now = now()
        try await store.write { sql in
            try await sql.raw("DELETE FROM user_pictures WHERE user_id = \(bind: principal.userId)").run()
            try await sql.raw("""
                INSERT INTO user_pictures (user_id, content_type, bytes, updated_at)
                VALUES (\(bind: principal.userId), \(bind: kind.rawValue), \(bind: data), \(bind: now.millis))
                """).run()
        }
        return try await require(principal.userId)
    }

    func removePicture(_ principal: Principal) async throws -> UserRow {
        try await store.write { sql in
            try await sql.raw("DELETE FROM user_pictures WHERE user_id = \(bind: principal.userId)").run()
            try await sql.raw("UPDATE users SET picture_url = NULL WHERE id = \(bind: principal.userId)").run()
        }
        return try await require(principal.userId)
    }

    func require(_ id: String) async throws -> UserRow {
        guard let user = try await queries.user(id: id) else { throw Problem.unauthorized }
        return user
    }
}

/// The default avatar: initials on a colour derived from the id, so each person keeps theirs.
enum DefaultAvatar {
    static func svg(for user: UserRow) -> String {
        let source: [String] = [user.firstName, user.lastName].compactMap { $0 }
        var initials = source.compactMap { $0.first(where: { $0.isLetter || $0.isNumber }) }.map { String($0).uppercased() }.joined()
        if initials.isEmpty, let first = user.username?.first(where: { $0.isLetter || $0.isNumber }) { initials = String(first).uppercased() }
        if initials.isEmpty { initials = "?" }
        var h: UInt32 = 2166136261
        for b in user.id.utf8 { h = (h ^ UInt32(b)) &* 16777619 }
        let hue = Int(h % 360)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96" role="img" aria-label="\(XMLText.escaped(initials))">\
            <rect width="96" height="96" rx="48" fill="hsl(\(hue) 45% 42%)"/>\
            <text x="48" y="50" font-family="system-ui, sans-serif" font-size="38" font-weight="600" fill="#fff" text-anchor="middle" dominant-baseline="central">\(XMLText.escaped(initials))</text>\
            </svg>
            """
    }

}
