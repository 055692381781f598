/// A request budget (issue 6, "rate limits hold"): up to `capacity` requests at once, refilled
/// at `perSecond`. Times are seconds on a monotonic clock the caller owns, so the rule is
/// testable and independent of wall-clock jumps.
public struct TokenBucket: Sendable, Equatable {
    public let capacity: Double
    public let perSecond: Double
    public private(set) var tokens: Double
    public private(set) var updatedAt: Double
    static let slack = 1e-9

    /// A full bucket at `now`.
    public init(capacity: Int, perSecond: Double, at now: Double) {
        precondition(capacity > 0 && perSecond > 0, "a bucket that never allows anything is a misconfiguration")
        self.capacity = Double(capacity)
        self.perSecond = perSecond
        self.tokens = Double(capacity)
        self.updatedAt = now
    }

    /// Takes one request's worth: nil when allowed, else the seconds until one would be.
    public mutating func take(at now: Double) -> Double? {
        refill(at: now)
        // Refills are sums of float products: a client keeping exactly to the rate may arrive
        // with 0.999999999… tokens, and that is a whole one.
        if tokens >= 1 - Self.slack {
            tokens = max(0, tokens - 1)
            return nil
        }
        return (1 - tokens) / perSecond
    }

    /// Refilled to the top: forgetting it changes nothing for its client.
    public func isFull(at now: Double) -> Bool {
        tokens + max(0, now - updatedAt) * perSecond >= capacity
    }

    private mutating func refill(at now: Double) {
        // A clock read out of order (two threads) must not take tokens away.
        guard now > updatedAt else { return }
        tokens = min(capacity, tokens + (now - updatedAt) * perSecond)
        updatedAt = now
    }
}
