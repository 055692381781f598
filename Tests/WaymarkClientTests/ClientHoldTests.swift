import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK soft holds against a live server (PRK-9, PRK-10)")
struct ClientHoldTests {
    // Reads a live stream until it sees the hold: a missing event fails at the limit instead of hanging.
    @Test("PRK-9 PRK-10 two guests race for a spot; the other sees it held live; \"was it you? no\" redirects", .timeLimit(.minutes(1)))
    func holdRaceAndRedirect() async throws {
        try await LiveServer.with { server in
            let alice = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            let bob = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            let gateway = WaymarkClient(serverURL: server.url, gatewayKey: server.gatewayKey)
            _ = try await alice.ensureDeviceIdentity()
            _ = try await bob.ensureDeviceIdentity()
            // Every demo lot asks for a permit on weekdays in the day: with them, the redirect
            // below has somewhere to go whatever the time of the run.
            let all = HeldPermits(bySite: [server.siteId: [.green, .yellow, .black]])
            _ = try await alice.setPermits(all)
            _ = try await bob.setPermits(all)

            // A surface lot open to all, every spot reported empty just now.
            let lots = try await alice.lots(siteId: server.siteId)
            let lot = try #require(lots.first { $0.kind == .surface && $0.permitRules.isEmpty } ?? lots.first { $0.kind == .surface })
            let spots = try await alice.spots(lotId: lot.id)
            let now = Date()
            _ = try await gateway.ingest(spots.map { SensorReport(sensorId: $0.sensorId, occupied: false, observedAt: now, sequence: 1_000_000) })
            let target = spots[spots.count / 2]

            // From the snapshot's position: the hold is seen however late the stream connects.
            let position = try await bob.occupancy(siteId: server.siteId).value.lastEventId
            let stream = bob.live(siteId: server.siteId, lastEventId: position)
            let sawHeld = Task {
                for try await event in stream {
                    if case .spot(_, let change) = event, change.lotId == lot.id, change.ordinal == target.ordinal, change.state == .h { return true }
                }
                return false
            }
            try await Task.sleep(for: .milliseconds(300))

            @Sendable func attempt(_ client: WaymarkClient) async -> Result<Components.Schemas.Hold, any Error> {
                do { return .success(try await client.hold(spotId: target.id)) } catch { return .failure(error) }
            }
            async let a = attempt(alice)
            async let b = attempt(bob)
            let results = await [a, b]
            let winners = results.compactMap { try? $0.get() }
            #expect(winners.count == 1)
            let loser = results.compactMap { r -> WaymarkClientError? in
                if case .failure(let e) = r { return e as? WaymarkClientError } else { return nil }
            }
            #expect(loser.first?.problemKind == "spot-not-free")
            let hold = try #require(winners.first)
            // The stream never ends by itself: without the event, give up after a while.
            let deadline = Task { try await Task.sleep(for: .seconds(15)); sawHeld.cancel() }
            #expect((try? await sawHeld.value) == true, "the other guest's live stream shows the spot held")
            deadline.cancel()

            // Whoever won: someone parks there; the holder says it was not them.
            let holder = try await alice.holds().first?.id == hold.id ? alice : bob
            #expect(hold.expiresAt.timeIntervalSince(hold.createdAt) == 600)
            _ = try await gateway.ingest([SensorReport(sensorId: target.sensorId, occupied: true, observedAt: Date(), sequence: 1_000_001)])
            #expect(try await holder.hold(id: hold.id).status == .asking)
            let (answered, next, checkedIn) = try await holder.answerHold(id: hold.id, wasMe: false)
            #expect(checkedIn == nil, "a guest has no bookings")
            #expect(answered.outcome == .moved)
            let moved = try #require(next)
            #expect(moved.spotId != target.id)
            #expect(moved.expiresAt == hold.expiresAt)
            #expect(moved.directions.googleMaps.contains("destination="))
            let cancelled = try await holder.cancelHold(id: moved.id)
            #expect(cancelled.outcome == .cancelled)
            await #expect(throws: WaymarkClientError.self) { try await holder.answerHold(id: moved.id, wasMe: true) }
        }
    }
}
