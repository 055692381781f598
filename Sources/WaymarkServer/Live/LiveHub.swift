import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit

/// Tails the live event log and fans each event out to the streams of its site.
///
/// Every instance tails the table itself, so several servers on one PostgreSQL all deliver
/// every event; a local commit pokes the tailer so that local changes go out at once, and a
/// timer catches the commits of other instances.
final class LiveHub: Sendable {
    struct Frame: Sendable {
        var id: Int64
        var bytes: [UInt8]
    }

    /// PostgreSQL advisory lock key taken by every transaction that appends live events.
    static let appendLockKey: Int64 = 0x5761_796D_6172_6B // "Waymark"

    /// Events a slow subscriber may fall behind by before it is cut off; it reconnects with
    /// Last-Event-ID and catches up from the table.
    static let subscriberBuffer = 20_000

    private struct Subscriber {
        var siteId: String
        var continuation: AsyncStream<Frame>.Continuation
    }

    private struct State {
        var cursor: Int64 = 0
        var subscribers: [UUID: Subscriber] = [:]
        var poked = false
        var waiter: CheckedContinuation<Void, Never>?
        var started = false
    }

    private let state = NIOLockedValueBox(State())
    private let store: SQLStore
    private let pollInterval: Duration
    private let logger: Logger

    init(store: SQLStore, pollInterval: Duration, logger: Logger) {
        self.store = store
        self.pollInterval = pollInterval
        self.logger = logger
    }

    var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }
    var cursor: Int64 { state.withLockedValue { $0.cursor } }

    /// Runs until cancelled.
    func run() async {
        do {
            let start = try await EventLog.bounds(sql: store.sql).max
            state.withLockedValue { $0.cursor = start; $0.started = true }
        } catch {
            logger.error("live: cannot read the event log", metadata: ["error": .string("\(error)")])
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: pollInterval)
                poke()
            }
        }
        defer { ticker.cancel() }
        while !Task.isCancelled {
            await waitForPoke()
            if Task.isCancelled { break }
            do { try await pollOnce() } catch {
                logger.warning("live: poll failed", metadata: ["error": .string("\(error)")])
            }
        }
        // Finished outside the lock: finishing runs onTermination, which takes the lock.
        let all = state.withLockedValue { s in defer { s.subscribers.removeAll() }; return Array(s.subscribers.values) }
        for sub in all { sub.continuation.finish() }
    }

    func poke() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLockedValue { s in
            if let w = s.waiter { s.waiter = nil; return w }
            s.poked = true
            return nil
        }
        waiter?.resume()
    }

    private func waitForPoke() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = state.withLockedValue { s in
                    if s.poked || Task.isCancelled { s.poked = false; return true }
                    s.waiter = c
                    return false
                }
                if resumeNow { c.resume() }
            }
        } onCancel: {
            poke()
        }
    }

    /// Reads everything new in id order and hands it out.
    func pollOnce() async throws {
        guard state.withLockedValue({ $0.started }) else { return }
        while true {
            let after = cursor
            let rows = try await EventLog.read(after: after, limit: 5_000, sql: store.sql)
            if rows.isEmpty { return }
            let frames = rows.map { (siteId: $0.siteId, frame: Frame(id: $0.id, bytes: LiveEncoding.frame(id: $0.id, kind: $0.kind, payload: $0.payload))) }
            let overflowed: [Subscriber] = state.withLockedValue { s in
                var cut: [Subscriber] = []
                for (id, sub) in s.subscribers {
                    for f in frames where f.siteId == sub.siteId {
                        if case .dropped = sub.continuation.yield(f.frame) {
                            cut.append(sub)
                            s.subscribers[id] = nil
                            break
                        }
                    }
                }
                s.cursor = rows.last!.id
                return cut
            }
            for sub in overflowed { sub.continuation.finish() }
            if rows.count < 5_000 { return }
        }
    }

    /// A stream of every event of the site after the returned cursor.
    func subscribe(siteId: String) -> (cursor: Int64, stream: AsyncStream<Frame>) {
        let (stream, continuation) = AsyncStream<Frame>.makeStream(bufferingPolicy: .bufferingOldest(Self.subscriberBuffer))
        let id = UUID()
        let cursor = state.withLockedValue { s in
            s.subscribers[id] = Subscriber(siteId: siteId, continuation: continuation)
            return s.cursor
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return (cursor, stream)
    }
}
