import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

import SQLKit
import WaymarkAPI
import WaymarkCore

/// Sensor ingest with group commit (PRK-2). Requests that arrive while a transaction is being
/// written wait and go into the next one together, so one durable commit (one fsync on SQLite)
/// serves many requests and the write path approaches the database's batched write rate
/// instead of its transaction rate. A request is answered only after its commit.
///
/// Two stages, each running while there is work for it: the writer, on the writer lane, takes
/// whatever requests are waiting into one commit after another; the answerer, behind it, does
/// what follows each commit in commit order (the live merge, watchers' alerts, the answers).
/// The writer starts its next commit as soon as the previous one is in the database, on the
/// thread where that one ended, instead of waiting for it to be answered.
final class IngestService: Sendable {
    /// One request's reports, each with the spot its sensor is mounted on (nil: not applied,
    /// for the reason already in `outcomes`).
    struct Request: Sendable {
        var reports: [SensorReport]
        var refs: [SpotRef?]
        var outcomes: [IngestOutcome]
    }

    private struct Pending: Sendable {
        var request: Request
        var continuation: CheckedContinuation<[IngestOutcome], any Error>
    }

    private struct Waiting {
        var pending: [Pending] = []
        /// A writer is running, and will take what is added.
        var writing = false
        /// PostgreSQL: what this server's own commits last wrote, so that a commit need not read
        /// it back first (see `applyInOneStatement`). Held by the writer while it runs.
        var memory = CommitMemory()
    }

    /// A commit's requests and how it went, for the answerer.
    private struct Answer: Sendable {
        var batch: [Pending]
        var result: Result<Committed, any Error>
    }

    private struct Answering {
        var answers: [Answer] = []
        var running = false
    }

    private let store: SQLStore
    private let index: SensorIndex
    private let live: LiveHub
    private let alerts: LotAlertMonitor
    private let notifier: Notifier
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let waiting = NIOLockedValueBox(Waiting())
    private let answering = NIOLockedValueBox(Answering())

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
    func ingest(_ reports: [SensorReport]) async throws -> [IngestOutcome] {
        try await ingestFindingSpots(reports).outcomes
    }

    /// The same, with each report's spot (nil for an unknown sensor or an invalid report), so
    /// a gateway's traffic can be counted per site. A gateway of one site (`siteId`) finds only
    /// that site's sensors: another site's are unknown to it.
    func ingestFindingSpots(_ reports: [SensorReport], siteId: String? = nil) async throws -> (outcomes: [IngestOutcome], spots: [SpotRef?]) {
        if reports.isEmpty { return ([], []) }
        let request = try await Self.resolve(reports, index: index, now: now(), siteId: siteId)
        if !request.refs.contains(where: { $0 != nil }) { return (request.outcomes, request.refs) }
        return (try await enqueue(request), request.refs)
    }

    static func resolve(_ reports: [SensorReport], index: SensorIndex, now: Date, siteId: String? = nil) async throws -> Request {
        var outcomes = Array(repeating: IngestOutcome.invalid, count: reports.count)
        let valid = reports.map { SensorIngest.isValid($0, now: now) }
        let refs = try await index.lookup(zip(reports, valid).compactMap { $1 ? $0.sensorId : nil }, now: now)
        var found: [SpotRef?] = []
        found.reserveCapacity(reports.count)
        var k = 0
        for (i, isValid) in valid.enumerated() {
            guard isValid else { found.append(nil); continue }
            let ref = refs[k].flatMap { siteId == nil || $0.siteId == siteId ? $0 : nil }
            k += 1
            found.append(ref)
            if ref == nil { outcomes[i] = .unknownSensor }
        }
        return Request(reports: reports, refs: found, outcomes: outcomes)
    }

    private func enqueue(_ request: Request) async throws -> [IngestOutcome] {
        try await withCheckedThrowingContinuation { continuation in
            let start = waiting.withLockedValue { w in
                w.pending.append(Pending(request: request, continuation: continuation))
                if w.writing { return false }
                w.writing = true
                return true
            }
            // On the writer lane, where the transaction runs anyway: the commit's own work
            // (numbering, judging, the rows to write) goes there too.
            if start { Task(executorPreference: store.lane.executor) { await self.write() } }
        }
    }

    private typealias Committed = (outcomes: [[IngestOutcome]], lots: [Components.Schemas.LotOccupancy], notified: Bool)

    /// The writer: commits what is waiting, batch after batch, until nothing is.
    private func write() async {
        var memory = waiting.withLockedValue { w in
            let memory = w.memory
            w.memory = CommitMemory() // moved out, so that learning does not copy it
            return memory
        }
        while let batch = nextBatch(leaving: memory) {
            let started = ContinuousClock.now
            do {
                let (outcomes, lots, notified, learned) = try await Self.commit(batch.map(\.request), store: store, now: now(), memory: memory)
                memory.learn(learned)
                ServerMetrics.registry.makeDurationHistogram(
                    name: "waymark_ingest_commit_duration_seconds", buckets: ServerMetrics.latencyBuckets
                ).record(ContinuousClock.now - started)
                answer(Answer(batch: batch, result: .success((outcomes, lots, notified))))
            } catch {
                answer(Answer(batch: batch, result: .failure(error)))
            }
        }
    }

    /// The waiting requests, up to `maxReportsPerCommit` reports; nil when none wait, and then
    /// the writer stops (leaving what it remembers for the next one) in the same step.
    private func nextBatch(leaving memory: CommitMemory) -> [Pending]? {
        waiting.withLockedValue { w in
            guard !w.pending.isEmpty else {
                w.writing = false
                w.memory = memory
                return nil
            }
            var taken = 0, count = 0
            while taken < w.pending.count, taken == 0 || count + w.pending[taken].request.reports.count <= Self.maxReportsPerCommit {
                count += w.pending[taken].request.reports.count
                taken += 1
            }
            let batch = Array(w.pending.prefix(taken))
            w.pending.removeFirst(taken)
            return batch
        }
    }

    private func answer(_ answer: Answer) {
        let start = answering.withLockedValue { a in
            a.answers.append(answer)
            if a.running { return false }
            a.running = true
            return true
        }
        if start { Task { await self.answerAll() } }
    }

    /// The answerer: what follows each commit, in commit order.
    private func answerAll() async {
        while let next = answering.withLockedValue({ a -> Answer? in
            if a.answers.isEmpty { a.running = false; return nil }
            return a.answers.removeFirst()
        }) {
            switch next.result {
            case .success(let (outcomes, lots, notified)):
                // Written through before answering, so whoever reads after the acknowledgement
                // sees the change; the tailer delivers the same versions again, harmlessly.
                live.merge(lots)
                live.poke()
                if notified { notifier.delivered() }
                // Watchers' alerts (PRK-15) before answering, so that whoever reads after the
                // acknowledgement sees them; this costs a query only when a watched lot's
                // announced level moves.
                await alerts.occupancyChanged(lots)
                for (pending, result) in zip(next.batch, outcomes) { pending.continuation.resume(returning: result) }
                ServerMetrics.recordIngest(outcomes.joined(), requests: next.batch.count)
            case .failure(let error):
                logger.error("ingest commit failed", metadata: ["error": .string(String(reflecting: error)), "requests": .stringConvertible(next.batch.count)])
                for pending in next.batch { pending.continuation.resume(throwing: error) }
            }
        }
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
        _ requests: [Request], store: SQLStore, now: Date, memory: CommitMemory = CommitMemory()
    ) async throws -> (outcomes: [[IngestOutcome]], lots: [Components.Schemas.LotOccupancy], notified: Bool, learned: CommitMemory.Lesson) {
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
        if work.isEmpty { return (outcomes, [], false, .init()) }
        let found = work, refs = spots

        var applied: Decided?
        var learned = CommitMemory.Lesson()
        if store.isPostgres {
            (applied, learned) = try await applyInOneStatement(work: found, spots: refs, requests: requests, sql: store.sql, memory: memory, now: now)
        }
        let decided: Decided
        if let applied { decided = applied } else {
            decided = try await store.write { sql in
                try await apply(work: found, spots: refs, requests: requests, sql: sql, isPostgres: store.isPostgres, now: now)
            }
        }
        for (k, outcome) in decided.outcomes.enumerated() { outcomes[work[k].request][work[k].position] = outcome }
        return (outcomes, decided.lots, decided.notified, learned)
    }

    private typealias Decided = (outcomes: [IngestOutcome], lots: [Components.Schemas.LotOccupancy], notified: Bool)

    /// The spots' states as read, and as the commit's reports leave them.
    private struct Judged {
        /// One per report of the commit, in `work` order.
        var outcomes: [IngestOutcome] = []
        /// The stored columns as read.
        var stored: [StoredSpotState?]
        var after: [SpotSensorState?]
        /// When an accepted report last moved the spot; nil: the spot is not written.
        var changedAt: [Date?]

        var updated: [Int] { after.indices.filter { changedAt[$0] != nil } }

        /// The spots whose shown state changed.
        func changes(_ spots: [SpotRef]) -> [SpotChange] {
            updated.compactMap { k -> SpotChange? in
                guard let was = stored[k]?.state, let now = after[k]?.state, was != now, let at = changedAt[k] else { return nil }
                return SpotChange(ref: spots[k], before: was, after: now, at: at)
            }
        }
    }

    /// Reads the spots' states (each row named by its spot's number rather than its id: no id
    /// to decode and hash per row); nil where a spot has none.
    private static func read(_ spotIds: [String], sql: any SQLDatabase, isPostgres: Bool, locking: Bool) async throws -> [StoredSpotState?] {
        let base = isPostgres ? 1 : 0 // WITH ORDINALITY counts from 1, SQLite's array keys from 0
        var stored = [StoredSpotState?](repeating: nil, count: spotIds.count)
        guard !spotIds.isEmpty else { return stored }
        for row in try await sql.raw(readStates(of: spotIds, isPostgres: isPostgres, locking: locking)).all() {
            let k = try row.decode(column: "n", as: Int.self) - base
            guard stored.indices.contains(k) else { continue }
            stored[k] = StoredSpotState(
                state: try row.decode(column: "state", as: String.self).first.flatMap(SpotState.init(code:)) ?? .unknown,
                observedAt: try row.decodeOptional(column: "observed_at", as: Int64.self),
                sequence: try row.decodeOptional(column: "sequence", as: Int64.self))
        }
        return stored
    }

    /// Applies the reports to the spots' states in arrival order.
    private static func judge(work: [Work], requests: [Request], stored: [StoredSpotState?]) -> Judged {
        var judged = Judged(stored: stored, after: [], changedAt: Array(repeating: nil, count: stored.count))
        var current = stored.map { $0?.sensorState }
        judged.outcomes.reserveCapacity(work.count)
        for item in work {
            guard let spot = current[item.spot] else { judged.outcomes.append(.unknownSensor); continue }
            let report = requests[item.request].reports[item.position]
            let (outcome, next) = SensorIngest.apply(report, to: spot)
            judged.outcomes.append(outcome)
            guard outcome == .accepted else { continue }
            current[item.spot] = next
            judged.changedAt[item.spot] = report.observedAt
        }
        judged.after = current
        return judged
    }

    /// The commit as a transaction: everything read under the locks it writes with.
    private static func apply(
        work: [Work], spots: [SpotRef], requests: [Request], sql: any SQLDatabase, isPostgres: Bool, now: Date
    ) async throws -> Decided {
        if isPostgres {
            // Event ids must become visible in id order for live readers to never skip one:
            // every writer of live events takes this lock, so commits happen in id order.
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run()
        }
        let stored = try await read(spots.map(\.spotId), sql: sql, isPostgres: isPostgres, locking: true)
        let judged = judge(work: work, requests: requests, stored: stored)
        let updated = judged.updated
        guard !updated.isEmpty else { return (judged.outcomes, [], false) }

        try await writeSpots(updated.map { (spots[$0].spotId, judged.after[$0]!) }, sql: sql, isPostgres: isPostgres)

        // Lot counters, then one live event per spot whose shown state changed.
        let changed = judged.changes(spots)
        // A car on a held spot turns the hold into the question "was it you?" (PRK-10).
        let taken = changed.filter { $0.before == .held && $0.after == .occupied }.map(\.ref.spotId)
        var asking: [NotificationDraft] = []
        if !taken.isEmpty {
            // The holder is told in the same transaction (PRK-15): "was it you?" exists exactly
            // when the hold asks it.
            for asked in try await HoldStore.markAsked(spotIds: taken, at: now, sql: sql) {
                if let hold = try await HoldStore.hold(id: asked.holdId, sql: sql) { asking.append(HoldNotices.asking(hold)) }
            }
        }
        let lots = try await SpotChanges.record(changed, sql: sql, isPostgres: isPostgres, now: now)
        try await Notifier.post(asking, at: now, within: sql)
        return (judged.outcomes, lots, !asking.isEmpty)
    }

    /// PostgreSQL: the commit in one statement (see `CreateSensorCommitFunction`), decided from
    /// states this server's last commits wrote (`memory`) or, for spots and lots it has not
    /// written yet, read without a transaction. Every round trip to PostgreSQL costs a commit
    /// more than the database's work on it, so in the steady state this is the only one.
    ///
    /// `decided` is nil when the commit cannot be made this way: a car arrived on a held spot
    /// (that commit also writes the hold and its notification), or something it was decided
    /// from had changed (a hold, another server); then nothing was written, what was
    /// remembered of its spots and lots is forgotten, and the caller runs `apply`, which reads
    /// again under locks. A remembered report position can only be older than the stored one
    /// (positions only grow), so a report judged duplicate or stale by it is that by the stored
    /// one too; an accepted one is checked by the function.
    private static func applyInOneStatement(
        work: [Work], spots: [SpotRef], requests: [Request], sql: any SQLDatabase, memory: CommitMemory, now: Date
    ) async throws -> (decided: Decided?, learned: CommitMemory.Lesson) {
        var stored = spots.map { memory.spots[$0.spotId] }
        let unknown = stored.indices.filter { stored[$0] == nil }
        if !unknown.isEmpty {
            let read = try await read(unknown.map { spots[$0].spotId }, sql: sql, isPostgres: true, locking: false)
            for (i, k) in unknown.enumerated() { stored[k] = read[i] }
        }
        let judged = judge(work: work, requests: requests, stored: stored)
        var learned = CommitMemory.Lesson()
        for k in unknown { if let s = stored[k] { learned.spots.append((spots[k].spotId, s)) } }
        let updated = judged.updated
        guard !updated.isEmpty else { return ((judged.outcomes, [], false), learned) }
        let changed = judged.changes(spots)
        let forget = CommitMemory.Lesson(forgetSpots: spots.map(\.spotId), forgetLots: Array(Set(spots.map(\.lotId))))
        if changed.contains(where: { $0.before == .held && $0.after == .occupied }) { return (nil, forget) }

        var spotRows = JSONRows(reservingBytes: updated.count * 96)
        for k in updated {
            guard let before = judged.stored[k], let after = judged.after[k].map(StoredSpotState.init) else { continue }
            let column = { (n: Int64?) in n.map { JSONRows.Value.int($0) } ?? .null }
            spotRows.append(.text(spots[k].spotId), .text(String(before.state.rawValue)), column(before.observedAt), column(before.sequence),
                            .text(String(after.state.rawValue)), column(after.observedAt), column(after.sequence))
            learned.spots.append((spots[k].spotId, after))
        }
        var lotRows = JSONRows()
        var events: [LiveEventRecord] = []
        var lotAfter: [String: LotCountsRow] = [:]
        if !changed.isEmpty {
            let deltas = SpotChanges.deltas(changed, now: now)
            var lotBefore = memory.lots
            let missing = deltas.map(\.lotId).filter { lotBefore[$0] == nil }
            if !missing.isEmpty {
                for lot in try await sql.raw("SELECT \(unsafeRaw: LotCountsRow.columns) FROM lots WHERE id IN (\(binds: missing))")
                    .all(decoding: LotCountsRow.self, keyDecodingStrategy: .convertFromSnakeCase) { lotBefore[lot.id] = lot }
            }
            for d in deltas {
                guard let lot = lotBefore[d.lotId] else { return (nil, forget) }
                let after = SpotChanges.moved(lot, by: d.delta, at: d.at)
                lotAfter[d.lotId] = after
                lotRows.append(.text(lot.id), .int(lot.version), .int(Int64(after.countF)), .int(Int64(after.countO)), .int(Int64(after.countH)),
                               .int(Int64(after.countB)), .int(Int64(after.countC)), .int(Int64(after.countU)), .int(after.lastChangeAt ?? now.millis))
            }
            events = try SpotChanges.events(changed, lotAfter: lotAfter, now: now)
        }
        let eventRows = EventLog.rows(events)
        do {
            try await sql.raw("""
                SELECT \(unsafeRaw: CreateSensorCommitFunction.function)(\(bind: LiveHub.appendLockKey),
                  \(bind: spotRows.json)::jsonb, \(bind: lotRows.json)::jsonb, \(bind: eventRows.json)::jsonb)
                """).run()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "40001" {
            return (nil, forget)
        }
        learned.lots = Array(lotAfter.values)
        return ((judged.outcomes, lotAfter.values.map(ParkingMapping.occupancy), false), learned)
    }

    /// The states of a commit's spots (`locking`: locked for the commit, on PostgreSQL); a row's
    /// `n` is the spot's place in `spotIds`.
    static func readStates(of spotIds: [String], isPostgres: Bool, locking: Bool = true) -> SQLQueryString {
        var ids = JSONRows(reservingBytes: spotIds.count * 44)
        for id in spotIds { ids.append(.text(id)) }
        let lock = isPostgres && locking ? " FOR UPDATE OF s" : ""
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

/// A spot's row in `spot_states`, as stored.
struct StoredSpotState: Sendable, Equatable {
    var state: SpotState
    var observedAt: Int64?
    var sequence: Int64?

    init(state: SpotState, observedAt: Int64?, sequence: Int64?) {
        self.state = state
        self.observedAt = observedAt
        self.sequence = sequence
    }

    /// As the ingest writes a sensor state.
    init(_ s: SpotSensorState) {
        self.init(state: s.state, observedAt: s.lastReport?.observedAtMillis ?? 0, sequence: s.lastReport?.sequence ?? 0)
    }

    var sensorState: SpotSensorState {
        SpotSensorState(state: state, lastReport: observedAt.map { ReportPosition(observedAtMillis: $0, sequence: sequence ?? 0) })
    }
}

/// What the ingest's own PostgreSQL commits last wrote of spots and lots (see
/// `IngestService.applyInOneStatement`). Only this server's ingest commits teach it; whatever
/// else changes a spot or lot is found out when a commit built on the old value is refused.
struct CommitMemory: Sendable {
    private(set) var spots: [String: StoredSpotState] = [:]
    private(set) var lots: [String: LotCountsRow] = [:]

    /// Spots remembered at most: a site of this many spots is far beyond a campus, and past it
    /// the memory starts again rather than grow.
    static let capacity = 200_000

    struct Lesson: Sendable {
        var spots: [(spotId: String, state: StoredSpotState)] = []
        var lots: [LotCountsRow] = []
        var forgetSpots: [String] = []
        var forgetLots: [String] = []
    }

    mutating func learn(_ lesson: Lesson) {
        for id in lesson.forgetSpots { spots[id] = nil }
        for id in lesson.forgetLots { lots[id] = nil }
        if spots.count + lesson.spots.count > Self.capacity { spots = [:] }
        for (id, state) in lesson.spots { spots[id] = state }
        for lot in lesson.lots { lots[lot.id] = lot }
    }
}
