import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func createDevice(_ input: Operations.CreateDevice.Input) async throws -> Operations.CreateDevice.Output {
        let signedIn = try await services.accounts.identities.createDevice(address: RequestContext.clientAddress)
        return .created(.init(body: .json(AccountMapping.session(signedIn))))
    }

    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let signedIn = try await services.accounts.identities.register(
            .init(username: body.username, password: body.password, email: body.email,
                  firstName: body.firstName, lastName: body.lastName, units: body.units.map(AccountMapping.units)),
            device: RequestContext.principal, address: RequestContext.clientAddress)
        return .created(.init(body: .json(AccountMapping.session(signedIn))))
    }

    func signIn(_ input: Operations.SignIn.Input) async throws -> Operations.SignIn.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let signedIn = try await services.accounts.identities.signIn(
            username: body.username, password: body.password,
            device: RequestContext.principal, address: RequestContext.clientAddress)
        return .ok(.init(body: .json(AccountMapping.session(signedIn))))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.accounts.sessions.revoke(tokenHash: me.tokenHash)
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(AccountMapping.me(try await services.accounts.identities.require(me.userId)))))
    }

    func exportMyData(_ input: Operations.ExportMyData.Input) async throws -> Operations.ExportMyData.Output {
        let me = try RequestContext.requirePrincipal()
        let now = services.now()
        let rows = try await PersonalExport.rows(userId: me.userId, sql: services.store.sql)
        typealias Row = Components.Schemas.PersonalDataExport.TablesPayload.AdditionalPropertiesPayloadPayload
        var tables: [String: [Row]] = [:]
        for (table, list) in rows {
            var objects: [Row] = []
            for row in list { objects.append(Row(additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: row))) }
            tables[table] = objects
        }
        let body = Components.Schemas.PersonalDataExport(
            exportedAt: now, userId: me.userId, tables: Components.Schemas.PersonalDataExport.TablesPayload(additionalProperties: tables))
        let day = String(ISO8601DateFormatter().string(from: now).prefix(10))
        return .ok(.init(headers: .init(contentDisposition: "attachment; filename=\"waymark-data-\(day).json\""), body: .json(body)))
    }

    func updateProfile(_ input: Operations.UpdateProfile.Input) async throws -> Operations.UpdateProfile.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let user = try await services.accounts.profiles.update(me, .init(
            email: body.email, firstName: body.firstName, lastName: body.lastName, about: body.about,
            pictureURL: body.pictureURL, units: body.units.map(AccountMapping.units)))
        return .ok(.init(body: .json(AccountMapping.me(user))))
    }

    func changeUsername(_ input: Operations.ChangeUsername.Input) async throws -> Operations.ChangeUsername.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let user = try await services.accounts.identities.changeUsername(me, currentPassword: body.currentPassword, newUsername: body.newUsername)
        return .ok(.init(body: .json(AccountMapping.me(user))))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let signedIn = try await services.accounts.identities.changePassword(me, currentPassword: body.currentPassword, newPassword: body.newPassword)
        return .ok(.init(body: .json(AccountMapping.session(signedIn))))
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        // Checked for guests too, who need no password: a malformed request is refused alike.
        if let password = body.password, password.unicodeScalars.count > PasswordPolicy.maximumLength {
            throw Problem.badRequest("password is at most \(PasswordPolicy.maximumLength) characters.")
        }
        try await services.accounts.identities.delete(me, password: body.password)
        return .noContent(.init())
    }

    func uploadPicture(_ input: Operations.UploadPicture.Input) async throws -> Operations.UploadPicture.Output {
        let me = try RequestContext.requirePrincipal()
        let (kind, body): (PictureRules.Kind, HTTPBody) = switch input.body {
        case .png(let b): (.png, b)
        case .jpeg(let b): (.jpeg, b)
        case .imageWebp(let b): (.webp, b)
        }
        let data: Data
        do {
            data = try await Data(collecting: body, upTo: PictureRules.maximumBytes)
        } catch {
            // The runtime's only error here is a body longer than the limit.
            throw Problem.tooLarge(limit: PictureRules.maximumBytes)
        }
        let user = try await services.accounts.profiles.setPicture(me, kind: kind, data: data)
        return .ok(.init(body: .json(AccountMapping.me(user))))
    }

    func removePicture(_ input: Operations.RemovePicture.Input) async throws -> Operations.RemovePicture.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(AccountMapping.me(try await services.accounts.profiles.removePicture(me)))))
    }

    func getUserPicture(_ input: Operations.GetUserPicture.Input) async throws -> Operations.GetUserPicture.Output {
        let id = input.path.userId
        guard UUID(uuidString: id) != nil, let user = try await services.accounts.queries.user(id: id) else { throw Problem.notFound("user") }
        // Uploaded pictures are addressed with ?v=<time> by `Me.pictureURL`, so they may be cached;
        // the default avatar changes with the name and must be revalidated.
        if let picture = try await services.accounts.queries.picture(userId: id) {
            let headers = Operations.GetUserPicture.Output.Ok.Headers(cacheControl: "private, max-age=86400")
            let body = HTTPBody(picture.bytes)
            switch PictureRules.Kind(rawValue: picture.contentType) {
            case .png: return .ok(.init(headers: headers, body: .png(body)))
            case .jpeg: return .ok(.init(headers: headers, body: .jpeg(body)))
            case .webp: return .ok(.init(headers: headers, body: .imageWebp(body)))
            case nil: throw Problem.internalError
            }
        }
        return .ok(.init(headers: .init(cacheControl: "no-cache"), body: .imageSvgXml(HTTPBody(DefaultAvatar.svg(for: user)))))
    }

    func getPermits(_ input: Operations.GetPermits.Input) async throws -> Operations.GetPermits.Output {
        let me = try RequestContext.requirePrincipal()
        let user = try await services.accounts.identities.require(me.userId)
        return .ok(.init(body: .json(.init(permits: AccountMapping.permits(user.heldPermits)))))
    }

    func setPermits(_ input: Operations.SetPermits.Input) async throws -> Operations.SetPermits.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        var entries: [(siteId: String?, permit: Permit)] = []
        for held in body.permits {
            guard let permit = Permit(rawValue: held.permit) else {
                throw ProfileService.unknownPermit("\"\(held.permit.prefix(40))\" is not a permit code (\(Permit.codeRule)).")
            }
            let siteId = held.siteId?.lowercased()
            guard !entries.contains(where: { $0.siteId == siteId && $0.permit == permit }) else { throw Problem.badRequest("Each permit at most once.") }
            entries.append((siteId, permit))
        }
        let saved = try await services.accounts.profiles.setPermits(me, entries)
        return .ok(.init(body: .json(.init(permits: AccountMapping.permits(saved)))))
    }

    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let seconds = try await services.accounts.passwordResets.request(login: body.login, address: RequestContext.clientAddress)
        return .accepted(.init(body: .json(.init(expiresInSeconds: seconds))))
    }

    func verifyPasswordReset(_ input: Operations.VerifyPasswordReset.Input) async throws -> Operations.VerifyPasswordReset.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let code = body.code
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw Problem.badRequest("The code has 6 digits.")
        }
        let result = try await services.accounts.passwordResets.verify(login: body.login.trimmingCharacters(in: .whitespaces), code: code)
        return .ok(.init(body: .json(.init(resetToken: result.token, expiresAt: result.expiresAt))))
    }

    func completePasswordReset(_ input: Operations.CompletePasswordReset.Input) async throws -> Operations.CompletePasswordReset.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let signedIn = try await services.accounts.passwordResets.complete(token: body.resetToken, newPassword: body.newPassword)
        return .ok(.init(body: .json(AccountMapping.session(signedIn))))
    }
}

/// Between stored rows, core values and API types.
enum AccountMapping {
    static func me(_ u: UserRow) -> Components.Schemas.Me {
        let pictureURL: String
        if let uploaded = u.pictureUpdatedAt {
            pictureURL = "/v1/users/\(u.id)/picture?v=\(uploaded)"
        } else {
            pictureURL = u.pictureUrl ?? "/v1/users/\(u.id)/picture"
        }
        return .init(
            id: u.id, kind: u.userKind == .account ? .account : .device,
            username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName,
            about: u.about, pictureURL: pictureURL, hasPicture: u.pictureUpdatedAt != nil || u.pictureUrl != nil,
            units: units(u.unitPreferences), permits: permits(u.heldPermits),
            createdAt: Date(millis: u.createdAt), isOperator: u.isOperator != 0)
    }

    static func session(_ s: AccountService.SignedIn) -> Components.Schemas.Session {
        .init(token: s.session.token, expiresAt: s.session.expiresAt, user: me(s.user))
    }

    /// The placard first, then by site and code.
    static func permits(_ held: HeldPermits) -> [Components.Schemas.HeldPermit] {
        held.entries.map { .init(siteId: $0.siteId, permit: $0.permit.rawValue) }
    }

    static func units(_ u: UnitPreferences) -> Components.Schemas.Units {
        .init(distance: .init(rawValue: u.distance.rawValue)!, temperature: .init(rawValue: u.temperature.rawValue)!,
              elevation: .init(rawValue: u.elevation.rawValue)!)
    }

    static func units(_ u: Components.Schemas.Units) -> UnitPreferences {
        UnitPreferences(distance: .init(rawValue: u.distance.rawValue)!, temperature: .init(rawValue: u.temperature.rawValue)!,
                        elevation: .init(rawValue: u.elevation.rawValue)!)
    }
}
