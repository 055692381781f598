import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// Where a sensor is mounted.
struct SpotRef: Sendable, Hashable {
    var spotId: String
    var lotId: String
    var siteId: String
    var ordinal: Int
}

/// sensor id → spot, held in memory because every ingested event needs it. Reloaded when an
/// unknown sensor reports (a spot added by another instance or an import), at most every few
/// seconds so that a gateway full of unknown sensors cannot turn into a query per event.
final class SensorIndex: Sendable {
    private struct State {
        var bySensor: [String: SpotRef] = [:]
        var loadedAt: Date = .distantPast
    }

    private let state = NIOLockedValueBox(State())
    private let store: SQLStore
    private let minReloadInterval: TimeInterval

    init(store: SQLStore, minReloadInterval: TimeInterval = 5) {
        self.store = store
        self.minReloadInterval = minReloadInterval
    }

    /// The spot of each sensor, in the order given (nil: no such sensor).
    func lookup(_ sensorIds: [String], now: Date) async throws -> [SpotRef?] {
        let found = state.withLockedValue { s in sensorIds.map { s.bySensor[$0] } }
        guard found.contains(where: { $0 == nil }),
              state.withLockedValue({ now.timeIntervalSince($0.loadedAt) >= minReloadInterval }) else { return found }
        try await reload(now: now)
        return state.withLockedValue { s in sensorIds.map { s.bySensor[$0] } }
    }

    func reload(now: Date) async throws {
        let rows = try await store.sql.raw("""
            SELECT spots.sensor_id, spots.id, spots.lot_id, lots.site_id, spots.ordinal
            FROM spots JOIN lots ON lots.id = spots.lot_id WHERE spots.sensor_id IS NOT NULL
            """).all()
        var map: [String: SpotRef] = [:]
        map.reserveCapacity(rows.count)
        for row in rows {
            let sensor = try row.decode(column: "sensor_id", as: String.self)
            map[sensor] = SpotRef(
                spotId: try row.decode(column: "id", as: String.self),
                lotId: try row.decode(column: "lot_id", as: String.self),
                siteId: try row.decode(column: "site_id", as: String.self),
                ordinal: try row.decode(column: "ordinal", as: Int.self))
        }
        state.withLockedValue { $0 = State(bySensor: map, loadedAt: now) }
    }
}
