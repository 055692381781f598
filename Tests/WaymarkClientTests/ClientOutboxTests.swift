import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK outbox: writes made offline are sent once when the server is back (PRK-19)")
struct ClientOutboxTests {
    @Test("PRK-19 bookings and permits made while the server is down wait on disk, then are sent once; a refused one stays with its reason")
    func writesMadeOfflineAreSentOnce() async throws {
        let app = try await OfflineApp.start("outbox") { $0.passwordHashCost = 4; $0.demoPayments = true }
        defer { app.remove() }
        let lotA = try await app.beforeGoingDown {
            let online = app.launch(online: true)
            try await online.register(username: "sdk_offline", password: "Str0ng!pass")
            _ = try await online.topUp(amountMinor: 2000, idempotencyKey: UUID().uuidString)
            return try #require(try await online.lots(siteId: app.server.siteId).first { $0.code == "A" }).id
        }
        let member = app.launch(online: false)

        // Offline: every write is kept, in the order made; a newer permit set replaces the older.
        let day1 = (ClientBookingTests.tomorrow(10), ClientBookingTests.tomorrow(12))
        let day2 = (day1.0.addingTimeInterval(86_400), day1.1.addingTimeInterval(86_400))
        for action in [Outbox.Write.Action.book(lotId: lotA, start: day1.0, end: day1.1),
                       .setPermits(HeldPermits(bySite: [app.server.siteId: [.green]])),
                       .book(lotId: lotA, start: day2.0, end: day2.1),
                       .setPermits(HeldPermits(bySite: [app.server.siteId: [.green, .black]], placard: true))] {
            guard case .queued = try await member.send(action) else {
                Issue.record("\(action) was not queued while the server was down")
                return
            }
        }
        let queued = await member.outbox.writes
        #expect(queued.map(\.action) == [.book(lotId: lotA, start: day1.0, end: day1.1), .book(lotId: lotA, start: day2.0, end: day2.1),
                                          .setPermits(HeldPermits(bySite: [app.server.siteId: [.green, .black]], placard: true))])
        #expect(Set(queued.map(\.id)).count == 3)
        #expect(await member.flushOutbox().isEmpty, "nothing is sent or failed while unreachable")
        #expect(await member.outbox.writes == queued)

        // The queue is on disk: the app restarted offline still has it.
        let restarted = app.launch(online: true)
        #expect(await restarted.outbox.writes == queued)

        // Back online on the same address.
        try await app.whenBack { () async throws in
            let results = await restarted.flushOutbox()
            #expect(results.count == 3)
            guard results.count == 3 else { return }
            guard case .success(.booking(let booked)) = results[0].result else {
                Issue.record("the first booking was not made: \(results[0].result)")
                return
            }
            #expect(booked.paid.minorUnits == 1200)
            guard case .failure(let refused) = results[1].result else {
                Issue.record("the second booking should not fit the wallet")
                return
            }
            #expect(refused.problemKind == "insufficient-funds")
            guard case .success(.permits(let permits)) = results[2].result else {
                Issue.record("permits not sent: \(results[2].result)")
                return
            }
            #expect(permits == HeldPermits(bySite: [app.server.siteId: [.green, .black]], placard: true))

            // Made once: a second flush sends nothing again, and the server has one booking.
            #expect(await restarted.flushOutbox().isEmpty)
            #expect(try await restarted.bookings().map(\.id) == [booked.id])
            #expect(try await restarted.wallet().balances.first?.minorUnits == 800)

            // The refused one stays, with the server's words, until the app discards it.
            let left = await restarted.outbox.writes
            #expect(left.map(\.id) == [queued[1].id])
            guard case .failed(let reason) = left.first?.state else {
                Issue.record("the refused booking is not marked failed")
                return
            }
            #expect(reason.contains("wallet"))
            await restarted.outbox.retry(id: queued[1].id)
            #expect(await restarted.flushOutbox().count == 1, "tried again on request, refused again")
            await restarted.outbox.discard(id: queued[1].id)
            #expect(await restarted.outbox.writes.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: app.cache.appendingPathComponent("outbox.json").path))

            // Online, a write is sent at once and nothing waits.
            _ = try await restarted.send(.cancelBooking(bookingId: booked.id))
            #expect(await restarted.outbox.writes.isEmpty, "sent at once while online")
        }
    }
}
