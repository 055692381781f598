import Foundation
import WaymarkCore

/// What the middlewares learned about the current request, for the handlers below them.
enum RequestContext {
    /// The authenticated gateway of the current request, set by `GatewayAuthMiddleware`.
    @TaskLocal static var gateway: GatewayIdentity?
    /// The person (an account or a device identity) of the current request, set by `UserAuthMiddleware`.
    @TaskLocal static var principal: Principal?
    /// The client's address as `ClientAddressMiddleware` saw it; "unknown" when there is none.
    @TaskLocal static var clientAddress: String = "unknown"
    /// The language the request prefers (`Accept-Language`), for times and words in problems.
    @TaskLocal static var locale: Locale = ParkingWords.defaultLocale

    static func requirePrincipal() throws -> Principal {
        guard let principal else { throw Problem.unauthorized }
        return principal
    }
}

/// Who is calling: resolved from the bearer token by `UserAuthMiddleware`.
struct Principal: Sendable, Equatable {
    var userId: String
    var kind: UserKind
    var tokenHash: String
}

enum UserKind: String, Sendable {
    case device, account
}
