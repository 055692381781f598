import Foundation
import Logging
import NIOConcurrencyHelpers

/// One or more events of a live stream, written to a client in one go: the id of the last (what
/// a client sends back as Last-Event-ID) and the bytes of the whole Server-Sent Events.
struct LiveFrame: Sendable {
    var id: Int64
    var bytes: [UInt8]
    /// For a batch, where each event starts and its id, so a stream can leave out those its
    /// client already has.
    var starts: [(id: Int64, offset: Int)] = []

    init(id: Int64, bytes: [UInt8]) {
        self.id = id
        self.bytes = bytes
    }

    /// One frame of many, in order: one write per poll for each client instead of one per
    /// event, which is most of a busy stream's cost.
    init?(batch frames: [LiveFrame]) {
        guard let last = frames.last else { return nil }
        if frames.count == 1 { self = last; return }
        id = last.id
        bytes = []
        bytes.reserveCapacity(frames.reduce(0) { $0 + $1.bytes.count })
        for f in frames {
            if f.starts.isEmpty { starts.append((f.id, bytes.count)) }
            else { starts += f.starts.map { ($0.id, $0.offset + bytes.count) } }
            bytes += f.bytes
        }
    }

    /// The bytes of the events after `id`, nil when there are none.
    func after(_ id: Int64?) -> ArraySlice<UInt8>? {
        guard let id else { return bytes[...] }
        guard self.id > id else { return nil }
        guard let first = starts.first(where: { $0.id > id }) else { return bytes[...] }
        return bytes[first.offset...]
    }
}

/// A persisted, append-only log that a `LogTail` follows: rows in id order, each addressed to
/// one topic (a site, a person, a message thread…).
protocol TailedLog: Sendable {
    associatedtype Row: Sendable

    /// The id of the newest row, or 0 for an empty log.
    func newest() async throws -> Int64
    /// Rows with ids after `after`, oldest first.
    func rows(after: Int64, limit: Int) async throws -> [Row]
    /// The last id a row covers (a row may hold several events).
    func lastId(of row: Row) -> Int64
    func topic(of row: Row) -> String
    /// The row as frames; asked only for rows whose topic somebody listens to.
    func frames(of row: Row) -> [LiveFrame]
}

/// Tails a persisted log and hands each new row's frames to the subscribers of its topic.
///
/// It reads the table rather than passing events over in memory, so that a row written by
/// another server instance on the same PostgreSQL reaches the streams open here; a local
/// commit pokes it so that local rows go out at once, and a timer catches the others.
final class LogTail<Log: TailedLog>: Sendable {
    private struct Subscriber {
        var topic: String
        var continuation: AsyncStream<LiveFrame>.Continuation
    }

    private struct State {
        var cursor: Int64 = 0
        var started = false
        var subscribers: [UUID: Subscriber] = [:]
        var poked = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())
    private let log: Log
    private let name: String
    private let pollInterval: Duration
    private let readLimit: Int
    private let logger: Logger
    /// Sees every row read, before the cursor moves past it (the site hub keeps lot counters).
    private let observe: @Sendable ([Log.Row]) -> Void

    /// Batches (one per poll) a subscriber may fall behind by before it is cut off; it reconnects with
    /// Last-Event-ID and catches up from the table.
    let subscriberBuffer: Int

    init(_ log: Log, name: String, pollInterval: Duration, readLimit: Int, subscriberBuffer: Int, logger: Logger,
         observe: @escaping @Sendable ([Log.Row]) -> Void = { _ in }) {
        self.log = log
        self.name = name
        self.pollInterval = pollInterval
        self.readLimit = readLimit
        self.subscriberBuffer = subscriberBuffer
        self.logger = logger
        self.observe = observe
    }

    var subscriberCount: Int { state.withLockedValue { $0.subscribers.count } }
    var cursor: Int64 { state.withLockedValue { $0.cursor } }

    /// Starts at the end of the log. Called before the server takes requests, so that the
    /// first snapshot already names a real stream position.
    func prime() async throws {
        let start = try await log.newest()
        state.withLockedValue { $0.cursor = start; $0.started = true }
    }

    /// Runs until cancelled, then ends every subscriber's stream.
    func run() async {
        if !state.withLockedValue({ $0.started }) {
            do { try await prime() } catch {
                logger.error("\(name): cannot read the log", metadata: ["error": .string("\(error)")])
            }
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
                logger.warning("\(name): poll failed", metadata: ["error": .string("\(error)")])
            }
        }
        // Finished outside the lock: finishing runs onTermination, which takes the lock.
        let all = state.withLockedValue { s in defer { s.subscribers.removeAll() }; return Array(s.subscribers.values) }
        for sub in all { sub.continuation.finish() }
    }

    /// Asks for a read now (after a local commit).
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
            let rows = try await log.rows(after: cursor, limit: readLimit)
            guard let last = rows.last else { return }
            observe(rows)
            // Nothing is yielded under the lock: a stream ending on another thread runs its
            // onTermination (which takes this lock) while holding its task's own lock, and a
            // yield needs that task lock, so yielding here could deadlock both threads.
            let subscribers: [(UUID, Subscriber)] = state.withLockedValue { s in
                s.cursor = log.lastId(of: last)
                return Array(s.subscribers)
            }
            // Frames only for topics someone listens to: with nobody listening (a gateway
            // flooding a site no map has open) a read only moves the cursor.
            let listened = Set(subscribers.map(\.1.topic))
            var framed: [String: [LiveFrame]] = [:]
            for row in rows {
                let topic = log.topic(of: row)
                if listened.contains(topic) { framed[topic, default: []] += log.frames(of: row) }
            }
            let batches = framed.compactMapValues { LiveFrame(batch: $0) }
            var overflowed: [(UUID, Subscriber)] = []
            for (id, sub) in subscribers {
                if let batch = batches[sub.topic], case .dropped = sub.continuation.yield(batch) { overflowed.append((id, sub)) }
            }
            if !overflowed.isEmpty {
                state.withLockedValue { s in for (id, _) in overflowed { s.subscribers[id] = nil } }
                for (_, sub) in overflowed { sub.continuation.finish() }
            }
            if rows.count < readLimit { return }
        }
    }

    /// Every frame of `topic` after the returned cursor.
    func subscribe(topic: String) -> (cursor: Int64, frames: AsyncStream<LiveFrame>) {
        let (stream, continuation) = AsyncStream<LiveFrame>.makeStream(bufferingPolicy: .bufferingOldest(subscriberBuffer))
        let id = UUID()
        let cursor = state.withLockedValue { s in
            s.subscribers[id] = Subscriber(topic: topic, continuation: continuation)
            return s.cursor
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return (cursor, stream)
    }
}
