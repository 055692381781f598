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
    /// One request's reports, each with the spot its sensor is mounted on (nil: not applied,
    /// for the reason already in `outcomes`).
    struct Request: Sendable {
        var reports: [SensorReport]
        var refs: [SpotRef?]
        var outcomes: [IngestOutcome]
    }

    private struct Pending {
        var request: Request
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

    /// Validates the reports and finds their spots in the request's own task, beside other
    /// requests, so that commits (which run one at a time) only do what needs the database.
    nonisolated func ingest(_ reports: [SensorReport]) async throws -> [IngestOutcome] {
        if reports.isEmpty { return [] }
        let request = try await Self.resolve(reports, index: index, now: now())
        if !request.refs.contains(where: { $0 != nil }) { return request.outcomes }
        return try await enqueue(request)
    }

    static func resolve(_ reports: [SensorReport], index: SensorIndex, now: Date) async throws -> Request {
        var outcomes = Array(repeating: IngestOutcome.invalid, count: reports.count)
        let valid = reports.map { SensorIngest.isValid($0, now: now) }
        let refs = try await index.lookup(zip(reports, valid).compactMap { $1 ? $0.sensorId : nil }, now: now)
        var found: [SpotRef?] = []
        found.reserveCapacity(reports.count)
        var k = 0
        for (i, isValid) in valid.enumerated() {
            guard isValid else { found.append(nil); continue }
            let ref = refs[k]
            k += 1
            found.append(ref)
            if ref == nil { outcomes[i] = .unknownSensor }
        }
        return Request(reports: reports, refs: found, outcomes: outcomes)
    }

    private func enqueue(_ request: Request) async throws -> [IngestOutcome] {
        try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(request: request, continuation: continuation))
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
            while let next = queue.first, batch.isEmpty || count + next.request.reports.count <= Self.maxReportsPerCommit {
                batch.append(queue.removeFirst())
                count += next.request.reports.count
            }
            do {
                let started = ContinuousClock.now
                let (outcomes, lots, notified) = try await Self.commit(batch.map(\.request), store: store, now: now())
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

    /// A report of the commit: where it came from and the index of its spot in `spotIds`.
    private struct Work {
        var request: Int
        var position: Int
        var spot: Int
    }

    /// One transaction for many requests. Reports are applied in arrival order, so a report
    /// older than one that came before it in the same commit is stale, as it would be across commits.
    static func commit(
        _ requests: [Request], store: SQLStore, now: Date
    ) async throws -> (outcomes: [[IngestOutcome]], lots: [Components.Schemas.LotOccupancy], notified: Bool) {
        var outcomes = requests.map(\.outcomes)
        // Every spot of the commit once, numbered; reports refer to their spot by number.
        var number: [String: Int] = [:]
        var spots: [SpotRef] = []
        var work: [Work] = []
        for (r, request) in requests.enumerated() {
            for (i, ref) in request.refs.enumerated() {
                guard let ref else { continue }
                let k: Int
                if let known = number[ref.spotId] { k = known } else {
                    k = spots.count
                    number[ref.spotId] = k
                    spots.append(ref)
                }
                work.append(Work(request: r, position: i, spot: k))
            }
        }
        if work.isEmpty { return (outcomes, [], false) }
        let found = work, refs = spots

        let decided = try await store.write { sql in
            try await apply(work: found, spots: refs, requests: requests, sql: sql, isPostgres: store.isPostgres, now: now)
        }
        for (k, outcome) in decided.outcomes.enumerated() { outcomes[work[k].request][work[k].position] = outcome }
        return (outcomes, decided.lots, decided.notified)
    }

    private static func apply(
        work: [Work], spots: [SpotRef], requests: [Request], sql: any SQLDatabase, isPostgres: Bool, now: Date
    ) async throws -> (outcomes: [IngestOutcome], lots: [Components.Schemas.LotOccupancy], notified: Bool) {
        if isPostgres {
            // Event ids must become visible in id order for live readers to never skip one:
            // every writer of live events takes this lock, so commits happen in id order.
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run()
        }
        // The spots' current states, each row named by its spot's number rather than its id:
        // no id to decode and hash per row.
        let base = isPostgres ? 1 : 0 // WITH ORDINALITY counts from 1, SQLite's array keys from 0
        var current = [SpotSensorState?](repeating: nil, count: spots.count)
        let rows = try await sql.raw(readStates(of: spots.map(\.spotId), isPostgres: isPostgres)).all()
        for row in rows {
            let k = try row.decode(column: "n", as: Int.self) - base
            let code = try row.decode(column: "state", as: String.self)
            let observed = try row.decodeOptional(column: "observed_at", as: Int64.self)
            let sequence = try row.decodeOptional(column: "sequence", as: Int64.self)
            guard current.indices.contains(k) else { continue }
            current[k] = SpotSensorState(
                state: code.first.flatMap(SpotState.init(code:)) ?? .unknown,
                lastReport: observed.map { ReportPosition(observedAtMillis: $0, sequence: sequence ?? 0) })
        }

        var outcomes: [IngestOutcome] = []
        outcomes.reserveCapacity(work.count)
        let before = current
        var changedAt = [Date?](repeating: nil, count: spots.count)
        for item in work {
            guard let spot = current[item.spot] else { outcomes.append(.unknownSensor); continue }
            let report = requests[item.request].reports[item.position]
            let (outcome, next) = SensorIngest.apply(report, to: spot)
            outcomes.append(outcome)
            guard outcome == .accepted else { continue }
            current[item.spot] = next
            changedAt[item.spot] = report.observedAt
        }
        let updated = spots.indices.filter { changedAt[$0] != nil }
        guard !updated.isEmpty else { return (outcomes, [], false) }

        try await writeSpots(updated.map { (spots[$0].spotId, current[$0]!) }, sql: sql, isPostgres: isPostgres)

        // Lot counters, then one live event per spot whose shown state changed.
        let changed = updated.compactMap { k -> SpotChange? in
            guard let was = before[k]?.state, let now = current[k]?.state, was != now, let at = changedAt[k] else { return nil }
            return SpotChange(ref: spots[k], before: was, after: now, at: at)
        }
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

    /// The states of a commit's spots, locked for the commit; a row's `n` is the spot's place
    /// in `spotIds`.
    static func readStates(of spotIds: [String], isPostgres: Bool) -> SQLQueryString {
        var ids = JSONRows(reservingBytes: spotIds.count * 44)
        for id in spotIds { ids.append(.text(id)) }
        let lock = isPostgres ? " FOR UPDATE OF s" : ""
        return """
            SELECT wanted.n, s.state, s.observed_at, s.sequence
            FROM \(ids.table([("id", false)], isPostgres: isPostgres)) AS wanted JOIN spot_states s ON s.spot_id = wanted.id\(unsafeRaw: lock)
            """
    }

    /// One statement for all spots of the commit.
    private static func writeSpots(_ updates: [(spotId: String, state: SpotSensorState)], sql: any SQLDatabase, isPostgres: Bool) async throws {
        var rows = JSONRows(reservingBytes: updates.count * 80)
        for u in updates {
            let pos = u.state.lastReport
            rows.append(.text(u.spotId), .text(String(u.state.state.rawValue)), .int(pos?.observedAtMillis ?? 0), .int(pos?.sequence ?? 0))
        }
        let v = rows.table([("id", false), ("state", false), ("obs", true), ("seq", true)], isPostgres: isPostgres)
        try await sql.raw("""
            UPDATE spot_states SET state = v.state, observed_at = v.obs, sequence = v.seq
            FROM \(v) AS v WHERE spot_states.spot_id = v.id
            """).run()
    }
}
