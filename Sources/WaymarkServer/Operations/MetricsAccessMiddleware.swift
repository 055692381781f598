import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// `/metrics` tells request rates, sizes and error counts that help an attacker time an attack:
/// only a scraper with the configured token (`WAYMARK_METRICS_TOKEN`) or an operator's session
/// reads it (QLT-2).
struct MetricsAccessMiddleware: ServerMiddleware {
    let token: String?
    let sessions: Sessions
    let operators: Operators
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "getMetrics" else { return try await next(request, body, metadata) }
        guard let presented = BearerToken.parse(request.headerFields[.authorization]) else { throw Self.refused }
        if let token, !token.isEmpty, Self.same(presented, token) { return try await next(request, body, metadata) }
        guard let principal = try await sessions.authenticate(token: presented, now: now()), principal.kind == .account,
              try await operators.isOperator(principal.userId) else { throw Self.refused }
        return try await next(request, body, metadata)
    }

    /// Compared by digest, so the time taken says nothing about how much of the token was right.
    static func same(_ a: String, _ b: String) -> Bool {
        SHA256.hash(data: Data(a.utf8)) == SHA256.hash(data: Data(b.utf8))
    }

    static let refused = Problem(
        type: "unauthorized", title: "Missing or invalid credentials", status: 401,
        detail: "Metrics are for the server's scraper (`Authorization: Bearer <WAYMARK_METRICS_TOKEN>`) or an operator's session.")
}
