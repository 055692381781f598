import Foundation
import Logging
import SQLKit
import WaymarkAPI
import WaymarkCore

/// A sensor that has reported and then stays quiet for longer than a working sensor ever does
/// (its keep-alive) has lost power or signal: its spot becomes unknown rather than showing its
/// last state as if it were true. The spot takes the sensor's state again with its next report.
/// Spots never reported (a demo's generated states) and held, booked or closed spots are left.
struct SilentSensors: Sendable {
    let store: SQLStore
    let live: LiveHub
    let keepAlive: TimeInterval
    let now: @Sendable () -> Date
    /// Spots turned unknown per transaction; a site whose gateway died is done in a few.
    var batch = 2_000

    /// Spots turned unknown, over all sites.
    @discardableResult
    func sweep() async throws -> Int {
        var total = 0
        while true {
            let instant = now(), cutoff = instant.addingTimeInterval(-keepAlive).millis, batch = batch
            let isPostgres = store.sql.dialect.name == "postgresql"
            let (count, lots) = try await store.write { sql -> (Int, [Components.Schemas.LotOccupancy]) in
                // Every writer of spot states takes this lock, so the states read stay true until commit.
                if isPostgres { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run() }
                let rows = try await sql.raw("""
                    SELECT ss.spot_id, ss.state, s.ordinal, s.lot_id, l.site_id FROM spot_states ss
                    JOIN spots s ON s.id = ss.spot_id JOIN lots l ON l.id = s.lot_id
                    WHERE ss.state IN ('f', 'o') AND ss.observed_at > 0 AND ss.observed_at < \(bind: cutoff)
                    LIMIT \(unsafeRaw: String(batch))
                    """).all()
                guard !rows.isEmpty else { return (0, []) }
                var changes: [SpotChange] = []
                for row in rows {
                    let ref = SpotRef(spotId: try row.decode(column: "spot_id", as: String.self), lotId: try row.decode(column: "lot_id", as: String.self),
                                      siteId: try row.decode(column: "site_id", as: String.self), ordinal: try row.decode(column: "ordinal", as: Int.self))
                    let before = try row.decode(column: "state", as: String.self).first.flatMap(SpotState.init(code:)) ?? .unknown
                    changes.append(SpotChange(ref: ref, before: before, after: .unknown, at: instant))
                }
                var ids = JSONRows(reservingBytes: changes.count * 44)
                for c in changes { ids.append(.text(c.ref.spotId)) }
                try await sql.raw("""
                    UPDATE spot_states SET state = 'u'
                    WHERE spot_id IN (SELECT v.id FROM \(ids.table([("id", false)], isPostgres: isPostgres)) AS v)
                    """).run()
                return (changes.count, try await SpotChanges.record(changes, sql: sql, isPostgres: isPostgres, now: instant))
            }
            if !lots.isEmpty {
                live.merge(lots)
                live.poke()
            }
            total += count
            if count < batch { return total }
        }
    }

    func run(logger: Logger, every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            do {
                let n = try await sweep()
                if n > 0 { logger.notice("spots of silent sensors are unknown now", metadata: ["spots": .stringConvertible(n)]) }
            } catch {
                logger.error("silent sensor sweep failed", metadata: ["error": .string(String(reflecting: error))])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
