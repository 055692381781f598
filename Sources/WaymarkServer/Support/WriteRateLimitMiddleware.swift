import Crypto
import Foundation
import NIOConcurrencyHelpers
import Vapor
import WaymarkCore

/// A budget of writes per client (issue 6, "rate limits hold"): a person or an app's outbox
/// never comes near it, a script hammering bookings, top-ups or holds is told to wait (429 with
/// `Retry-After`) before its writes reach the database. A client is its bearer token (stored
/// only as a hash prefix) or, without one, its address. Reads are not limited here (they are
/// served from memory), nor are gateways, whose volume is the product. The budget lives in this
/// process: with several instances behind a balancer each gives its own.
struct WriteRateLimitMiddleware: AsyncMiddleware {
    let limiter: WriteRateLimiter

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard Self.limited(request.method), !request.url.path.hasPrefix("/v1/gateway/") else {
            return try await next.respond(to: request)
        }
        if let wait = limiter.take(client: Self.client(of: request)) {
            throw Problem.tooManyRequests(retryAfter: Int(wait.rounded(.up)),
                                          "Too many changes in a short time. Wait a moment and try again.")
        }
        return try await next.respond(to: request)
    }

    static func limited(_ method: HTTPMethod) -> Bool {
        method == .POST || method == .PUT || method == .PATCH || method == .DELETE
    }

    static func client(of request: Request) -> String {
        if let auth = request.headers.first(name: .authorization), auth.count > 7, auth.lowercased().hasPrefix("bearer ") {
            let digest = SHA256.hash(data: Data(auth.utf8.dropFirst(7)))
            return "t:" + Secrets.hex(digest.prefix(12))
        }
        return "a:" + (request.headers.first(name: ClientAddressMiddleware.name) ?? "unknown")
    }
}

/// The buckets, one per client seen recently.
final class WriteRateLimiter: Sendable {
    let perSecond: Double
    let burst: Int
    private let buckets = NIOLockedValueBox([String: TokenBucket]())
    private let started = ContinuousClock.now
    /// Full buckets are forgotten when this many clients are tracked: memory stays bounded
    /// however many addresses or forged tokens arrive.
    private let pruneAbove: Int

    init(perSecond: Double, burst: Int, pruneAbove: Int = 50_000) {
        self.perSecond = perSecond
        self.burst = burst
        self.pruneAbove = pruneAbove
    }

    /// Nil when the write may go ahead; else the seconds to wait.
    func take(client: String) -> Double? {
        let now = (ContinuousClock.now - started) / .seconds(1)
        return buckets.withLockedValue { buckets in
            if buckets.count > pruneAbove { buckets = buckets.filter { !$0.value.isFull(at: now) } }
            var bucket = buckets[client] ?? TokenBucket(capacity: burst, perSecond: perSecond, at: now)
            let wait = bucket.take(at: now)
            buckets[client] = bucket
            return wait
        }
    }

    var trackedClients: Int { buckets.withLockedValue { $0.count } }
}
