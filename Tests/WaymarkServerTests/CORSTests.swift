import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer

/// Browsers may call the API only from the origins an operator lists (QLT-2, issue 6).
@Suite("Cross-origin requests (QLT-2)")
struct CORSTests {
    static let allowed = "https://app.example.com"

    @Test("QLT-2 a listed origin may read answers and problems and is preflighted for real methods only")
    func listedOrigin() async throws {
        try await TestApp.with(.sqlite, configure: { $0.corsOrigins = ["https://APP.example.com/", "http://localhost:5173"] }) { ctx in
            let t = try ctx.tester
            let ok = try await t.sendRequest(.GET, "/v1/sites", headers: ["Origin": Self.allowed])
            #expect(ok.status == .ok)
            #expect(ok.headers.first(name: .accessControlAllowOrigin) == Self.allowed)
            #expect(ok.headers.first(name: .accessControlExpose)?.contains("Retry-After") == true)
            #expect(ok.headers[.vary].joined(separator: ",").contains("Origin"))
            #expect(ok.headers.first(name: .accessControlAllowCredentials) == nil, "bearer tokens, never cookies")

            // A problem is readable by the page too, so it can show the server's message.
            let missing = try await t.sendRequest(.GET, "/v1/lots/nope", headers: ["Origin": "http://localhost:5173"])
            #expect(missing.status == .notFound)
            #expect(missing.headers.first(name: .accessControlAllowOrigin) == "http://localhost:5173")

            let preflight = try await t.sendRequest(.OPTIONS, "/v1/me/permits", headers: [
                "Origin": Self.allowed, "Access-Control-Request-Method": "PUT",
                "Access-Control-Request-Headers": "authorization, content-type"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers.first(name: .accessControlAllowOrigin) == Self.allowed)
            let methods = preflight.headers.first(name: .accessControlAllowMethods) ?? ""
            #expect(methods.contains("PUT") && methods.contains("GET") && !methods.contains("DELETE"))
            #expect(preflight.headers.first(name: .accessControlAllowHeaders)?.lowercased().contains("authorization") == true)

            // A method the path does not have is not approved.
            let wrong = try await t.sendRequest(.OPTIONS, "/v1/me/permits", headers: [
                "Origin": Self.allowed, "Access-Control-Request-Method": "DELETE"])
            #expect(wrong.headers.first(name: .accessControlAllowOrigin) == nil)
        }
    }

    @Test("QLT-2 any other origin gets no CORS headers and no preflight approval")
    func otherOrigins() async throws {
        try await TestApp.with(.sqlite, configure: { $0.corsOrigins = [Self.allowed] }) { ctx in
            let t = try ctx.tester
            for origin in ["https://evil.example", "https://app.example.com.evil.example", "http://app.example.com", "null"] {
                let res = try await t.sendRequest(.GET, "/v1/sites", headers: ["Origin": origin])
                #expect(res.status == .ok)
                #expect(res.headers.first(name: .accessControlAllowOrigin) == nil, "\(origin)")
                let preflight = try await t.sendRequest(.OPTIONS, "/v1/sites", headers: [
                    "Origin": origin, "Access-Control-Request-Method": "GET"])
                #expect(preflight.headers.first(name: .accessControlAllowOrigin) == nil, "\(origin)")
                #expect(preflight.status.code >= 400)
            }
        }
    }

    @Test("QLT-2 a value that is not an origin stops the server from starting")
    func badConfiguration() async throws {
        for bad in ["*", "app.example.com", "https://app.example.com/path", "ftp://files.example.com"] {
            await #expect(throws: ConfigurationError.self) {
                try await TestApp.with(.sqlite, configure: { $0.corsOrigins = [bad] }) { _ in }
            }
        }
    }
}
