import Foundation
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

    static func recordIngest(_ outcomes: some Sequence<IngestOutcome>) {
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

/// Counts requests and their durations per operation: the operation id keeps the label set
/// small, unlike raw paths full of ids.
struct MetricsMiddleware: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let clock = ContinuousClock()
        let start = clock.now
        var status = 500
        defer {
            ServerMetrics.registry.makeCounter(
                name: "waymark_http_requests_total", labels: [("operation", operationID), ("status", String(status))]
            ).increment()
            if operationID != "streamSiteLive" {
                ServerMetrics.registry.makeDurationHistogram(
                    name: "waymark_http_request_duration_seconds", labels: [("operation", operationID)],
                    buckets: ServerMetrics.latencyBuckets
                ).record(clock.now - start)
            }
        }
        do {
            let result = try await next(request, body, metadata)
            status = Int(result.0.status.code)
            return result
        } catch {
            status = ProblemMiddleware.problem(for: error).status
            throw error
        }
    }
}
