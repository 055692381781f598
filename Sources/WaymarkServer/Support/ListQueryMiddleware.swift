import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Refuses a list parameter given with no value (`?difficulty=`). The generated decoder reads an
/// empty comma-separated list as if the parameter were absent, so the request would quietly mean
/// "any" when the client most likely dropped its values on the way.
struct ListQueryMiddleware: ServerMiddleware {
    /// The contract's `explode: false` array parameters, by operation.
    static let lists: [String: Set<String>] = ["listTrails": ["difficulty", "feature"]]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if let names = Self.lists[operationID], let path = request.path, let q = path.firstIndex(of: "?") {
            for pair in path[path.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                guard names.contains(name) else { continue }
                let value = parts.count > 1 ? String(parts[1]) : ""
                if value.isEmpty {
                    throw Problem.badRequest("\(name) needs at least one value, separated by commas; leave it out to mean any.")
                }
            }
        }
        return try await next(request, body, metadata)
    }
}
