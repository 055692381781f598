import Foundation
import Testing
import Vapor
@testable import WaymarkServer

@Suite("Web app files (PRK-1, QLT-1)")
struct WebAppTests {
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Web").path

    @Test("PRK-1 QLT-1 a browser opening an app screen's address gets the app page; other missing paths and API paths stay 404 problems")
    func appScreens() async throws {
        try await TestApp.with(.sqlite, configure: { $0.webDirectory = Self.web }) { ctx in
            let html: HTTPHeaders = ["Accept": "text/html,application/xhtml+xml"]
            let lot = try await ctx.call(.GET, "/lots/\(UUID().uuidString.lowercased())", headers: html)
            #expect(lot.status == .ok)
            #expect(lot.headers.first(name: .contentType)?.hasPrefix("text/html") == true)
            #expect(String(decoding: lot.body, as: UTF8.self).contains("<html"))
            #expect(try await ctx.call(.GET, "/me/inbox", headers: html).status == .ok)

            let json = try await ctx.call(.GET, "/lots/abc")
            #expect(json.status == .notFound, "not a browser's navigation")
            #expect(json.headers.first(name: .contentType) == "application/problem+json")
            #expect(try await ctx.call(.GET, "/nope.js", headers: html).status == .notFound, "a missing file is missing")
            #expect(try await ctx.call(.GET, "/v1/nope", headers: html).status == .notFound, "API paths never reach the files")
        }
    }

    @Test("ACC-11 the privacy page is served and says that no position is stored unless shared; sign-up and the person's space link to it")
    func privacyPage() async throws {
        try await TestApp.with(.sqlite, configure: { $0.webDirectory = Self.web }) { ctx in
            let page = try await ctx.call(.GET, "/privacy.html", headers: ["Accept": "text/html"])
            #expect(page.status == .ok)
            let text = String(decoding: page.body, as: UTF8.self)
            for claim in ["Your position is not stored", "Download my data", "Delete Account", "How long", "Who sees it"] {
                #expect(text.contains(claim), "\(claim)")
            }
            #expect(try await ctx.call(.GET, "/privacy.css").status == .ok)
        }
        for screen in ["accounts/register.js", "accounts/home.js"] {
            let source = try String(contentsOfFile: Self.web + "/" + screen, encoding: .utf8)
            #expect(source.contains("href: '/privacy.html'"), "\(screen) links to the privacy page")
        }
    }

    @Test("TRL-2 the page's content policy lets images come from a configured plain-http tile server's origin, and from no other plain-http one")
    func tileOrigins() {
        let policy = SecurityHeadersMiddleware(tileTemplates: [
            "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "http://10.1.2.3:8080/aerial/{z}/{x}/{y}.jpg", "http://{s}.tiles.example/{z}/{x}/{y}.png", "",
        ]).pagePolicy
        #expect(policy.contains("img-src 'self' data: blob: https: http://10.1.2.3:8080;"))
        #expect(!policy.contains("tiles.example"), "a host with a placeholder is not guessed")
        #expect(SecurityHeadersMiddleware().pagePolicy.contains("img-src 'self' data: blob: https:;"))
    }

    @Test("PRK-13 the page runs the card processor's form only where card payments are on: its script, frames and API, nothing else from outside")
    func cardProcessorSources() {
        let off = SecurityHeadersMiddleware().pagePolicy
        #expect(off.contains("script-src 'self';") && off.contains("connect-src 'self';") && !off.contains("stripe"))
        let on = SecurityHeadersMiddleware(cardPayments: true).pagePolicy
        #expect(on.contains("script-src 'self' https://js.stripe.com;"))
        #expect(on.contains("connect-src 'self' https://api.stripe.com;"))
        #expect(on.contains("frame-src https://js.stripe.com https://hooks.stripe.com;"))
        #expect(on.contains("frame-ancestors 'none'"))
    }
}
