import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

public typealias Me = Components.Schemas.Me

/// Accounts and device identity (ACC-1…10). Calls that open a session store its token in the
/// client's `tokenStore`; signing out and deleting remove it.
extension WaymarkClient {
    /// Whether a token is stored (a device identity or an account).
    public var hasSession: Bool { tokenStore?.load() != nil }

    /// An anonymous device identity (ACC-8), made only if no session exists yet.
    @discardableResult
    public func ensureDeviceIdentity() async throws -> Me {
        if hasSession { return try await me() }
        let output = try await call { try await client.createDevice() }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try keep(created.body.json)
    }

    @discardableResult
    public func register(
        username: String, password: String, email: String? = nil,
        firstName: String? = nil, lastName: String? = nil, units: Components.Schemas.Units? = nil
    ) async throws -> Me {
        let body = Components.Schemas.Registration(username: username, password: password, email: email,
                                                    firstName: firstName, lastName: lastName, units: units)
        let output = try await call { try await client.register(body: .json(body)) }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try keep(created.body.json)
    }

    @discardableResult
    public func signIn(username: String, password: String) async throws -> Me {
        let output = try await call { try await client.signIn(body: .json(.init(username: username, password: password))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try keep(ok.body.json)
    }

    /// Ends the session on the server and forgets the token and the writes still waiting in the
    /// outbox (ACC-3). Both are forgotten even when the server cannot be reached.
    public func signOut() async throws {
        await outbox.removeAll()
        defer { tokenStore?.save(nil) }
        guard hasSession else { return }
        _ = try await call { try await client.signOut() }
    }

    public func me() async throws -> Me {
        let output = try await call { try await client.getMe() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    @discardableResult
    public func updateProfile(_ profile: Components.Schemas.ProfileUpdate) async throws -> Me {
        let output = try await call { try await client.updateProfile(body: .json(profile)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    @discardableResult
    public func changeUsername(currentPassword: String, to newUsername: String) async throws -> Me {
        let output = try await call {
            try await client.changeUsername(body: .json(.init(currentPassword: currentPassword, newUsername: newUsername)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Every other session ends; this client keeps working with the new token.
    @discardableResult
    public func changePassword(currentPassword: String, to newPassword: String) async throws -> Me {
        let output = try await call {
            try await client.changePassword(body: .json(.init(currentPassword: currentPassword, newPassword: newPassword)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try keep(ok.body.json)
    }

    /// Erases the account (ACC-5); an account confirms with its password.
    public func deleteAccount(password: String?) async throws {
        let output = try await call { try await client.deleteAccount(body: .json(.init(password: password))) }
        guard case .noContent = output else { throw Self.unexpected }
        tokenStore?.save(nil)
    }

    public enum PictureType: Sendable { case png, jpeg, webp }

    @discardableResult
    public func uploadPicture(_ data: Data, type: PictureType) async throws -> Me {
        let body: Operations.UploadPicture.Input.Body = switch type {
        case .png: .png(HTTPBody(data))
        case .jpeg: .jpeg(HTTPBody(data))
        case .webp: .imageWebp(HTTPBody(data))
        }
        let output = try await call { try await client.uploadPicture(body: body) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    @discardableResult
    public func removePicture() async throws -> Me {
        let output = try await call { try await client.removePicture() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    // MARK: Permits (PRK-16)

    /// Each site's permits you hold (the codes of its `Site.permits`) and the placard.
    public func permits() async throws -> HeldPermits {
        let output = try await call { try await client.getPermits() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return Self.held(try ok.body.json.permits)
    }

    @discardableResult
    public func setPermits(_ permits: HeldPermits) async throws -> HeldPermits {
        let list = permits.entries.map { Components.Schemas.HeldPermit(siteId: $0.siteId, permit: $0.permit.rawValue) }
        let output = try await call { try await client.setPermits(body: .json(.init(permits: list))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return Self.held(try ok.body.json.permits)
    }

    static func held(_ list: [Components.Schemas.HeldPermit]) -> HeldPermits {
        var held = HeldPermits()
        for entry in list {
            guard let permit = Permit(rawValue: entry.permit) else { continue }
            if let site = entry.siteId { held.bySite[site, default: []].insert(permit) } else if permit == .handicap { held.placard = true }
        }
        return held
    }

    // MARK: Password reset (ACC-9)

    /// Asks for a code by email; the answer is the same whether or not the login exists.
    public func requestPasswordReset(login: String) async throws {
        let output = try await call { try await client.requestPasswordReset(body: .json(.init(login: login))) }
        guard case .accepted = output else { throw Self.unexpected }
    }

    /// Returns the token for `completePasswordReset`. Wrong codes throw a problem of kind
    /// `reset-code-wrong`; the fourth one `reset-ended`.
    public func verifyPasswordReset(login: String, code: String) async throws -> String {
        let output = try await call { try await client.verifyPasswordReset(body: .json(.init(login: login, code: code))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.resetToken
    }

    /// Sets the password and signs in.
    @discardableResult
    public func completePasswordReset(token: String, newPassword: String) async throws -> Me {
        let output = try await call {
            try await client.completePasswordReset(body: .json(.init(resetToken: token, newPassword: newPassword)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try keep(ok.body.json)
    }

    // MARK: Helpers

    func keep(_ session: Components.Schemas.Session) throws -> Me {
        tokenStore?.save(session.token)
        return session.user
    }

    /// Only reachable if the server answers 2xx with a status the contract does not name;
    /// `ProblemMiddleware` turns every 4xx and 5xx into its own error first.
    static var unexpected: WaymarkClientError { .unexpectedStatus(200) }
}
