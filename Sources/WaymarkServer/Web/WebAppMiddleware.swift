import Foundation
import Vapor

/// Serves the web app's files (GET/HEAD only) with validators, and `index.html` for `/`. API
/// paths never reach the file system. The service worker is never cached by HTTP, so a new
/// release reaches installed apps on their next start.
struct WebAppMiddleware: AsyncMiddleware {
    let files: FileMiddleware
    let directory: String

    init(directory: String) {
        self.directory = directory.hasSuffix("/") ? directory : directory + "/"
        self.files = FileMiddleware(publicDirectory: self.directory, defaultFile: "index.html")
    }

    static let apiPrefixes = ["/v1/", "/health", "/ready", "/metrics", "/openapi.yaml"]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let path = request.url.path
        guard request.method == .GET || request.method == .HEAD,
              !Self.apiPrefixes.contains(where: { path == $0 || path.hasPrefix($0) })
        else { return try await next.respond(to: request) }
        let response = try await files.respond(to: request, chainingTo: next)
        if response.status == .ok || response.status == .notModified {
            if path.hasSuffix("/sw.js") || path == "/" || path.hasSuffix(".html") || path.hasSuffix(".webmanifest") {
                response.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
            } else {
                response.headers.replaceOrAdd(name: .cacheControl, value: "public, max-age=300, must-revalidate")
            }
            if path.hasSuffix(".webmanifest") {
                response.headers.replaceOrAdd(name: .contentType, value: "application/manifest+json")
            }
        }
        return response
    }
}

/// Headers every response carries. The content security policy allows our own scripts and
/// styles, images from the configured tile server (any https origin, since it is a setting),
/// and nothing inline.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        let h = response.headers
        var headers = h
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        headers.replaceOrAdd(name: "Referrer-Policy", value: "strict-origin-when-cross-origin")
        headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        headers.replaceOrAdd(name: "Permissions-Policy", value: "geolocation=(self), camera=(), microphone=()")
        if headers.first(name: .contentType)?.hasPrefix("image/") == true {
            // Pictures (some uploaded by users, avatars as SVG) are never documents that run code.
            headers.replaceOrAdd(name: "Content-Security-Policy", value: "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        }
        if headers.first(name: .contentType)?.hasPrefix("text/html") == true {
            headers.replaceOrAdd(
                name: "Content-Security-Policy",
                value: "default-src 'self'; img-src 'self' data: blob: https:; connect-src 'self'; style-src 'self'; script-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; frame-ancestors 'none'")
        }
        response.headers = headers
        return response
    }
}
