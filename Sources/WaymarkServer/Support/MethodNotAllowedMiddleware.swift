import Foundation
import Vapor

/// Answers a request for a known path with a method it does not have (say `TRACE /health` or
/// `DELETE /v1/gateway/events`) with `405 Method Not Allowed` and an `Allow` header, as RFC
/// 9110 asks, instead of the router's 404 — a 404 would tell the caller the path is wrong.
struct MethodNotAllowedMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as RouteNotFound {
            let allowed = Self.allowedMethods(path: request.url.path, routes: request.application.routes.all)
            guard !allowed.isEmpty else { throw error }
            let problem = Problem(
                type: "method-not-allowed", title: "Method not allowed", status: 405,
                detail: "\(request.method.rawValue) is not allowed here; use \(allowed.joined(separator: ", ")).")
            let response = ProblemMiddleware.response(for: problem, path: request.url.path)
            response.headers.replaceOrAdd(name: .allow, value: allowed.joined(separator: ", "))
            return response
        }
    }

    /// The methods of the most specific routes whose path matches, plus HEAD wherever GET is
    /// (the router answers HEAD with the GET route). Most specific: `/notifications/read-all`
    /// is its own resource, not `/notifications/{id}` with an id of "read-all", so the methods
    /// of the parameter route are not advertised for it.
    static func allowedMethods(path: String, routes: [Route]) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let matching = routes.filter { matches($0.path, segments) }
        guard let best = matching.map({ specificity($0.path) }).max(by: { $0.lexicographicallyPrecedes($1) }) else { return [] }
        var methods = Set<String>()
        for route in matching where specificity(route.path) == best {
            methods.insert(route.method.rawValue)
            if route.method == .GET { methods.insert(HTTPMethod.HEAD.rawValue) }
        }
        return methods.sorted()
    }

    /// 1 for a constant component, 0 otherwise, in path order: compared lexicographically, as
    /// a router tries constants before parameters at each step.
    private static func specificity(_ pattern: [PathComponent]) -> [Int] {
        pattern.map { if case .constant = $0 { 1 } else { 0 } }
    }

    private static func matches(_ pattern: [PathComponent], _ segments: [String]) -> Bool {
        var i = 0
        for component in pattern {
            switch component {
            case .catchall:
                return i < segments.count
            case .anything, .parameter:
                guard i < segments.count else { return false }
            case .constant(let value):
                guard i < segments.count, segments[i] == value else { return false }
            }
            i += 1
        }
        return i == segments.count
    }
}
