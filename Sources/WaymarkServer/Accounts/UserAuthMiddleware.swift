import Foundation
import HTTPTypes
import OpenAPIRuntime
import Vapor

/// Who is calling: resolved from the bearer token by `UserAuthMiddleware`.
struct Principal: Sendable, Equatable {
    var userId: String
    var kind: UserKind
    var tokenHash: String
}

enum UserKind: String, Sendable {
    case device, account
}

extension RequestContext {
    @TaskLocal static var principal: Principal?
    /// The client's address as `ClientAddressMiddleware` saw it; "unknown" when there is none.
    @TaskLocal static var clientAddress: String = "unknown"

    static func requirePrincipal() throws -> Principal {
        guard let principal else { throw Problem.unauthorized }
        return principal
    }
}

/// Resolves `Authorization: Bearer <session token>` for the account operations. Operations that
/// require a session get 401 without one; `register` and `signIn` take one optionally (a device
/// identity whose data moves to the account).
struct UserAuthMiddleware: ServerMiddleware {
    static let optional: Set<String> = ["register", "signIn", "listLotReviews"]
    static let required: Set<String> = [
        "signOut", "getMe", "updateProfile", "changeUsername", "changePassword", "deleteAccount",
        "uploadPicture", "removePicture", "getPermits", "setPermits", "getSchedule",
        "createScheduleBlock", "updateScheduleBlock", "deleteScheduleBlock", "getScheduleLotAdvice",
        "createHold", "listHolds", "getHold", "cancelHold", "answerHold",
        "createBooking", "listBookings", "getBooking", "modifyBooking", "cancelBooking", "checkInBooking",
        "getWallet", "getWalletHistory", "topUpWallet", "getOperatorAnalytics",
        "putMyLotReview", "deleteMyLotReview",
        "listNotifications", "markNotificationRead", "markAllNotificationsRead", "deleteNotification", "streamNotifications",
        "listWatches", "watchLot", "unwatchLot",
    ]

    let sessions: Sessions
    let activity: ActivityRecorder
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let address = request.headerFields[ClientAddressMiddleware.field] ?? "unknown"
        let isRequired = Self.required.contains(operationID)
        guard isRequired || Self.optional.contains(operationID) else {
            return try await RequestContext.$clientAddress.withValue(address) { try await next(request, body, metadata) }
        }
        var principal: Principal?
        if let header = request.headerFields[.authorization] {
            guard header.count <= 512, header.lowercased().hasPrefix("bearer ") else { throw Problem.unauthorized }
            let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            // A token that is present but wrong is an error even where none is needed: the
            // client believes it is someone and should learn that it is not.
            guard let found = try await sessions.authenticate(token: token, now: now()) else { throw Problem.unauthorized }
            principal = found
            // PRK-17 counts accounts, the people who could book; a guest cannot.
            if found.kind == .account { await activity.record(userId: found.userId, at: now()) }
        } else if isRequired {
            throw Problem.unauthorized
        }
        return try await RequestContext.$clientAddress.withValue(address) {
            try await RequestContext.$principal.withValue(principal) { try await next(request, body, metadata) }
        }
    }
}

/// Puts the client's address in a header only the server sets, for the OpenAPI layer (which
/// sees no connection). An incoming header of that name is dropped, so clients cannot forge it.
struct ClientAddressMiddleware: AsyncMiddleware {
    static let name = "X-Waymark-Client-Address"
    static let field = HTTPField.Name(name)!
    let trustForwardedFor: Bool

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.headers.remove(name: Self.name)
        var address = request.remoteAddress?.ipAddress ?? "unknown"
        if trustForwardedFor, let forwarded = request.headers.first(name: .xForwardedFor)?
            .split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !forwarded.isEmpty, forwarded.count <= 64 {
            address = forwarded
        }
        request.headers.replaceOrAdd(name: Self.name, value: address)
        return try await next.respond(to: request)
    }
}
