import Foundation
import Logging

import SQLKit
import WaymarkAPI
import WaymarkCore

/// Sensor ingest with group commit (PRK-2). Requests that arrive while a transaction is being
/// written wait and go into the next one together, so one durable commit (one fsync on SQLite)
/// serves many requests and the write path approaches the database's batched write rate
/// instead of its transaction rate. A request is answered only after its commit.
actor IngestService {
    private struct Pending {
        var reports: [SensorReport]
        var continuation: CheckedContinuation<[IngestOutcome], any Error>
    }

    private let store: SQLStore
    private let index: SensorIndex
    private let live: LiveHub
    private let alerts: LotAlertMonitor
    private let notifier: Notifier
    private let now: @Sendable () -> Date
    private let logger: Logger
    private var queue: [Pending] = []
    private var draining = false

    /// Bounds one transaction, so that a flood of requests cannot build a commit that holds the
    /// write lock for long.
    static let maxReportsPerCommit = 20_000

    init(store: SQLStore, index: SensorIndex, live: LiveHub, alerts: LotAlertMonitor, notifier: Notifier,
         now: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.index = index
        self.live = live
        self.alerts = alerts
        self.notifier = notifier
        self.now = now
        self.logger = logger
    }

    func ingest(_ reports: [SensorReport]) async throws -> [IngestOutcome] {
        if reports.isEmpty { return [] }
        return try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(reports: reports, continuation: continuation))
            if !draining {
                draining = true
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while !queue.isEmpty {
            var batch: [Pending] = []
            var count = 0
            while let next = queue.first, batch.isEmpty || count + next.reports.count <= Self.maxReportsPerCommit {
                batch.append(queue.removeFirst())
                count += next.reports.count
            }
            do {
                let started = ContinuousClock.now
                let (outcomes, lots, notified) = try await Self.commit(batch.map(\.reports), store: store, index: index, now: now())
                ServerMetrics.registry.makeDurationHistogram(
                    name: "waymark_ingest_commit_duration_seconds", buckets: ServerMetrics.latencyBuckets
                ).record(ContinuousClock.now - started)
                // Written through before answering, so whoever reads after the acknowledgement
                // sees the change; the tailer delivers the same versions again, harmlessly.
                live.merge(lots)
                live.poke()
                if notified { notifier.delivered() }
                // Watchers' alerts (PRK-15) before answering, so that whoever reads after the
                // acknowledgement sees them; this costs a query only when a watched lot's
                // announced level moves.
                await alerts.occupancyChanged(lots)
                for (pending, result) in zip(batch, outcomes) { pending.continuation.resume(returning: result) }
                ServerMetrics.recordIngest(outcomes.joined(), requests: batch.count)
            } catch {
                logger.error("ingest commit failed", metadata: ["error": .string(String(reflecting: error)), "requests": .stringConvertible(batch.count)])
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
        draining = false
    }

    /// One transaction for many requests. Reports are applied in arrival order, so a report
    /// older than one that came before it in the same commit is stale, as it would be across commits.
    static func commit(
        _ requests: [[SensorReport]], store: SQLStore, index: SensorIndex, now: Date
    ) async throws -> (outcomes: [[IngestOutcome]], lots: [Components.Schemas.LotOccupancy], notified: Bool) {
        var outcomes = requests.map { Array(repeating: IngestOutcome.invalid, count: $0.count) }
        let sensorIds = Set(requests.joined().lazy.filter { SensorIngest.isValid($0, now: now) }.map(\.sensorId))
        let refs = try await index.lookup(sensorIds, now: now)

        // (request, position) of every valid report with a known sensor, in arrival order.
        var work: [(r: Int, i: Int, ref: SpotRef)] = []
        for (r, reports) in requests.enumerated() {
            for (i, report) in reports.enumerated() where SensorIngest.isValid(report, now: now) {
                if let ref = refs[report.sensorId] { work.append((r, i, ref)) } else { outcomes[r][i] = .unknownSensor }
            }
        }
        if work.isEmpty { return (outcomes, [], false) }
        let found = work

        let decided = try await store.write { sql in
            try await apply(work: found, requests: requests, sql: sql, isPostgres: store.isPostgres, now: now)
        }
        for (k, outcome) in decided.outcomes.enumerated() { outcomes[work[k].r][work[k].i] = outcome }
        return (outcomes, decided.lots, decided.notified)
    }

    private struct SpotUpdate {
        var ref: SpotRef
        var before: SpotState
        var after: SpotSensorState
        var at: Date
    }

    private static func apply(
        work: [(r: Int, i: Int, ref: SpotRef)], requests: [[SensorReport]], sql: any SQLDatabase, isPostgres: Bool, now: Date
    ) async throws -> (outcomes: [IngestOutcome], lots: [Components.Schemas.LotOccupancy], notified: Bool) {
        if isPostgres {
            // Event ids must become visible in id order for live readers to never skip one:
            // every writer of live events takes this lock, so commits happen in id order.
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run()
        }
        var ids = JSONRows(reservingBytes: work.count * 44)
        for id in Set(work.map(\.ref.spotId)).sorted() { ids.append(.text(id)) }
        let lock = isPostgres ? " FOR UPDATE" : ""
        var current: [String: SpotSensorState] = [:]
        let rows = try await sql.raw("""
            SELECT id, state, observed_at, sequence FROM spots
            WHERE id IN (SELECT id FROM \(ids.table([("id", false)], isPostgres: isPostgres)) AS wanted)\(unsafeRaw: lock)
            """).all()
        for row in rows {
            let code = try row.decode(column: "state", as: String.self)
            let observed = try row.decodeOptional(column: "observed_at", as: Int64.self)
            let sequence = try row.decodeOptional(column: "sequence", as: Int64.self)
            current[try row.decode(column: "id", as: String.self)] = SpotSensorState(
                state: code.first.flatMap(SpotState.init(code:)) ?? .unknown,
                lastReport: observed.map { ReportPosition(observedAtMillis: $0, sequence: sequence ?? 0) })
        }

        var outcomes: [IngestOutcome] = []
        outcomes.reserveCapacity(work.count)
        var updates: [String: SpotUpdate] = [:]
        for item in work {
            guard let spot = current[item.ref.spotId] else { outcomes.append(.unknownSensor); continue }
            let report = requests[item.r][item.i]
            let (outcome, next) = SensorIngest.apply(report, to: spot)
            outcomes.append(outcome)
            guard outcome == .accepted else { continue }
            current[item.ref.spotId] = next
            if var u = updates[item.ref.spotId] {
                u.after = next
                u.at = report.observedAt
                updates[item.ref.spotId] = u
            } else {
                updates[item.ref.spotId] = SpotUpdate(ref: item.ref, before: spot.state, after: next, at: report.observedAt)
            }
        }
        guard !updates.isEmpty else { return (outcomes, [], false) }

        try await writeSpots(Array(updates.values), sql: sql, isPostgres: isPostgres)

        // Lot counters, then one live event per spot whose shown state changed.
        let changed = updates.values.filter { $0.before != $0.after.state }
            .map { SpotChange(ref: $0.ref, before: $0.before, after: $0.after.state, at: $0.at) }
        // A car on a held spot turns the hold into the question "was it you?" (PRK-10).
        let taken = changed.filter { $0.before == .held && $0.after == .occupied }.map(\.ref.spotId)
        var asking: [NotificationDraft] = []
        if !taken.isEmpty {
            // The holder is told in the same transaction (PRK-15): "was it you?" exists exactly
            // when the hold asks it.
            for asked in try await HoldStore.markAsked(spotIds: taken, at: now, sql: sql) {
                if let hold = try await HoldStore.hold(id: asked.holdId, sql: sql) { asking.append(NotificationTexts.holdAsking(hold)) }
            }
        }
        let lots = try await SpotChanges.record(changed, sql: sql, isPostgres: isPostgres, now: now)
        try await NotificationStore.insert(asking, at: now, sql: sql)
        return (outcomes, lots, !asking.isEmpty)
    }

    /// One statement for all spots of the commit.
    private static func writeSpots(_ updates: [SpotUpdate], sql: any SQLDatabase, isPostgres: Bool) async throws {
        var rows = JSONRows(reservingBytes: updates.count * 80)
        for u in updates {
            let pos = u.after.lastReport
            rows.append(.text(u.ref.spotId), .text(String(u.after.state.rawValue)), .int(pos?.observedAtMillis ?? 0), .int(pos?.sequence ?? 0))
        }
        let v = rows.table([("id", false), ("state", false), ("obs", true), ("seq", true)], isPostgres: isPostgres)
        try await sql.raw("""
            UPDATE spots SET state = v.state, observed_at = v.obs, sequence = v.seq
            FROM \(v) AS v WHERE spots.id = v.id
            """).run()
    }
}
