import Foundation
import NIOConcurrencyHelpers

/// The last spot-state string of each lot, keyed by the lot version it was read at. A lot's
/// version is read before its states, so a cached string is never older than its version, and
/// readers of an unchanged lot skip the per-spot query.
final class SpotStatesCache: Sendable {
    private let entries = NIOLockedValueBox([String: (version: Int64, states: String)]())

    func states(lotId: String, version: Int64, queries: ParkingQueries) async throws -> String {
        if let hit = entries.withLockedValue({ $0[lotId] }), hit.version == version { return hit.states }
        let states = try await queries.spotStates(lotId: lotId)
        entries.withLockedValue { e in
            if (e[lotId]?.version ?? -1) < version { e[lotId] = (version, states) }
        }
        return states
    }
}
