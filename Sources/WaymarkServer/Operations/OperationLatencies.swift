import Foundation
import NIOConcurrencyHelpers
import WaymarkCore

/// The recent durations of every API operation, for the operator's "slow responses" (PRK-17).
/// `/metrics` keeps cumulative histograms for Prometheus; percentiles of what happens now need
/// the durations themselves, so each operation keeps its latest ones in a bounded reservoir.
/// Per application, so that two servers in one process (as in the tests) do not mix.
final class OperationLatencies: Sendable {
    private let reservoirs = NIOLockedValueBox([String: LatencyReservoir]())
    private let capacity: Int

    init(capacity: Int = LatencyReservoir.defaultCapacity) { self.capacity = capacity }

    func record(_ operation: String, _ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        reservoirs.withLockedValue { all in
            all[operation, default: LatencyReservoir(capacity: capacity)].record(seconds: seconds)
        }
    }

    func slowest(limit: Int) -> [LatencySummary] {
        // Copied out first: sorting thousands of samples must not hold up requests.
        let copy = reservoirs.withLockedValue { $0 }
        return LatencySummary.slowestFirst(copy, limit: limit)
    }
}
