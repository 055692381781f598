import Foundation
import HTTPTypes
import OpenAPIRuntime
import Vapor
import WaymarkCore

/// Resolves `Authorization: Bearer <session token>` for the account operations. Operations that
/// require a session get 401 without one; `register` and `signIn` take one optionally (a device
/// identity whose data moves to the account).
struct UserAuthMiddleware: ServerMiddleware {
    static let optional: Set<String> = ["register", "signIn", "listLotReviews", "listTrailComments", "listTrailForumPosts"]
    /// Every area's operations that need a signed-in person (each area lists its own).
    static let required: Set<String> = WaymarkServices.signedInOperations

    let sessions: Sessions
    /// Told of each request a signed-in account makes (Operations counts active accounts, PRK-17).
    let accountWasActive: @Sendable (_ userId: String, _ at: Date) async -> Void
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let address = request.headerFields[ClientAddressMiddleware.field] ?? "unknown"
        let locale = ParkingWords.locale(acceptLanguage: request.headerFields[.acceptLanguage]) ?? ParkingWords.defaultLocale
        let isRequired = Self.required.contains(operationID)
        guard isRequired || Self.optional.contains(operationID) else {
            return try await RequestContext.$clientAddress.withValue(address) {
                try await RequestContext.$locale.withValue(locale) { try await next(request, body, metadata) }
            }
        }
        var principal: Principal?
        if let header = request.headerFields[.authorization] {
            guard let token = BearerToken.parse(header) else { throw Problem.unauthorized }
            // A token that is present but wrong is an error even where none is needed: the
            // client believes it is someone and should learn that it is not.
            guard let found = try await sessions.authenticate(token: token, now: now()) else { throw Problem.unauthorized }
            principal = found
            // PRK-17 counts accounts, the people who could book; a guest cannot.
            if found.kind == .account { await accountWasActive(found.userId, now()) }
        } else if isRequired {
            throw Problem.unauthorized
        }
        return try await RequestContext.$clientAddress.withValue(address) {
            try await RequestContext.$locale.withValue(locale) {
                try await RequestContext.$principal.withValue(principal) { try await next(request, body, metadata) }
            }
        }
    }
}
