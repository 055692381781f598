import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK operator analytics against a live server (PRK-17)")
struct ClientOperatorAnalyticsTests {
    @Test("PRK-17 an operator reads the figures through the SDK; a member is refused with operator-required")
    func operatorAnalytics() async throws {
        try await LiveServer.with(configure: { $0.passwordHashCost = 4; $0.demoPayments = true }) { server in
            let operatorClient = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await operatorClient.register(username: "sdk_operator", password: "Str0ng!pass", email: "ops@example.com")
            #expect(try await server.app.grantOperator(login: "ops@example.com"))
            #expect(try await operatorClient.me().isOperator)

            let member = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await member.register(username: "sdk_member", password: "Str0ng!pass")
            #expect(try await !member.me().isOperator)
            _ = try await member.topUp(amountMinor: 2000)
            let nutwood = try #require(try await member.lots(siteId: server.siteId).first { $0.code == "NPS" })
            let start = ClientBookingTests.tomorrow(7), end = ClientBookingTests.tomorrow(8)
            _ = try await member.book(lotId: nutwood.id, start: start, end: end)

            do {
                _ = try await member.operatorAnalytics()
                Issue.record("only operators see the analytics")
            } catch let error as WaymarkClientError {
                #expect(error.status == 403)
                #expect(error.problemKind == "operator-required")
            }

            let figures = try await operatorClient.operatorAnalytics()
            #expect(figures.timeZone == "America/Los_Angeles")
            #expect(figures.days.count == 14)
            let today = try #require(figures.days.last)
            #expect(today.date == figures.to)
            #expect(today.bookingUsers == 1)
            #expect(today.activeUsers == 2, "the member and the operator")
            #expect(today.share == 0.5)
            #expect(figures.modifications.bookings == 1)
            #expect(figures.slowestOperations.contains { $0.operationId == "createBooking" && $0.count == 1 })

            // Tomorrow's 07:00 start is in the peak, and it falls in a range that reaches tomorrow.
            let ahead = try await operatorClient.operatorAnalytics(from: figures.to, to: LocalDay(figures.to)!.adding(days: 1).description)
            #expect(ahead.peak.lots.map(\.code) == ["NPS"])
            #expect(ahead.peak.lots.first?.bookings == 1)

            do {
                _ = try await operatorClient.operatorAnalytics(from: "2026-11-18", to: "2026-11-17")
                Issue.record("a backwards range is refused")
            } catch let error as WaymarkClientError {
                #expect(error.status == 400)
            }
        }
    }
}
