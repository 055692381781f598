import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import WaymarkAPI

/// Tails the live event log, fans each event out to the streams of its site, and keeps every
/// lot's latest counters in memory so that occupancy snapshots cost no query.
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
        /// Latest counters per lot, from events and from the table; the higher version wins,
        /// so the two sources can race without going backwards.
        var lots: [String: Components.Schemas.LotOccupancy] = [:]
        /// Each site's lots in display order, and when that list was read.
        var siteLots: [String: (ids: [String], readAt: ContinuousClock.Instant)] = [:]

        mutating func merge(_ lot: Components.Schemas.LotOccupancy) {
            if let known = lots[lot.lotId], known.version >= lot.version { return }
            lots[lot.lotId] = lot
        }
    }

    /// How long a site's list of lots is trusted before it is read again (lots are added by
    /// imports, rarely).
    static let siteLotsTTL: Duration = .seconds(30)

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

    /// Starts tailing at the end of the log. Called before the server takes requests, so that
    /// the first snapshot already names a real stream position.
    func prime() async throws {
        let start = try await EventLog.bounds(sql: store.sql).max
        state.withLockedValue { $0.cursor = start; $0.started = true }
    }

    /// Runs until cancelled.
    func run() async {
        if !state.withLockedValue({ $0.started }) {
            do { try await prime() } catch {
                logger.error("live: cannot read the event log", metadata: ["error": .string("\(error)")])
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

    /// Rows read at a time: one row is a lot's changes in one commit, so this is many commits.
    static let readRows = 100

    /// Reads everything new in id order and hands it out.
    func pollOnce() async throws {
        guard state.withLockedValue({ $0.started }) else { return }
        while true {
            let after = cursor
            let rows = try await EventLog.read(after: after, limit: Self.readRows, sql: store.sql)
            if rows.isEmpty { return }
            // A lot's rows carry its counters after the change: the newest per lot is enough,
            // so only those are decoded.
            var newest: [String: EventLog.Row] = [:]
            for row in rows where row.kind == SpotEventRow.kind { if let lot = row.lotId { newest[lot] = row } }
            let lotUpdates = newest.values.compactMap { SpotEventRow.lot(payload: $0.payload) }
            // Nothing is yielded under the lock: a stream ending on another thread runs its
            // onTermination (which takes this lock) while holding its task's own lock, and a
            // yield needs that task lock, so yielding here could deadlock both threads.
            let subscribers: [(UUID, Subscriber)] = state.withLockedValue { s in
                for lot in lotUpdates { s.merge(lot) }
                s.cursor = rows.last!.lastId
                return Array(s.subscribers)
            }
            // Frames only for sites someone listens to: with nobody listening (a gateway
            // flooding a site no map has open) the tailer only moves the counters.
            let listened = Set(subscribers.map(\.1.siteId))
            var framed: [String: [Frame]] = [:]
            for row in rows where listened.contains(row.siteId) {
                framed[row.siteId, default: []] += row.events().map { Frame(id: $0.id, bytes: $0.frame) }
            }
            var overflowed: [(UUID, Subscriber)] = []
            for (id, sub) in subscribers {
                for frame in framed[sub.siteId] ?? [] {
                    if case .dropped = sub.continuation.yield(frame) {
                        overflowed.append((id, sub))
                        break
                    }
                }
            }
            if !overflowed.isEmpty {
                state.withLockedValue { s in for (id, _) in overflowed { s.subscribers[id] = nil } }
            }
            for (_, sub) in overflowed { sub.continuation.finish() }
            if rows.count < Self.readRows { return }
        }
    }

    /// Every lot of the site with its latest counters, and the stream position they include at
    /// least. Nil when the site has no lots (or does not exist).
    func siteSnapshot(siteId: String, queries: ParkingQueries) async throws -> SiteOccupancySnapshot? {
        let clock = ContinuousClock()
        let fresh: Bool = state.withLockedValue { s in
            guard let listed = s.siteLots[siteId] else { return false }
            return clock.now - listed.readAt < Self.siteLotsTTL
        }
        if !fresh {
            let rows = try await queries.lotCounts(siteId: siteId)
            if rows.isEmpty { return nil }
            state.withLockedValue { s in
                for row in rows { s.merge(ParkingMapping.occupancy(row)) }
                s.siteLots[siteId] = (rows.map(\.id), clock.now)
            }
        }
        return state.withLockedValue { s in
            guard let ids = s.siteLots[siteId]?.ids else { return nil }
            return SiteOccupancySnapshot(siteId: siteId, lastEventId: s.cursor, lots: ids.compactMap { s.lots[$0] })
        }
    }

    func merge(_ lots: [Components.Schemas.LotOccupancy]) {
        state.withLockedValue { s in for lot in lots { s.merge(lot) } }
    }

    /// One lot's latest counters, read from the table the first time.
    func lot(id: String, queries: ParkingQueries) async throws -> Components.Schemas.LotOccupancy? {
        if let known = state.withLockedValue({ $0.lots[id] }) { return known }
        guard let row = try await queries.lotCounts(lotId: id) else { return nil }
        return state.withLockedValue { s in
            s.merge(ParkingMapping.occupancy(row))
            return s.lots[id]
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
