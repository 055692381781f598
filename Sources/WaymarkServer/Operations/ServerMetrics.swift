import Foundation
import NIOConcurrencyHelpers
import HTTPTypes
import OpenAPIRuntime
import Prometheus
import WaymarkCore

/// Process-wide metrics in Prometheus text form at `/metrics`. One registry per process:
/// several applications in one test process share it, as counters are looked up by name.
enum ServerMetrics {
    static let registry = PrometheusCollectorRegistry()

    static let latencyBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
    ]

    /// One group commit: how many requests it carried shows how well commits are shared.
    static func recordIngest(_ outcomes: some Sequence<IngestOutcome>, requests: Int) {
        registry.makeCounter(name: "waymark_ingest_commits_total").increment()
        registry.makeCounter(name: "waymark_ingest_requests_total").increment(by: Int64(requests))
        var counts: [IngestOutcome: Int] = [:]
        for o in outcomes { counts[o, default: 0] += 1 }
        for (outcome, n) in counts {
            registry.makeCounter(name: "waymark_ingest_events_total", labels: [("outcome", outcome.rawValue)]).increment(by: Int64(n))
        }
    }

    static func setLiveSubscribers(_ n: Int) {
        registry.makeGauge(name: "waymark_live_subscribers").set(Double(n))
    }

    static func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

/// Per operation: a request counter by status, a latency histogram and the recent latencies
/// the operator analytics read. The operation id keeps the label set small, unlike raw paths
/// full of ids. The metric objects are looked up once per label set and kept, since the
/// registry's own lookup builds label keys on every call.
final class RequestMetrics: Sendable {
    private let counters = NIOLockedValueBox([String: Counter]())
    private let histograms = NIOLockedValueBox([String: DurationHistogram]())
    let latencies: OperationLatencies

    init(latencies: OperationLatencies) { self.latencies = latencies }

    func record(operation: String, status: Int, duration: Duration) {
        counter(operation: operation, status: status).increment()
        // A stream's duration is its connection's life, not a latency.
        if operation != "streamSiteLive" {
            histogram(operation: operation).record(duration)
            latencies.record(operation, duration)
        }
    }

    private func counter(operation: String, status: Int) -> Counter {
        let key = "\(operation) \(status)"
        if let c = counters.withLockedValue({ $0[key] }) { return c }
        let c = ServerMetrics.registry.makeCounter(
            name: "waymark_http_requests_total", labels: [("operation", operation), ("status", String(status))])
        counters.withLockedValue { $0[key] = c }
        return c
    }

    private func histogram(operation: String) -> DurationHistogram {
        if let h = histograms.withLockedValue({ $0[operation] }) { return h }
        let h = ServerMetrics.registry.makeDurationHistogram(
            name: "waymark_http_request_duration_seconds", labels: [("operation", operation)],
            buckets: ServerMetrics.latencyBuckets)
        histograms.withLockedValue { $0[operation] = h }
        return h
    }

    /// Runs `body` as the operation and records how it went; an error counts with the status
    /// of the problem it becomes.
    func measure<T>(operation: String, status: (T) -> Int, _ body: () async throws -> T) async throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let result = try await body()
            record(operation: operation, status: status(result), duration: clock.now - start)
            return result
        } catch {
            record(operation: operation, status: ProblemMiddleware.problem(for: error).status, duration: clock.now - start)
            throw error
        }
    }
}

/// Counts every generated route's requests under its operation id.
struct MetricsMiddleware: ServerMiddleware {
    let metrics: RequestMetrics

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await metrics.measure(operation: operationID, status: { Int($0.0.status.code) }) {
            try await next(request, body, metadata)
        }
    }
}
