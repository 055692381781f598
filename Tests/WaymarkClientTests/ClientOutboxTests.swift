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
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let tokens = InMemoryTokenStore()
        let configure: (inout WaymarkConfiguration) -> Void = { $0.passwordHashCost = 4; $0.demoPayments = true }
        let first = try await LiveServer.start(configure: configure)
        defer { first.removeDatabase() }
        // Generous timeouts while the server is up (the suite runs many servers at once); a short
        // one while it is down, because the HTTP client keeps retrying a refused connection until
        // the deadline. The clients share the outbox file and the session, as an app's launches do.
        let online = WaymarkClient(serverURL: first.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(15))
        let lotA: String
        do {
            try await online.register(username: "sdk_offline", password: "Str0ng!pass")
            _ = try await online.topUp(amountMinor: 2000, idempotencyKey: UUID().uuidString)
            lotA = try #require(try await online.lots(siteId: first.siteId).first { $0.code == "A" }).id
        } catch {
            try? await first.stop()
            throw error
        }
        let port = try #require(first.url.port)
        try await first.stop()
        let member = WaymarkClient(serverURL: first.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(2))

        // Offline: every write is kept, in the order made; a newer permit set replaces the older.
        let day1 = (ClientBookingTests.tomorrow(10), ClientBookingTests.tomorrow(12))
        let day2 = (day1.0.addingTimeInterval(86_400), day1.1.addingTimeInterval(86_400))
        for action in [Outbox.Write.Action.book(lotId: lotA, start: day1.0, end: day1.1),
                       .setPermits(HeldPermits(bySite: [first.siteId: [.green]])),
                       .book(lotId: lotA, start: day2.0, end: day2.1),
                       .setPermits(HeldPermits(bySite: [first.siteId: [.green, .black]], placard: true))] {
            guard case .queued = try await member.send(action) else {
                Issue.record("\(action) was not queued while the server was down")
                return
            }
        }
        let queued = await member.outbox.writes
        #expect(queued.map(\.action) == [.book(lotId: lotA, start: day1.0, end: day1.1), .book(lotId: lotA, start: day2.0, end: day2.1),
                                          .setPermits(HeldPermits(bySite: [first.siteId: [.green, .black]], placard: true))])
        #expect(Set(queued.map(\.id)).count == 3)
        #expect(await member.flushOutbox().isEmpty, "nothing is sent or failed while unreachable")
        #expect(await member.outbox.writes == queued)

        // The queue is on disk: the app restarted offline still has it.
        let restarted = WaymarkClient(serverURL: first.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(15))
        #expect(await restarted.outbox.writes == queued)

        // Back online on the same address.
        let second = try await LiveServer.start(databasePath: first.databasePath) { config in
            configure(&config)
            config.port = port
        }
        do {
            let results = await restarted.flushOutbox()
            #expect(results.count == 3)
            guard results.count == 3 else { try await second.stop(); return }
            guard case .success(.booking(let booked)) = results[0].result else {
                Issue.record("the first booking was not made: \(results[0].result)")
                try await second.stop()
                return
            }
            #expect(booked.paid.minorUnits == 1200)
            guard case .failure(let refused) = results[1].result else {
                Issue.record("the second booking should not fit the wallet")
                try await second.stop()
                return
            }
            #expect(refused.problemKind == "insufficient-funds")
            guard case .success(.permits(let permits)) = results[2].result else {
                Issue.record("permits not sent: \(results[2].result)")
                try await second.stop()
                return
            }
            #expect(permits == HeldPermits(bySite: [first.siteId: [.green, .black]], placard: true))

            // Made once: a second flush sends nothing again, and the server has one booking.
            #expect(await restarted.flushOutbox().isEmpty)
            #expect(try await restarted.bookings().map(\.id) == [booked.id])
            #expect(try await restarted.wallet().balances.first?.minorUnits == 800)

            // The refused one stays, with the server's words, until the app discards it.
            let left = await restarted.outbox.writes
            #expect(left.map(\.id) == [queued[1].id])
            guard case .failed(let reason) = left.first?.state else {
                Issue.record("the refused booking is not marked failed")
                try await second.stop()
                return
            }
            #expect(reason.contains("wallet"))
            await restarted.outbox.retry(id: queued[1].id)
            #expect(await restarted.flushOutbox().count == 1, "tried again on request, refused again")
            await restarted.outbox.discard(id: queued[1].id)
            #expect(await restarted.outbox.writes.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("outbox.json").path))

            // Online, a write is sent at once and nothing waits.
            _ = try await restarted.send(.cancelBooking(bookingId: booked.id))
            #expect(await restarted.outbox.writes.isEmpty, "sent at once while online")
        } catch {
            try? await second.stop()
            throw error
        }
        try await second.stop()
    }
}
