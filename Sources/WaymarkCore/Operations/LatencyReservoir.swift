import Foundation

/// The most recent durations of one operation, in a fixed-size ring: memory stays bounded
/// however long the server runs, and percentiles describe how it answers now, not last month.
public struct LatencyReservoir: Sendable {
    public static let defaultCapacity = 1_024

    public private(set) var count = 0
    private var samples: [Double] = []
    private var next = 0
    private let capacity: Int

    public init(capacity: Int = LatencyReservoir.defaultCapacity) { self.capacity = max(1, capacity) }

    public mutating func record(seconds: Double) {
        count += 1
        if samples.count < capacity {
            samples.append(seconds)
        } else {
            samples[next] = seconds
            next = (next + 1) % capacity
        }
    }

    public var kept: [Double] { samples }
}

/// How one operation answers: percentiles over its kept durations (nearest rank), and how many
/// requests it had in all.
public struct LatencySummary: Sendable, Equatable {
    public var operation: String
    public var count: Int
    public var p50: Double
    public var p95: Double
    public var p99: Double

    public init(operation: String, count: Int, p50: Double, p95: Double, p99: Double) {
        self.operation = operation
        self.count = count
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
    }

    /// Nearest-rank percentile: the smallest sample with at least `p` percent at or below it.
    public static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    public static func summarize(_ operation: String, _ reservoir: LatencyReservoir) -> LatencySummary {
        let sorted = reservoir.kept.sorted()
        return LatencySummary(operation: operation, count: reservoir.count,
                              p50: percentile(50, ofSorted: sorted), p95: percentile(95, ofSorted: sorted),
                              p99: percentile(99, ofSorted: sorted))
    }

    /// Slowest first, by the 95th percentile (what one request in twenty waits), then the 99th,
    /// then the name so that the order is stable.
    public static func slowestFirst(_ reservoirs: [String: LatencyReservoir], limit: Int) -> [LatencySummary] {
        reservoirs.filter { $0.value.count > 0 }.map { summarize($0.key, $0.value) }
            .sorted { ($0.p95, $0.p99, $1.operation) > ($1.p95, $1.p99, $0.operation) }
            .prefix(max(0, limit)).map { $0 }
    }
}
