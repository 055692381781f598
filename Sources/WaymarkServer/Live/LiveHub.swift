import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import WaymarkAPI

/// A site's live stream: tails the live event log (see `LogTail`), fans each event out to the
/// streams of its site, and keeps every lot's latest counters in memory so that occupancy
/// snapshots cost no query.
final class LiveHub: Sendable {
    /// PostgreSQL advisory lock key taken by every transaction that appends live events.
    static let appendLockKey: Int64 = 0x5761_796D_6172_6B // "Waymark"

    /// Writes a slow client may fall behind by before it is cut off (it reconnects and resumes).
    static let subscriberBuffer = 20_000
    /// Polls of the log a slow subscriber may fall behind by; each is at most `readRows` rows.
    static let tailBuffer = 2_000

    /// Rows read at a time: one row is a lot's changes in one commit, so this is many commits.
    static let readRows = 100

    /// How long a site's list of lots is trusted before it is read again (lots are added by
    /// imports, rarely).
    static let siteLotsTTL: Duration = .seconds(30)

    private struct Counters {
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

    private let counters: NIOLockedValueBox<Counters>
    private let tail: LogTail<SiteEventLog>

    init(store: SQLStore, pollInterval: Duration, logger: Logger) {
        let counters = NIOLockedValueBox(Counters())
        self.counters = counters
        tail = LogTail(SiteEventLog(store: store), name: "live", pollInterval: pollInterval, readLimit: Self.readRows,
                       subscriberBuffer: Self.tailBuffer, logger: logger) { rows in
            // A lot's rows (spot changes, or promised spaces that moved) carry its counters after
            // the change on their first line: the newest per lot is enough, so only those are
            // decoded. Merged before the cursor moves past them, so a snapshot that reads the
            // cursor first has counters at least that new.
            var newest: [String: EventLog.Row] = [:]
            for row in rows where row.kind == SpotEventRow.kind || row.kind == PromisedSpaces.eventKind {
                if let lot = row.lotId { newest[lot] = row }
            }
            let updates = newest.values.compactMap { SpotEventRow.lot(payload: $0.payload) }
            counters.withLockedValue { c in for lot in updates { c.merge(lot) } }
        }
    }

    var subscriberCount: Int { tail.subscriberCount }
    var cursor: Int64 { tail.cursor }
    func prime() async throws { try await tail.prime() }
    func run() async { await tail.run() }
    func poke() { tail.poke() }
    func pollOnce() async throws { try await tail.pollOnce() }

    /// Every event of the site after the returned cursor.
    func subscribe(siteId: String) -> (cursor: Int64, frames: AsyncStream<LiveFrame>) {
        tail.subscribe(topic: siteId)
    }

    /// Every lot of the site with its latest counters, and the stream position they include at
    /// least. Nil when the site has no lots (or does not exist).
    func siteSnapshot(siteId: String, queries: ParkingQueries) async throws -> SiteOccupancySnapshot? {
        let clock = ContinuousClock()
        let fresh: Bool = counters.withLockedValue { c in
            guard let listed = c.siteLots[siteId] else { return false }
            return clock.now - listed.readAt < Self.siteLotsTTL
        }
        if !fresh {
            let rows = try await queries.lotCounts(siteId: siteId)
            if rows.isEmpty { return nil }
            counters.withLockedValue { c in
                for row in rows { c.merge(ParkingMapping.occupancy(row)) }
                c.siteLots[siteId] = (rows.map(\.id), clock.now)
            }
        }
        let position = tail.cursor
        return counters.withLockedValue { c in
            guard let ids = c.siteLots[siteId]?.ids else { return nil }
            return SiteOccupancySnapshot(siteId: siteId, lastEventId: position, lots: ids.compactMap { c.lots[$0] })
        }
    }

    func merge(_ lots: [Components.Schemas.LotOccupancy]) {
        counters.withLockedValue { c in for lot in lots { c.merge(lot) } }
    }

    /// One lot's latest counters, read from the table the first time.
    func lot(id: String, queries: ParkingQueries) async throws -> Components.Schemas.LotOccupancy? {
        if let known = counters.withLockedValue({ $0.lots[id] }) { return known }
        guard let row = try await queries.lotCounts(lotId: id) else { return nil }
        return counters.withLockedValue { c in
            c.merge(ParkingMapping.occupancy(row))
            return c.lots[id]
        }
    }
}

/// The live event log as a site's stream reads it: a row is addressed to its site.
struct SiteEventLog: TailedLog {
    let store: SQLStore

    func newest() async throws -> Int64 { try await EventLog.bounds(sql: store.sql).max }
    func rows(after: Int64, limit: Int) async throws -> [EventLog.Row] { try await EventLog.read(after: after, limit: limit, sql: store.sql) }
    func lastId(of row: EventLog.Row) -> Int64 { row.lastId }
    func topic(of row: EventLog.Row) -> String { row.siteId }
    func frames(of row: EventLog.Row) -> [LiveFrame] { row.events().map { LiveFrame(id: $0.id, bytes: $0.frame) } }
}
