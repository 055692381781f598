import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Identity changes (ACC-1…8): device identities, registration, sign-in with throttling,
/// username and password changes, erasure. Every change is one transaction.
struct AccountService: Sendable {
    let store: SQLStore
    let queries: AccountQueries
    let hasher: PasswordHasher
    let throttles: Throttles
    /// Every area's data of a person, for erasure and a device's move into an account.
    let personalData: PersonalDataRegistry
    let now: @Sendable () -> Date
    /// New identities per client address and `identityWindow`, to keep one machine from
    /// filling the database with them; registrations count half as many.
    var identityLimit = 60
    static let identityWindow: TimeInterval = 600

    struct SignedIn: Sendable {
        var session: Sessions.Issued
        var user: UserRow
    }

    // MARK: Device identity (ACC-8)

    func createDevice(address: String, units: UnitPreferences = .metric) async throws -> SignedIn {
        let now = now()
        if let until = try await throttles.rateLimited("devices:" + address, limit: identityLimit, window: Self.identityWindow, now: now) {
            throw Problem.tooManyRequests(retryAfter: Int(until.timeIntervalSince(now).rounded(.up)), "Too many new devices from this address; try again later.")
        }
        let id = UUID().uuidString.lowercased()
        let session = try await store.write { sql in
            try await sql.raw("""
                INSERT INTO users (id, kind, units, created_at, updated_at)
                VALUES (\(bind: id), 'device', \(bind: StoredUnits.encode(units)), \(bind: now.millis), \(bind: now.millis))
                """).run()
            return try await Sessions.create(userId: id, kind: .device, now: now, on: sql)
        }
        return SignedIn(session: session, user: try await require(id))
    }

    // MARK: Registration (ACC-1, ACC-2)

    struct Registration: Sendable {
        var username: String
        var password: String
        var email: String?
        var firstName: String?
        var lastName: String?
        var units: UnitPreferences?
    }

    func register(_ r: Registration, device: Principal?, address: String) async throws -> SignedIn {
        if let problem = UsernameRules.problem(r.username) { throw Problem.badRequest(problem) }
        if let problem = PasswordPolicy.explanation(r.password) { throw Problem.passwordPolicy(problem) }
        let email = try ProfileRules.email(r.email)
        let first = try ProfileRules.name(r.firstName, field: "firstName")
        let last = try ProfileRules.name(r.lastName, field: "lastName")
        let now = now()
        if let until = try await throttles.rateLimited("register:" + address, limit: max(1, identityLimit / 2), window: Self.identityWindow, now: now) {
            throw Problem.tooManyRequests(retryAfter: Int(until.timeIntervalSince(now).rounded(.up)), "Too many registrations from this address; try again later.")
        }
        let hash = try await hasher.hash(r.password)
        let usernameKey = UsernameRules.key(r.username)
        let emailKey = email?.lowercased()
        // Only a device identity turns into the account; an account token is simply ignored.
        let deviceId = device?.kind == .device ? device?.userId : nil
        let userId = deviceId ?? UUID().uuidString.lowercased()
        let units = r.units ?? .metric
        let store = self.store
        do {
            let session = try await store.write { sql in
                try await Self.checkUnique(usernameKey: usernameKey, emailKey: emailKey, excluding: userId, on: sql)
                if let deviceId {
                    try await sql.raw("""
                        UPDATE users SET kind = 'account', username = \(bind: r.username), username_key = \(bind: usernameKey),
                            password_hash = \(bind: hash), email = \(bind: email), email_key = \(bind: emailKey),
                            first_name = \(bind: first), last_name = \(bind: last),
                            units = \(bind: StoredUnits.encode(units)), updated_at = \(bind: now.millis)
                        WHERE id = \(bind: deviceId)
                        """).run()
                    try await Sessions.revokeAll(userId: deviceId, on: sql)
                } else {
                    try await sql.raw("""
                        INSERT INTO users (id, kind, username, username_key, password_hash, email, email_key,
                                           first_name, last_name, units, created_at, updated_at)
                        VALUES (\(bind: userId), 'account', \(bind: r.username), \(bind: usernameKey), \(bind: hash),
                                \(bind: email), \(bind: emailKey), \(bind: first), \(bind: last),
                                \(bind: StoredUnits.encode(units)), \(bind: now.millis), \(bind: now.millis))
                        """).run()
                }
                return try await Sessions.create(userId: userId, kind: .account, now: now, on: sql)
            }
            return SignedIn(session: session, user: try await require(userId))
        } catch let problem as Problem {
            throw problem
        } catch {
            // Two registrations raced past the check; the unique index stopped the second.
            try await Self.checkUnique(usernameKey: usernameKey, emailKey: emailKey, excluding: userId, on: store.sql)
            throw error
        }
    }

    static func checkUnique(usernameKey: String?, emailKey: String?, excluding userId: String, on sql: any SQLDatabase) async throws {
        if let usernameKey, try await sql.raw("SELECT id FROM users WHERE username_key = \(bind: usernameKey) AND id <> \(bind: userId)").first() != nil {
            throw Problem.conflict("username-taken", "That username is taken; choose another.")
        }
        if let emailKey, try await sql.raw("SELECT id FROM users WHERE email_key = \(bind: emailKey) AND id <> \(bind: userId)").first() != nil {
            throw Problem.conflict("email-taken", "That email address belongs to another account.")
        }
    }

    // MARK: Sign-in (ACC-3, ACC-6)

    func signIn(username: String, password: String, device: Principal?, address: String) async throws -> SignedIn {
        guard !username.isEmpty, !password.isEmpty else { throw Problem.badRequest("username and password are required.") }
        let now = now()
        let accountKey = Throttles.accountKey(username)
        let addressKey = Throttles.addressKey(address)
        try await checkThrottles(accountKey: accountKey, addressKey: addressKey, now: now)

        let user = try await queries.account(usernameKey: UsernameRules.key(username))
        guard try await hasher.verify(password, against: user?.passwordHash), let user else {
            try await recordFailure(accountKey: accountKey, addressKey: addressKey, now: now)
            throw Problem.invalidCredentials
        }
        try await throttles.clear([accountKey])
        let deviceId = device?.kind == .device ? device?.userId : nil
        let session = try await store.write { sql in
            if let deviceId { try await mergeDevice(deviceId, into: user.id, now: now, on: sql) }
            return try await Sessions.create(userId: user.id, kind: .account, now: now, on: sql)
        }
        return SignedIn(session: session, user: try await require(user.id))
    }

    func checkThrottles(accountKey: String, addressKey: String, now: Date) async throws {
        if let e = try await throttles.entry(addressKey),
           let until = SignInThrottle.addressRetryAt(failures: e.failures, windowStart: e.firstAt, now: now) {
            throw Problem.tooManyRequests(retryAfter: Int(until.timeIntervalSince(now).rounded(.up)),
                                          "Too many failed sign-ins from this address.")
        }
        if let e = try await throttles.entry(accountKey),
           let until = SignInThrottle.accountRetryAt(failures: e.failures, lastFailure: e.lastAt, now: now) {
            throw Problem.tooManyRequests(retryAfter: Int(until.timeIntervalSince(now).rounded(.up)),
                                          "Too many failed sign-ins for this username.")
        }
    }

    func recordFailure(accountKey: String, addressKey: String, now: Date) async throws {
        try await throttles.recordFailure(accountKey, now: now, window: 86_400)
        try await throttles.recordFailure(addressKey, now: now, window: SignInThrottle.addressWindow)
    }

    /// The device's permits move over, and every area's data as the area decides; then the
    /// device identity is erased (ACC-8).
    func mergeDevice(_ deviceId: String, into accountId: String, now: Date, on sql: any SQLDatabase) async throws {
        guard deviceId != accountId else { return }
        let permits = try await sql.raw("SELECT id, permits FROM users WHERE id IN (\(bind: deviceId), \(bind: accountId))").all()
        var union = HeldPermits()
        for row in permits { union.formUnion(HeldPermits(stored: try row.decode(column: "permits", as: String.self))) }
        try await sql.raw("UPDATE users SET permits = \(bind: union.stored) WHERE id = \(bind: accountId)").run()
        for owner in personalData.all {
            try await owner.move(from: deviceId, to: accountId, now: now, sql: sql)
        }
        try await erase(userId: deviceId, now: now, on: sql)
    }

    // MARK: Changes that need the current password (ACC-4)

    func requirePassword(_ password: String?, of user: UserRow) async throws {
        let key = Throttles.accountKey(user.username ?? user.id)
        let now = now()
        if let e = try await throttles.entry(key),
           let until = SignInThrottle.accountRetryAt(failures: e.failures, lastFailure: e.lastAt, now: now) {
            throw Problem.tooManyRequests(retryAfter: Int(until.timeIntervalSince(now).rounded(.up)), "Too many wrong passwords; wait a little.")
        }
        guard let password, try await hasher.verify(password, against: user.passwordHash) else {
            try await throttles.recordFailure(key, now: now, window: 86_400)
            throw Problem.forbidden("The current password is not right.")
        }
    }

    func changeUsername(_ principal: Principal, currentPassword: String, newUsername: String) async throws -> UserRow {
        let user = try await requireAccount(principal)
        if let problem = UsernameRules.problem(newUsername) { throw Problem.badRequest(problem) }
        try await requirePassword(currentPassword, of: user)
        let key = UsernameRules.key(newUsername)
        let now = now()
        try await store.write { sql in
            try await Self.checkUnique(usernameKey: key, emailKey: nil, excluding: user.id, on: sql)
            try await sql.raw("""
                UPDATE users SET username = \(bind: newUsername), username_key = \(bind: key), updated_at = \(bind: now.millis)
                WHERE id = \(bind: user.id)
                """).run()
        }
        return try await require(user.id)
    }

    func changePassword(_ principal: Principal, currentPassword: String, newPassword: String) async throws -> SignedIn {
        let user = try await requireAccount(principal)
        if let problem = PasswordPolicy.explanation(newPassword) { throw Problem.passwordPolicy(problem) }
        try await requirePassword(currentPassword, of: user)
        let hash = try await hasher.hash(newPassword)
        let session = try await setPassword(userId: user.id, hash: hash)
        return SignedIn(session: session, user: try await require(user.id))
    }

    /// Replaces the hash, ends every session and pending reset, and opens one new session.
    func setPassword(userId: String, hash: String) async throws -> Sessions.Issued {
        let now = now()
        return try await store.write { sql in
            try await sql.raw("UPDATE users SET password_hash = \(bind: hash), updated_at = \(bind: now.millis) WHERE id = \(bind: userId)").run()
            try await Sessions.revokeAll(userId: userId, on: sql)
            try await sql.raw("DELETE FROM password_resets WHERE user_id = \(bind: userId)").run()
            return try await Sessions.create(userId: userId, kind: .account, now: now, on: sql)
        }
    }

    // MARK: Erasure (ACC-5)

    func delete(_ principal: Principal, password: String?) async throws {
        guard let user = try await queries.user(id: principal.userId) else { throw Problem.unauthorized }
        if user.userKind == .account { try await requirePassword(password, of: user) }
        let keys = [user.username, user.email].compactMap { $0 }.flatMap { [Throttles.accountKey($0), PasswordResetService.throttleKey($0)] }
        try await store.write { sql in
            try await erase(userId: user.id, now: now(), on: sql)
            for key in keys { try await sql.raw("DELETE FROM throttles WHERE key = \(bind: key)").run() }
        }
    }

    /// Accounts' own tables with a `user_id`; other areas erase theirs first (`PersonalData`).
    /// Foreign keys would cascade, but SQLite enforces them only when asked, so nothing is
    /// left to that.
    static let userTables = [
        "sessions", "user_pictures", "password_resets", "idempotency_keys",
        "user_activity_days", "operators",
    ]

    func erase(userId: String, now: Date, on sql: any SQLDatabase) async throws {
        for owner in personalData.all {
            try await owner.erase(userId: userId, now: now, sql: sql)
        }
        for table in Self.userTables {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
        try await sql.raw("DELETE FROM users WHERE id = \(bind: userId)").run()
    }

    // MARK: Helpers

    func require(_ id: String) async throws -> UserRow {
        guard let user = try await queries.user(id: id) else { throw Problem.unauthorized }
        return user
    }

    func requireAccount(_ principal: Principal) async throws -> UserRow {
        let user = try await require(principal.userId)
        guard user.userKind == .account else {
            throw Problem.forbidden("A device identity has no username or password; register first.")
        }
        return user
    }
}

extension Problem {
    static let invalidCredentials = Problem(
        type: "invalid-credentials", title: "Wrong username or password", status: 401,
        detail: "The username or password is not right.")

    static func passwordPolicy(_ detail: String) -> Problem {
        Problem(type: "password-policy", title: "The password is too weak", status: 400, detail: detail)
    }
}
