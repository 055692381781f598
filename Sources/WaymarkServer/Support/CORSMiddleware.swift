import Foundation
import Vapor

/// Lets web apps served from the configured origins (`WAYMARK_CORS_ORIGINS`) call the API from
/// a browser, and nobody else. Waymark's own web app is same-origin and needs none of this.
///
/// Authentication is by bearer token, never by cookie, so credentials are not allowed: a page
/// from another origin can only act as a user whose token it already holds. A request from an
/// origin not on the list gets no CORS headers at all, and its preflight is not answered, so the
/// browser keeps the response from the page.
struct CORSMiddleware: AsyncMiddleware {
    /// Normalised origins (`scheme://host[:port]`, lower case, no trailing slash).
    let origins: Set<String>

    static let allowedHeaders = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, If-None-Match"
    static let exposedHeaders = "Retry-After, Location, ETag"
    static let maxAge = "600"

    init(origins: [String]) {
        self.origins = Set(origins.compactMap(Self.normalise))
    }

    /// nil for a value that is not an origin (a path, a wildcard, an empty string).
    static func normalise(_ origin: String) -> String? {
        var o = origin.trimmingCharacters(in: .whitespaces).lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        guard let url = URL(string: o), let scheme = url.scheme, ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil, url.fragment == nil,
              url.user == nil
        else { return nil }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard !origins.isEmpty, let origin = request.headers.first(name: .origin),
              let normalised = Self.normalise(origin), origins.contains(normalised)
        else {
            let response = try await next.respond(to: request)
            // Caches must not hand an allowed origin's answer to another origin, or the reverse.
            if !origins.isEmpty { response.headers.add(name: .vary, value: "Origin") }
            return response
        }
        if request.method == .OPTIONS, let asked = request.headers.first(name: .accessControlRequestMethod) {
            return preflight(request, origin: origin, asked: asked)
        }
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: .accessControlAllowOrigin, value: origin)
        response.headers.replaceOrAdd(name: .accessControlExpose, value: Self.exposedHeaders)
        response.headers.add(name: .vary, value: "Origin")
        return response
    }

    /// Approves only a method the path really has, so a browser learns of a wrong method before
    /// sending the request, as it would from the 405.
    private func preflight(_ request: Request, origin: String, asked: String) -> Response {
        let methods = MethodNotAllowedMiddleware.allowedMethods(path: request.url.path, routes: request.application.routes.all)
        let response = Response(status: .noContent)
        response.headers.add(name: .vary, value: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        guard methods.contains(asked.uppercased()) else { return response }
        response.headers.replaceOrAdd(name: .accessControlAllowOrigin, value: origin)
        response.headers.replaceOrAdd(name: .accessControlAllowMethods, value: methods.joined(separator: ", "))
        response.headers.replaceOrAdd(name: .accessControlAllowHeaders, value: Self.allowedHeaders)
        response.headers.replaceOrAdd(name: .accessControlMaxAge, value: Self.maxAge)
        return response
    }
}
