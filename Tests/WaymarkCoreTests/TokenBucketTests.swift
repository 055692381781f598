import Testing
import WaymarkCore

@Suite("Request budgets (issue 6: rate limits hold)")
struct TokenBucketTests {
    @Test("QLT-2 a burst up to the capacity passes, the next waits for the refill, and the wait is said exactly")
    func burstThenRefill() {
        var bucket = TokenBucket(capacity: 3, perSecond: 2, at: 100)
        #expect((0..<3).map { _ in bucket.take(at: 100) } == [nil, nil, nil])
        #expect(bucket.take(at: 100) == 0.5, "one token comes back every half second")
        #expect(bucket.take(at: 100.25) == 0.25)
        #expect(bucket.take(at: 100.5) == nil)
        #expect(bucket.take(at: 100.5) != nil)
    }

    @Test("QLT-2 an idle client's budget refills to the capacity, never beyond, and a clock read out of order takes nothing")
    func refillCapsAndOrder() {
        var bucket = TokenBucket(capacity: 2, perSecond: 1, at: 0)
        _ = bucket.take(at: 0)
        _ = bucket.take(at: 0)
        #expect(!bucket.isFull(at: 1.5))
        #expect(bucket.isFull(at: 2))
        #expect(bucket.take(at: 1000) == nil)
        #expect(bucket.take(at: 1000) == nil)
        #expect(bucket.take(at: 1000) != nil, "an hour of idling buys no more than the capacity")
        #expect(bucket.take(at: 999) != nil, "an earlier time neither refills nor breaks the bucket")
        #expect(bucket.updatedAt == 1000)
    }

    @Test("QLT-2 sustained traffic at the refill rate is never refused")
    func steadyRate() {
        var bucket = TokenBucket(capacity: 1, perSecond: 10, at: 0)
        for i in 0..<1000 { #expect(bucket.take(at: Double(i) * 0.1) == nil) }
    }
}
