import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK bookings and wallet against a live server (PRK-12, PRK-13)")
struct ClientBookingTests {
    /// Tomorrow at `hour`:00 on the demo campus.
    static func tomorrow(_ hour: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        let day = calendar.date(byAdding: .day, value: 1, to: Date())!
        return calendar.date(bySettingHour: hour, minute: 0, second: 0, of: day)!
    }

    @Test("PRK-12 PRK-13 a member tops up, quotes, books a demo lot, retries safely, changes and cancels it; a guest is told to register")
    func bookThroughTheSDK() async throws {
        try await LiveServer.with(configure: { $0.passwordHashCost = 4; $0.demoPayments = true }) { server in
            let member = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await member.register(username: "sdk_booker", password: "Str0ng!pass")
            let lots = try await member.lots(siteId: server.siteId)
            let nutwood = try #require(lots.first { $0.code == "NPS" })
            let offer = try #require(nutwood.booking, "the Nutwood structure takes bookings")
            #expect(offer.tariff.currency == "USD")
            #expect(lots.contains { $0.booking == nil }, "not every demo lot does")

            let start = Self.tomorrow(10), end = Self.tomorrow(12)
            // $3.00 covers the first two hours.
            let quote = try await member.quoteBooking(lotId: nutwood.id, start: start, end: end)
            #expect(quote.total?.minorUnits == 300)
            #expect(quote.bookable)
            #expect(quote.available)

            await #expect(throws: WaymarkClientError.self) { try await member.book(lotId: nutwood.id, start: start, end: end) }
            let topUpKey = UUID().uuidString
            let first = try await member.topUp(amountMinor: 2000, idempotencyKey: topUpKey)
            let retried = try await member.topUp(amountMinor: 2000, idempotencyKey: topUpKey)
            #expect(first.line.transactionId == retried.line.transactionId)
            #expect(try await member.wallet().balances.map(\.minorUnits) == [2000])

            let key = UUID().uuidString
            let booking = try await member.book(lotId: nutwood.id, start: start, end: end, idempotencyKey: key)
            let again = try await member.book(lotId: nutwood.id, start: start, end: end, idempotencyKey: key)
            #expect(again.id == booking.id)
            #expect(booking.paid.minorUnits == 300)
            #expect(try await member.wallet().balances.first?.minorUnits == 1700)

            let longer = try await member.modifyBooking(id: booking.id, start: start, end: Self.tomorrow(13))
            #expect(longer.paid.minorUnits == 300 + 60 * 4)
            #expect(longer.modifications == 1)
            do {
                try await member.checkIn(bookingId: booking.id)
                Issue.record("check-in opens 15 minutes before the start")
            } catch let error as WaymarkClientError {
                #expect(error.problemKind == "check-in-not-open")
            }
            let cancelled = try await member.cancelBooking(id: booking.id)
            #expect(cancelled.state == .cancelled)
            #expect(try await member.bookings().map(\.id) == [booking.id])
            let history = try await member.walletHistory()
            #expect(history.map(\.movement) == [.cancellationRefund, .modificationSettlement, .bookingPayment, .topUp])
            #expect(history.map(\.balanceAfter.minorUnits) == [2000, 1460, 1700, 2000])

            let guest = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await guest.ensureDeviceIdentity()
            do {
                _ = try await guest.wallet()
                Issue.record("a guest has no wallet")
            } catch let error as WaymarkClientError {
                #expect(error.status == 403)
                #expect(error.problemKind == "account-required")
            }
        }
    }
}
