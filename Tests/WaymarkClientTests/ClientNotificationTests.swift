import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK notifications against a live server (PRK-15)")
struct ClientNotificationTests {
    @Test("PRK-15 watch a lot; as gateways fill it, liveNotifications delivers almost full and full; list, mark read, mark all read, delete, unwatch")
    func watchAndLive() async throws {
        try await LiveServer.with { server in
            let me = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            let gateway = WaymarkClient(serverURL: server.url, gatewayKey: server.gatewayKey)
            _ = try await me.register(username: "nora_watch", password: "Str0ng!pass")

            let lots = try await me.lots(siteId: server.siteId)
            let lot = try #require(lots.filter { $0.kind == .surface }.min { $0.capacity < $1.capacity })
            let spots = try await me.spots(lotId: lot.id)
            var sequence: Int64 = 1_000_000
            _ = try await gateway.ingest(spots.map { SensorReport(sensorId: $0.sensorId, occupied: false, observedAt: Date(), sequence: sequence) })

            let watch = try await me.watch(lotId: lot.id)
            #expect(watch.lotId == lot.id)
            #expect(try await me.watches().map(\.lotId) == [lot.id])

            // Three gateway batches: to 80 % (nothing to say), to 90 % (almost full), the rest
            // (full). The first two land before the stream opens, from the inbox's newest (none
            // yet): "almost full" comes from the server's replay, "full" live or replayed,
            // however late the stream connects.
            sequence += 1
            let cuts = [0, spots.count * 8 / 10, spots.count * 9 / 10, spots.count]
            func fill(_ k: Int) async throws {
                _ = try await gateway.ingest(spots[cuts[k]..<cuts[k + 1]].map {
                    SensorReport(sensorId: $0.sensorId, occupied: true, observedAt: Date(), sequence: sequence)
                })
            }
            let newest = try await me.notifications().notifications.first?.sequence ?? 0
            try await fill(0)
            try await fill(1)
            let live = me.liveNotifications(after: newest)
            let received = Task {
                var got: [WaymarkNotification] = []
                for try await n in live {
                    got.append(n)
                    if got.count == 2 { break }
                }
                return got
            }
            try await fill(2)
            let deadline = Task { try await Task.sleep(for: .seconds(20)); received.cancel() }
            let got = try await received.value
            deadline.cancel()
            #expect(got.map(\.kind) == [.lotAlmostFull, .lotFull])
            #expect(got.allSatisfy { $0.lotId == lot.id && !$0.read })

            let page = try await me.notifications()
            #expect(page.unreadCount == 2)
            #expect(page.notifications.map(\.id) == got.reversed().map(\.id), "the inbox holds what arrived live, newest first")
            let read = try await me.markNotificationRead(id: got[0].id)
            #expect(read.read)
            #expect(try await me.notifications().unreadCount == 1)
            try await me.markAllNotificationsRead()
            #expect(try await me.notifications().unreadCount == 0)
            try await me.deleteNotification(id: got[0].id)
            #expect(try await me.notifications().notifications.map(\.id) == [got[1].id])
            do {
                try await me.deleteNotification(id: got[0].id)
                Issue.record("a deleted notification is gone")
            } catch let error as WaymarkClientError {
                #expect(error.problemKind == "not-found")
            }
            try await me.unwatch(lotId: lot.id)
            #expect(try await me.watches().isEmpty)

            // Without a session the live stream ends with the server's refusal.
            let stranger = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            await #expect(throws: WaymarkClientError.self) {
                for try await _ in stranger.liveNotifications() {}
            }
        }
    }
}
