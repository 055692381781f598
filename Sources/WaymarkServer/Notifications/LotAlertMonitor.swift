import Foundation
import Logging
import SQLKit
import WaymarkAPI
import WaymarkCore

/// Turns occupancy changes of watched lots into "almost full" and "full" (PRK-15), by the rules
/// of `LotAlerts`. It sees the counters every writer already has after its commit, so the
/// ingest path pays nothing for lots nobody watches and, for watched lots, a query only when
/// the announced level moves. The level lives in `lot_alerts`; a conditional update decides
/// which server instance announces a change, so watchers hear it once.
actor LotAlertMonitor {
    /// How long the set of watched lots is trusted before it is read again (watches made on
    /// another instance arrive within this; local ones at once).
    static let watchedTTL: Duration = .seconds(30)

    private let store: SQLStore
    private let notifier: Notifier
    private let logger: Logger
    private var watched: Set<String> = []
    private var watchedReadAt: ContinuousClock.Instant?
    private var levels: [String: (level: LotAlertLevel, version: Int64)] = [:]

    init(store: SQLStore, notifier: Notifier, logger: Logger) {
        self.store = store
        self.notifier = notifier
        self.logger = logger
    }

    /// A watch was added or removed here: the next change is judged with the new set.
    func watchesChanged() { watchedReadAt = nil }

    /// Never throws at the writer: a failed announcement is logged, and the next change retries.
    func occupancyChanged(_ lots: [Components.Schemas.LotOccupancy]) async {
        guard !lots.isEmpty else { return }
        do {
            try await refreshWatched()
            for lot in lots where watched.contains(lot.lotId) { try await judge(lot) }
        } catch {
            logger.error("notifications: lot alert failed", metadata: ["error": .string(String(reflecting: error))])
        }
    }

    private func refreshWatched() async throws {
        let clock = ContinuousClock()
        if let readAt = watchedReadAt, clock.now - readAt < Self.watchedTTL { return }
        let rows = try await store.sql.raw("SELECT DISTINCT lot_id FROM lot_watches").all()
        watched = Set(try rows.map { try $0.decode(column: "lot_id", as: String.self) })
        watchedReadAt = clock.now
        levels = levels.filter { watched.contains($0.key) }
    }

    private func judge(_ lot: Components.Schemas.LotOccupancy) async throws {
        let known: (level: LotAlertLevel, version: Int64)
        if let cached = levels[lot.lotId] { known = cached } else { known = try await stored(lotId: lot.lotId) ?? (.clear, 0) }
        // Writers finish in any order; an older count must not undo a newer one.
        guard lot.version > known.version else { levels[lot.lotId] = known; return }
        let counts = LotCounts(free: lot.free, occupied: lot.occupied, held: lot.held, booked: lot.booked,
                               closed: lot.closed, unknown: lot.unknown)
        let step = LotAlerts.next(after: known.level, counts: counts)
        guard step.level != known.level else {
            levels[lot.lotId] = (known.level, lot.version)
            return
        }
        let (lotId, version, from) = (lot.lotId, lot.version, known.level)
        let now = notifier.now()
        let won = try await store.write { sql -> Bool in
            let moved = try await sql.raw("""
                UPDATE lot_alerts SET level = \(bind: step.level.rawValue), version = \(bind: version), changed_at = \(bind: now.millis)
                WHERE lot_id = \(bind: lotId) AND level = \(bind: from.rawValue) AND version < \(bind: version) RETURNING lot_id
                """).first() != nil
            let inserted = moved ? false : try await sql.raw("""
                INSERT INTO lot_alerts (lot_id, level, version, changed_at)
                VALUES (\(bind: lotId), \(bind: step.level.rawValue), \(bind: version), \(bind: now.millis))
                ON CONFLICT (lot_id) DO NOTHING RETURNING lot_id
                """).first() != nil
            guard moved || inserted else { return false }
            guard let announce = step.announce else { return true }
            let watchers = try await NotificationStore.watchers(lotId: lotId, sql: sql)
            let name = try await sql.raw("SELECT name FROM lots WHERE id = \(bind: lotId)").first()?.decode(column: "name", as: String.self) ?? "A lot you watch"
            let drafts = watchers.compactMap {
                NotificationTexts.lotAlert(announce, userId: $0, lotId: lotId, lotName: name, counts: counts)
            }
            try await NotificationStore.insert(drafts, at: now, sql: sql)
            return true
        }
        if won {
            levels[lotId] = (step.level, version)
            if step.announce != nil { notifier.delivered() }
        } else {
            // Another instance moved it first (or our memory was behind): believe the table.
            levels[lotId] = try await stored(lotId: lotId) ?? (.clear, 0)
        }
    }

    private func stored(lotId: String) async throws -> (level: LotAlertLevel, version: Int64)? {
        guard let row = try await store.sql.raw("SELECT level, version FROM lot_alerts WHERE lot_id = \(bind: lotId)").first() else { return nil }
        return (LotAlertLevel(rawValue: try row.decode(column: "level", as: String.self)) ?? .clear,
                try row.decode(column: "version", as: Int64.self))
    }
}
