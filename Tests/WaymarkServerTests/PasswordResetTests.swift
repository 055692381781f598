import Foundation
import Testing
import Vapor
@testable import WaymarkServer

@Suite("Forgot password by emailed code (ACC-9)", .serialized)
struct PasswordResetTests {
    static func code(in message: String) -> String? {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 6 && $0.allSatisfy(\.isNumber) }
    }

    @Test("ACC-9 a code by real SMTP, three wrong tries allowed, then a new password under ACC-2", arguments: TestDatabase.available)
    func reset(db: TestDatabase) async throws {
        let smtp = try SMTPTestServer()
        defer { smtp.stop() }
        try await TestApp.with(db, configure: {
            fastHashing(&$0)
            $0.smtp.host = "127.0.0.1"
            $0.smtp.port = smtp.port
            $0.smtp.from = "Waymark <noreply@waymark.test>"
        }) { ctx in
            let account = try await ctx.register("sam", email: "Sam@Example.com")
            let started = try await ctx.call(.POST, "/v1/password-resets", json: ["login": "sam@example.com"])
            #expect(started.status == .accepted)
            #expect(started.json["expiresInSeconds"] as? Int == 900)
            let unknown = try await ctx.call(.POST, "/v1/password-resets", json: ["login": "nobody"])
            #expect(unknown.status == started.status && unknown.body == started.body, "unknown logins get the same answer")

            let mail = try #require(try await smtp.waitForMessages(1).first)
            #expect(mail.contains("To: <Sam@Example.com>"))
            #expect(mail.contains("Subject: Your Waymark password reset code"))
            let code = try #require(Self.code(in: mail))
            let wrong = code == "000000" ? "111111" : "000000"

            for left in [3, 2, 1] {
                let r = try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "sam", "code": wrong])
                #expect(r.problemType == "reset-code-wrong")
                #expect((r.json["detail"] as? String)?.contains("\(left) tr") == true)
            }
            #expect(try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "sam", "code": "12ab56"]).status == .badRequest)
            let verified = try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "sam", "code": code])
            #expect(verified.status == .ok)
            let resetToken = try #require(verified.json["resetToken"] as? String)

            let weak = try await ctx.call(.POST, "/v1/password-resets/complete", json: ["resetToken": resetToken, "newPassword": "weakpass"])
            #expect(weak.problemType == "password-policy")
            let done = try await ctx.call(.POST, "/v1/password-resets/complete", json: ["resetToken": resetToken, "newPassword": "Brand!New9"])
            #expect(done.status == .ok)
            #expect((done.json["user"] as? [String: Any])?["username"] as? String == "sam")
            #expect(try await ctx.call(.GET, "/v1/me", token: account.token).status == .unauthorized, "old sessions ended")
            #expect(try await ctx.signIn("sam").status == .unauthorized)
            #expect(try await ctx.signIn("sam", "Brand!New9").status == .ok)
            let again = try await ctx.call(.POST, "/v1/password-resets/complete", json: ["resetToken": resetToken, "newPassword": "Other!New9"])
            #expect(again.problemType == "reset-token-invalid", "a reset is used once")
            #expect(smtp.messages().count == 1, "no mail for the unknown login")
        }
    }

    @Test("ACC-9 the fourth wrong code ends the attempt; codes expire after 15 minutes", arguments: TestDatabase.available)
    func fourWrongTries(db: TestDatabase) async throws {
        let smtp = try SMTPTestServer()
        defer { smtp.stop() }
        try await TestApp.with(db, configure: {
            fastHashing(&$0)
            $0.smtp.host = "127.0.0.1"
            $0.smtp.port = smtp.port
        }) { ctx in
            _ = try await ctx.register("tia", email: "tia@example.com")
            try await ctx.call(.POST, "/v1/password-resets", json: ["login": "tia"])
            let code = try #require(Self.code(in: try await smtp.waitForMessages(1)[0]))
            let wrong = code == "000000" ? "111111" : "000000"
            var types: [String?] = []
            for _ in 0..<4 { types.append(try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "tia", "code": wrong]).problemType) }
            #expect(types == ["reset-code-wrong", "reset-code-wrong", "reset-code-wrong", "reset-ended"])
            #expect(try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "tia", "code": code]).problemType == "reset-ended",
                    "the right code no longer helps")

            // The same count for a login nobody has, so the answers reveal nothing.
            var unknown: [String?] = []
            for _ in 0..<4 { unknown.append(try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "ghost", "code": wrong]).problemType) }
            #expect(unknown == types)

            try await ctx.call(.POST, "/v1/password-resets", json: ["login": "tia"])
            let second = try #require(Self.code(in: try await smtp.waitForMessages(2)[1]))
            ctx.clock.advance(by: 15 * 60 + 1)
            #expect(try await ctx.call(.POST, "/v1/password-resets/verify", json: ["login": "tia", "code": second]).problemType == "reset-code-wrong")
        }
    }

    @Test("ACC-9 without a mail server resets answer 503, not a silent success")
    func noMailer() async throws {
        try await TestApp.with(.sqlite, configure: fastHashing) { ctx in
            let r = try await ctx.call(.POST, "/v1/password-resets", json: ["login": "anyone"])
            #expect(r.status == .serviceUnavailable)
            #expect(r.headers.contentType?.description.hasPrefix("application/problem+json") == true)
        }
    }
}
