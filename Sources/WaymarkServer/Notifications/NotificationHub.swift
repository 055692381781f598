import Foundation
import Logging
import NIOConcurrencyHelpers
import WaymarkAPI

/// Delivers new notifications to their person's open streams (PRK-15). Like `LiveHub` it tails
/// the table rather than handing notifications over in memory, so a notification made by
/// another server instance on the same PostgreSQL reaches a stream open here; a local commit
/// pokes it so that local notifications go out at once.
final class NotificationHub: Sendable {
    struct Delivery: Sendable {
        var seq: Int64
        var notification: Components.Schemas.Notification
    }

    /// Notifications a subscriber may fall behind by before it is cut off (it reconnects with
    /// Last-Event-ID and catches up from the table).
    static let subscriberBuffer = 500

    private struct Subscriber {
        var userId: String
        var continuation: AsyncStream<Delivery>.Continuation
    }

    private struct State {
        var cursor: Int64 = 0
        var started = false
        var subscribers: [UUID: Subscriber] = [:]
        var poked = false
        var waiter: CheckedContinuation<Void, Never>?
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

    func prime() async throws {
        let start = try await NotificationStore.lastSeq(sql: store.sql)
        state.withLockedValue { $0.cursor = start; $0.started = true }
    }

    /// Runs until cancelled.
    func run() async {
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
                logger.warning("notifications: poll failed", metadata: ["error": .string("\(error)")])
            }
        }
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

    func pollOnce() async throws {
        let (started, after) = state.withLockedValue { ($0.started, $0.cursor) }
        guard started else { return }
        var cursor = after
        while true {
            let rows = try await NotificationStore.after(cursor, limit: 1_000, sql: store.sql)
            guard let last = rows.last else { return }
            cursor = last.seq
            // Yielded outside the lock, as in `LiveHub.pollOnce`.
            let subscribers: [(UUID, Subscriber)] = state.withLockedValue { s in
                s.cursor = last.seq
                return Array(s.subscribers)
            }
            var overflowed: [(UUID, Subscriber)] = []
            let byUser = Dictionary(grouping: rows, by: \.userId)
            for (id, sub) in subscribers {
                for row in byUser[sub.userId] ?? [] {
                    if case .dropped = sub.continuation.yield(Delivery(seq: row.seq, notification: NotificationMapping.notification(row))) {
                        overflowed.append((id, sub))
                        break
                    }
                }
            }
            if !overflowed.isEmpty {
                state.withLockedValue { s in for (id, _) in overflowed { s.subscribers[id] = nil } }
                for (_, sub) in overflowed { sub.continuation.finish() }
            }
            if rows.count < 1_000 { return }
        }
    }

    /// Every notification of `userId` after the returned cursor.
    func subscribe(userId: String) -> (cursor: Int64, stream: AsyncStream<Delivery>) {
        let (stream, continuation) = AsyncStream<Delivery>.makeStream(bufferingPolicy: .bufferingOldest(Self.subscriberBuffer))
        let id = UUID()
        let cursor = state.withLockedValue { s in
            s.subscribers[id] = Subscriber(userId: userId, continuation: continuation)
            return s.cursor
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return (cursor, stream)
    }
}
