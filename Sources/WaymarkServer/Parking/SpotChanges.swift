import Foundation
import SQLKit
import WaymarkAPI
import WaymarkCore

/// A spot whose shown state changed, by a sensor or by a hold.
struct SpotChange: Sendable {
    var ref: SpotRef
    var before: SpotState
    var after: SpotState
    var at: Date
}

/// What every writer of spot states does after changing `spot_states.state`, inside its
/// transaction: the lots' counters move and one live event per changed spot is appended, as
/// one row per lot (`SpotEventRow`).
/// On PostgreSQL the caller holds `LiveHub.appendLockKey`.
enum SpotChanges {
    static func record(_ changed: [SpotChange], sql: any SQLDatabase, isPostgres: Bool, now: Date) async throws -> [Components.Schemas.LotOccupancy] {
        guard !changed.isEmpty else { return [] }
        var lotAfter: [String: LotCountsRow] = [:]
        for row in try await updateLots(deltas(changed, now: now), sql: sql, isPostgres: isPostgres) { lotAfter[row.id] = row }
        try await EventLog.append(try events(changed, lotAfter: lotAfter, now: now), sql: sql)
        return lotAfter.values.map(ParkingMapping.occupancy)
    }

    /// How each lot's counters move, and the time of its last change.
    static func deltas(_ changed: [SpotChange], now: Date) -> [(lotId: String, delta: LotCounts, at: Date)] {
        Dictionary(grouping: changed, by: \.ref.lotId).map { lotId, changes in
            var delta = LotCounts()
            for c in changes {
                delta[c.before] -= 1
                delta[c.after] += 1
            }
            return (lotId, delta, max(changes.map(\.at).max() ?? now, now))
        }
    }

    /// A lot's counters after `deltas` moved them, as the update in `record` leaves them.
    static func moved(_ lot: LotCountsRow, by delta: LotCounts, at: Date) -> LotCountsRow {
        var after = lot
        after.countF += delta.free
        after.countO += delta.occupied
        after.countH += delta.held
        after.countB += delta.booked
        after.countC += delta.closed
        after.countU += delta.unknown
        after.version += 1
        after.lastChangeAt = at.millis
        return after
    }

    /// One row per lot with all of its changes (`SpotEventRow`), in the order of their times,
    /// each carrying its lot as it is after the changes.
    static func events(_ changed: [SpotChange], lotAfter: [String: LotCountsRow], now: Date) throws -> [LiveEventRecord] {
        var events: [LiveEventRecord] = []
        for (lotId, changes) in Dictionary(grouping: changed, by: \.ref.lotId).sorted(by: { $0.key < $1.key }) {
            guard let row = lotAfter[lotId], let first = changes.first else { continue }
            let ordered = changes.sorted { ($0.at, $0.ref.ordinal) < ($1.at, $1.ref.ordinal) }
            let payload = SpotEventRow.payload(
                lotJSON: try LiveEncoding.encode(ParkingMapping.occupancy(row)),
                changes: ordered.map { SpotEventRow.Change(ordinal: $0.ref.ordinal, state: $0.after, atMillis: $0.at.millis) })
            events.append(LiveEventRecord(siteId: first.ref.siteId, lotId: lotId, at: now, kind: SpotEventRow.kind, payload: payload,
                                          count: ordered.count))
        }
        return events
    }

    /// All lots' counters in one statement, returning them as they are after it.
    private static func updateLots(_ deltas: [(lotId: String, delta: LotCounts, at: Date)], sql: any SQLDatabase, isPostgres: Bool) async throws -> [LotCountsRow] {
        guard !deltas.isEmpty else { return [] }
        let rows: [SQLQueryString] = deltas.map { d in
            let c = d.delta
            return "(\(bind: d.lotId), \(bind: c.free), \(bind: c.occupied), \(bind: c.held), \(bind: c.booked), \(bind: c.closed), \(bind: c.unknown), \(bind: d.at.millis))"
        }
        let values = rows.joined(separator: ", ")
        let from: SQLQueryString = isPostgres
            ? "(VALUES \(values)) AS v(lot, f, o, h, b, c, u, at)"
            : "(SELECT column1 AS lot, column2 AS f, column3 AS o, column4 AS h, column5 AS b, column6 AS c, column7 AS u, column8 AS at FROM (VALUES \(values))) AS v"
        return try await sql.raw("""
            UPDATE lots SET count_f = count_f + v.f, count_o = count_o + v.o, count_h = count_h + v.h,
              count_b = count_b + v.b, count_c = count_c + v.c, count_u = count_u + v.u,
              version = version + 1, last_change_at = v.at
            FROM \(from) WHERE lots.id = v.lot RETURNING \(unsafeRaw: LotCountsRow.columns)
            """).all(decoding: LotCountsRow.self, keyDecodingStrategy: .convertFromSnakeCase)
    }
}
