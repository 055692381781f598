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
        if isAppScreen(request) {
            // A screen of the app (/lots/…, /bookings/…) opened cold or reloaded: the page is
            // index.html and the app's router shows the screen the address names.
            let page = try await request.fileio.asyncStreamFile(at: directory + "index.html")
            page.headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
            return page
        }
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

    /// A browser's navigation (it accepts HTML) to an address with no file behind it and no
    /// file extension. Anything else that is missing stays a 404.
    private func isAppScreen(_ request: Request) -> Bool {
        let path = request.url.path
        guard path != "/", let last = path.split(separator: "/").last, !last.contains("."),
              request.headers[.accept].contains(where: { $0.contains("text/html") })
        else { return false }
        // A folder of the app's modules may share its name with a screen (/rooms): only a file counts.
        var isFolder: ObjCBool = false
        return !FileManager.default.fileExists(atPath: directory + path.dropFirst(), isDirectory: &isFolder) || isFolder.boolValue
    }
}

/// Headers every response carries. The content security policy allows our own scripts and
/// styles, images from any https origin (tile servers are a setting) and from the configured
/// tile servers' own origins when they are plain http (one on the campus network), and nothing
/// inline.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    let pagePolicy: String

    /// With `cardPayments` the card processor's form may run in the page: its script, its
    /// frames and its API (Stripe's documented sources), and nothing else from outside.
    init(tileTemplates: [String] = [], cardPayments: Bool = false) {
        let plain = tileTemplates.compactMap { Self.httpOrigin($0) }
        let images = (["'self'", "data:", "blob:", "https:"] + Set(plain).sorted()).joined(separator: " ")
        let script = cardPayments ? "'self' https://js.stripe.com" : "'self'"
        let connect = cardPayments ? "'self' https://api.stripe.com" : "'self'"
        let frames = cardPayments ? " frame-src https://js.stripe.com https://hooks.stripe.com;" : ""
        pagePolicy = "default-src 'self'; img-src \(images); connect-src \(connect); style-src 'self'; script-src \(script);\(frames) worker-src 'self'; manifest-src 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    /// `http://host:port` of a plain-http URL template; nil for https or anything else.
    static func httpOrigin(_ template: String) -> String? {
        guard template.lowercased().hasPrefix("http://") else { return nil }
        let rest = template.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // A host with a placeholder ({s}.tiles…) or odd characters is left out rather than guessed.
        guard !authority.isEmpty, authority.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) }) else { return nil }
        return "http://" + authority.lowercased()
    }

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
            headers.replaceOrAdd(name: "Content-Security-Policy", value: pagePolicy)
        }
        response.headers = headers
        return response
    }
}
