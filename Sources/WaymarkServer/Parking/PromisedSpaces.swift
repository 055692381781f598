import Foundation
import NIOConcurrencyHelpers
import SQLKit
import WaymarkAPI
import WaymarkCore

/// Keeps `lots.count_p` — the spaces promised to booked drivers who are expected and have not
/// arrived (`Booking.awaitsArrival`) — true, and tells the live stream when it moves, so a
/// lot's free count drops as a booking's check-in opens and comes back when the driver
/// arrives, cancels or forfeits.
///
/// A booking change refreshes its lot in its own transaction; the booking sweep refreshes every
/// lot, since a check-in window opens and closes with time alone. On PostgreSQL the count is
/// taken under `LiveHub.appendLockKey`, after every writer before it has committed, so two
/// refreshes cannot leave an old count behind.
enum PromisedSpaces {
    /// The lot event of a count that moved: the lot's occupancy as drivers now see it.
    static let eventKind = "lot"

    /// The lots whose counts moved in a transaction, for the live counters once it has committed.
    final class Moved: Sendable {
        private let lots = NIOLockedValueBox<[String: Components.Schemas.LotOccupancy]>([:])

        func add(_ moved: [Components.Schemas.LotOccupancy]) {
            lots.withLockedValue { for lot in moved { $0[lot.lotId] = lot } }
        }

        var all: [Components.Schemas.LotOccupancy] { lots.withLockedValue { Array($0.values) } }
    }

    /// Refreshes `lotIds`, or every lot when nil, and returns the lots whose count moved (added
    /// to `moved` too).
    @discardableResult
    static func refresh(lotIds: [String]? = nil, now: Date, sql: any SQLDatabase,
                        into moved: Moved? = nil) async throws -> [Components.Schemas.LotOccupancy] {
        if let lotIds, lotIds.isEmpty { return [] }
        let isPostgres = sql.dialect.name == "postgresql"
        // A look without the lock first: most refreshes find nothing to change.
        guard try await !changes(lotIds: lotIds, now: now, sql: sql).isEmpty else { return [] }
        if isPostgres { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run() }
        var rows: [LotCountsRow] = []
        for (lotId, count) in try await changes(lotIds: lotIds, now: now, sql: sql).sorted(by: { $0.key < $1.key }) {
            // The version moves too: the ingest's remembered counters of this lot are then refused
            // and read again, so its next event carries the new count.
            if let row = try await sql.raw("""
                UPDATE lots SET count_p = \(bind: count), version = version + 1 WHERE id = \(bind: lotId)
                RETURNING \(unsafeRaw: LotCountsRow.columns)
                """).first(decoding: LotCountsRow.self, keyDecodingStrategy: .convertFromSnakeCase) {
                rows.append(row)
            }
        }
        let occupancy = rows.map(ParkingMapping.occupancy)
        try await EventLog.append(try zip(rows, occupancy).map { row, lot in
            LiveEventRecord(siteId: row.siteId, lotId: row.id, at: now, kind: eventKind, payload: try LiveEncoding.encode(lot))
        }, sql: sql)
        moved?.add(occupancy)
        return occupancy
    }

    /// Each lot whose stored count differs from the bookings awaiting their driver now.
    private static func changes(lotIds: [String]?, now: Date, sql: any SQLDatabase) async throws -> [String: Int] {
        let starts = BookingRules.startsAwaitingArrival(at: now)
        let onlyLots: SQLQueryString = lotIds.map { " AND lot_id IN (\(binds: $0))" } ?? ""
        var expected: [String: Int] = [:]
        for row in try await sql.raw("""
            SELECT lot_id, start_at, end_at FROM bookings
            WHERE state = 'booked' AND start_at > \(bind: starts.after.millis) AND start_at <= \(bind: starts.upTo.millis)\(onlyLots)
            """).all() {
            let range = BookingRange(start: Date(millis: try row.decode(column: "start_at", as: Int64.self)),
                                     end: Date(millis: try row.decode(column: "end_at", as: Int64.self)))
            if BookingRules.expectsDriver(of: range, at: now) { expected[try row.decode(column: "lot_id", as: String.self), default: 0] += 1 }
        }
        let candidates: SQLQueryString = lotIds.map { "id IN (\(binds: $0))" } ?? "count_p <> 0"
        var stored: [String: Int] = [:]
        for row in try await sql.raw("SELECT id, count_p FROM lots WHERE \(candidates)").all() {
            stored[try row.decode(column: "id", as: String.self)] = try row.decode(column: "count_p", as: Int.self)
        }
        var changes: [String: Int] = [:]
        for lotId in Set(expected.keys).union(stored.keys) where expected[lotId, default: 0] != stored[lotId, default: 0] {
            changes[lotId] = expected[lotId, default: 0]
        }
        return changes
    }
}
