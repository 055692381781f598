import Foundation
import Testing
@testable import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK accounts, permits and schedule against a live server (ACC-1…10, PRK-16)")
struct ClientAccountTests {
    static func fast(_ c: inout WaymarkConfiguration) { c.passwordHashCost = 4 }

    @Test("ACC-7 the SDK sends the session token to exactly the operations the server checks it on")
    func tokenOperationsMatchServer() {
        // Missing one here means the SDK calls a protected operation anonymously and gets 401.
        #expect(SessionMiddleware.withToken == UserAuthMiddleware.required.union(UserAuthMiddleware.optional))
    }

    @Test("ACC-8 a device identity, then registration keeps its permits and schedule; the token lives in the chosen store")
    func deviceToAccount() async throws {
        try await LiveServer.with(configure: Self.fast) { server in
            let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-token-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: tokenFile) }
            let client = WaymarkClient(serverURL: server.url, tokenStore: FileTokenStore(url: tokenFile))
            let device = try await client.ensureDeviceIdentity()
            #expect(device.kind == .device)
            let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(try await client.ensureDeviceIdentity().id == device.id, "an existing session is reused")

            try await client.setPermits(HeldPermits(bySite: [server.siteId: [.green]]))
            let lots = try await client.lots(siteId: server.siteId)
            let block = try await client.addScheduleBlock(weekday: 2, startSlot: 16, endSlot: 20, lotId: lots[0].id)
            #expect(block.lotName == lots[0].name)

            let account = try await client.register(username: "uma", password: "Str0ng!pass", email: "uma@example.com")
            #expect(account.id == device.id)
            #expect(account.kind == .account)
            #expect(try await client.permits() == HeldPermits(bySite: [server.siteId: [.green]]))
            #expect(try await client.schedule().map(\.id) == [block.id])

            // A second client with the same file is the same session (another launch of the app).
            let relaunched = WaymarkClient(serverURL: server.url, tokenStore: FileTokenStore(url: tokenFile))
            #expect(try await relaunched.me().username == "uma")
            try await relaunched.signOut()
            #expect(!relaunched.hasSession)
            await #expect(throws: WaymarkClientError.self) { try await client.me() }
        }
    }

    @Test("ACC-1 ACC-2 ACC-4 ACC-5 problems arrive as typed errors; profile, password change and deletion")
    func accountLifecycle() async throws {
        try await LiveServer.with(configure: Self.fast) { server in
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            do {
                try await client.register(username: "vic", password: "weak")
                Issue.record("a weak password was accepted")
            } catch let error as WaymarkClientError {
                #expect(error.problemKind == "password-policy")
                #expect(error.status == 400)
            }
            try await client.register(username: "vic", password: "Str0ng!pass")
            let other = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            await #expect { try await other.register(username: "VIC", password: "Str0ng!pass") } throws: {
                ($0 as? WaymarkClientError)?.problemKind == "username-taken"
            }
            let updated = try await client.updateProfile(.init(firstName: "Victoria", about: "Evening classes",
                                                               units: .init(distance: .mi, temperature: .f, elevation: .ft)))
            #expect(updated.firstName == "Victoria")
            #expect(updated.units.distance == .mi)
            let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!
            #expect(try await client.uploadPicture(png, type: .png).hasPicture)

            try await client.changePassword(currentPassword: "Str0ng!pass", to: "Diff3rent!pw")
            #expect(try await client.me().username == "vic", "the client continues with the new session")
            await #expect { try await client.deleteAccount(password: "Str0ng!pass") } throws: {
                ($0 as? WaymarkClientError)?.status == 403
            }
            try await client.deleteAccount(password: "Diff3rent!pw")
            #expect(!client.hasSession)
            await #expect { try await other.signIn(username: "vic", password: "Diff3rent!pw") } throws: {
                ($0 as? WaymarkClientError)?.problemKind == "invalid-credentials"
            }
        }
    }

    @Test("PRK-16 schedule through the SDK: overlap refused, lot advice ordered, move and delete")
    func schedule() async throws {
        try await LiveServer.with(configure: Self.fast) { server in
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await client.ensureDeviceIdentity()
            let advice = try await client.lotAdvice(siteId: server.siteId, weekday: 3, startSlot: 16, endSlot: 18)
            #expect(advice.count == 12)
            #expect(advice.last?.advice.level == .red, "with no permits, permit-only lots come last")
            let a = try await client.addScheduleBlock(weekday: 3, startSlot: 16, endSlot: 18, lotId: advice[0].lotId)
            await #expect { _ = try await client.addScheduleBlock(weekday: 3, startSlot: 17, endSlot: 19) } throws: {
                ($0 as? WaymarkClientError)?.problemKind == "schedule-overlap"
            }
            let moved = try await client.updateScheduleBlock(id: a.id, weekday: 4, startSlot: 16, endSlot: 18, lotId: nil)
            #expect(moved.advice.level.rawValue == "none")
            try await client.deleteScheduleBlock(id: a.id)
            #expect(try await client.schedule().isEmpty)
        }
    }
}
