import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends the session token with the operations that take one, and nowhere else.
struct SessionMiddleware: ClientMiddleware {
    let store: (any TokenStore)?
    /// Operations where a token is optional or required (see the contract's `security`); each
    /// area lists its own next to its calls.
    static let withToken: Set<String> = accounts.union(parking).union(wayfinding).union(planner).union(trails).union(notifications).union(operations)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if Self.withToken.contains(operationID), let token = store?.load() {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}

/// Turns every 4xx/5xx answer into `WaymarkClientError` before the generated code sees it, so
/// each call handles its success and nothing else.
struct ProblemMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        var data: Data?
        if let responseBody { data = try? await Data(collecting: responseBody, upTo: 64 * 1024) }
        if let data, let problem = try? JSONDecoder().decode(Components.Schemas.Problem.self, from: data) {
            throw WaymarkClientError.from(problem)
        }
        throw WaymarkClientError.unexpectedStatus(response.status.code)
    }
}
