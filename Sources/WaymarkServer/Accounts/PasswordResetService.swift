import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Forgot password (ACC-9): a 6-digit code by email, valid 15 minutes; the fourth wrong code
/// ends the attempt. Wrong codes are counted per login whether or not it exists, so the answers
/// never tell which logins are registered.
struct PasswordResetService: Sendable {
    static let validity: TimeInterval = 15 * 60
    static let wrongTriesAllowed = 4
    static let mailLimitPerAddress = (count: 10, window: 600.0)
    static let mailLimitPerLogin = (count: 5, window: 900.0)

    let store: SQLStore
    let queries: AccountQueries
    let accounts: AccountService
    let throttles: Throttles
    let mailer: (any Mailer)?
    let now: @Sendable () -> Date
    let logger: Logger

    static func throttleKey(_ login: String) -> String { "reset:" + login.lowercased() }

    static func codeHash(userId: String, code: String) -> String { Secrets.hash(userId + ":" + code) }

    /// Returns the seconds the code will be valid. The mail is sent after the answer, so the
    /// time taken does not tell whether an account was found.
    func request(login: String, address: String) async throws -> Int {
        guard let mailer else { throw Problem.unavailable("This server cannot send email, so passwords cannot be reset by code. Ask an administrator.") }
        guard !login.isEmpty, login.count <= 254 else { throw Problem.badRequest("login is your username or email address.") }
        // Blank after trimming names no account: the same answer as any unknown login.
        let login = login.trimmingCharacters(in: .whitespaces)
        let now = now()
        for (key, limit) in [("reset-mail:" + address, Self.mailLimitPerAddress), ("reset-mail:" + login.lowercased(), Self.mailLimitPerLogin)] {
            if let until = try await throttles.rateLimited(key, limit: limit.count, window: limit.window, now: now) {
                throw Problem.tooManyRequests(retryAfter: Int(until.timeIntervalSince(now).rounded(.up)), "Too many reset requests; try again later.")
            }
        }
        try await throttles.clear([Self.throttleKey(login)])
        guard let user = try await queries.account(login: login), user.userKind == .account, let email = user.email else {
            logger.info("password reset requested for an unknown login or one without email")
            return Int(Self.validity)
        }
        let code = Secrets.sixDigitCode()
        let expires = now.addingTimeInterval(Self.validity)
        try await store.write { sql in
            try await sql.raw("DELETE FROM password_resets WHERE user_id = \(bind: user.id)").run()
            try await sql.raw("""
                INSERT INTO password_resets (user_id, code_hash, expires_at, created_at)
                VALUES (\(bind: user.id), \(bind: Self.codeHash(userId: user.id, code: code)), \(bind: expires.millis), \(bind: now.millis))
                """).run()
        }
        try await throttles.clear([user.username, user.email].compactMap { $0 }.map(Self.throttleKey))
        let mail = OutgoingMail(
            to: email, subject: "Your Waymark password reset code",
            text: """
                Hello \(user.username ?? ""),

                your code to reset your Waymark password is:

                    \(code)

                It is valid for 15 minutes. If you did not ask for it, ignore this email:
                your password stays as it is.
                """)
        let logger = self.logger
        let userId = user.id
        Task {
            do {
                try await mailer.send(mail)
                logger.info("password reset code sent", metadata: ["user": .string(userId)])
            } catch {
                logger.error("password reset mail failed", metadata: ["user": .string(userId), "error": .string("\(error)")])
            }
        }
        return Int(Self.validity)
    }

    func verify(login: String, code: String) async throws -> (token: String, expiresAt: Date) {
        let now = now()
        let key = Self.throttleKey(login)
        let user = try await queries.account(login: login)
        if let e = try await throttles.entry(key), e.failures >= Self.wrongTriesAllowed, now.timeIntervalSince(e.firstAt) < Self.validity {
            throw Problem.resetEnded
        }
        if let user, let row = try await store.sql.raw("""
            SELECT code_hash, expires_at FROM password_resets WHERE user_id = \(bind: user.id) AND expires_at > \(bind: now.millis)
            """).first(),
           Secrets.constantTimeEquals(try row.decode(column: "code_hash", as: String.self), Self.codeHash(userId: user.id, code: code)) {
            let token = Secrets.make(prefix: "wmr_")
            let expires = Date(millis: try row.decode(column: "expires_at", as: Int64.self))
            try await store.write { sql in
                try await sql.raw("UPDATE password_resets SET token_hash = \(bind: Secrets.hash(token)) WHERE user_id = \(bind: user.id)").run()
            }
            try await throttles.clear([key])
            return (token, expires)
        }
        let failures = try await throttles.recordFailure(key, now: now, window: Self.validity)
        if failures >= Self.wrongTriesAllowed {
            if let user {
                try await store.write { sql in try await sql.raw("DELETE FROM password_resets WHERE user_id = \(bind: user.id)").run() }
            }
            throw Problem.resetEnded
        }
        let left = Self.wrongTriesAllowed - failures
        throw Problem(type: "reset-code-wrong", title: "Wrong code", status: 401,
                      detail: "The code is not right or has expired. \(left) \(left == 1 ? "try" : "tries") left.")
    }

    func complete(token: String, newPassword: String) async throws -> AccountService.SignedIn {
        // The token is a credential: an unknown one is refused before the password is judged,
        // so nobody learns the policy's verdict without a reset in hand.
        guard (20...128).contains(token.count), let row = try await store.sql.raw("""
            SELECT user_id FROM password_resets WHERE token_hash = \(bind: Secrets.hash(token)) AND expires_at > \(bind: now().millis)
            """).first()
        else {
            throw Problem(type: "reset-token-invalid", title: "The reset has expired", status: 401,
                          detail: "Start again: request a new code.")
        }
        if let problem = PasswordPolicy.explanation(newPassword) { throw Problem.passwordPolicy(problem) }
        let userId = try row.decode(column: "user_id", as: String.self)
        let hash = try await accounts.hasher.hash(newPassword)
        let session = try await accounts.setPassword(userId: userId, hash: hash)
        let user = try await accounts.require(userId)
        try await throttles.clear([user.username].compactMap { $0 }.map(Throttles.accountKey))
        return AccountService.SignedIn(session: session, user: user)
    }
}

extension Problem {
    static let resetEnded = Problem(
        type: "reset-ended", title: "Too many wrong codes", status: 401,
        detail: "Four wrong codes ended this reset. Go back to sign in and request a new code.")
}
