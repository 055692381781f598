import Foundation
import Logging
import SQLKit
import WaymarkAPI
import WaymarkCore

/// Soft holds (PRK-9, PRK-10). Every decision is one write transaction: the spot turns from
/// free to held only if it is free at that moment, so of any number of simultaneous requests
/// exactly one wins. On PostgreSQL the transaction first takes the live-event lock that every
/// writer of spot states takes, which also orders it against ingest.
struct HoldService: Sendable {
    let store: SQLStore
    let accounts: AccountQueries
    let live: LiveHub
    let notifier: Notifier
    let alerts: LotAlertMonitor
    let now: @Sendable () -> Date

    private var isPostgres: Bool { store.isPostgres }

    /// The spot and what decides who may park on it.
    private struct SpotInfo: Sendable {
        var ref: SpotRef
        var center: Coordinate
        var category: SpotCategory
        var rules: [PermitRule]
        var timeZone: TimeZone
        var state: SpotState
        /// The site's permits, for their names.
        var permitKinds: [PermitKind]
    }

    func create(_ principal: Principal, spotId: String) async throws -> HoldRow {
        guard let spot = try await spotInfo(spotId) else { throw Problem.notFound("spot") }
        if spot.state != .free {
            // Asking again for the spot one holds is answered with that hold (a retried request).
            if let mine = try await HoldStore.open(userId: principal.userId, sql: store.sql), mine.spotId == spotId, mine.status == .active {
                return mine
            }
            // Refused before taking the write lock: in a rush for one spot, every loser after
            // the winner is answered by a read. The transaction below checks again.
            throw Self.notFree
        }
        let user = try await accounts.user(id: principal.userId)
        guard let user else { throw Problem.unauthorized }
        let now = now()
        // A lot its operator closed for these minutes takes no holds either. Read, not locked:
        // a closure saved a moment later meets a hold of at most ten minutes.
        let holding = BookingRange(start: now, end: SoftHold.expiry(from: now))
        if let closure = LotClosure.first(try await LotClosures.ahead(lotId: spot.ref.lotId, now: now, sql: store.sql), overlapping: holding) {
            throw Problem.conflict("lot-closed", "This lot is closed \(closure.dates(zone: spot.timeZone, locale: RequestContext.locale)) "
                                   + "(\(closure.reason)); choose a spot in another lot.")
        }
        let moment = PermitCheck.localMoment(of: now, timeZone: spot.timeZone)
        let warning = SoftHold.permitWarning(
            required: SoftHold.requiredPermits(category: spot.category, rules: spot.rules, weekday: moment.weekday, minute: moment.minute),
            holding: user.heldPermits.at(site: spot.ref.siteId), names: PermitNames(spot.permitKinds))
        let isPostgres = isPostgres
        let (hold, lots) = try await store.write { sql -> (HoldRow, [Components.Schemas.LotOccupancy]) in
            try await lockLive(sql)
            var changes: [SpotChange] = []
            // One hold per person: a new one ends the earlier one, in the same transaction, so
            // a refused request leaves the earlier hold as it was.
            if let earlier = try await HoldStore.open(userId: principal.userId, sql: sql) {
                // The same person asking twice at once for one spot: the second ask is a retry,
                // answered with the hold the first made, not a replacement of it.
                if earlier.spotId == spotId, earlier.status == .active { return (earlier, []) }
                if let change = try await HoldStore.end(earlier, outcome: .replaced, at: now, sql: sql) {
                    changes.append(change)
                }
            }
            guard let change = try await claim(spot.ref, sql: sql, at: now) else {
                throw Self.notFree
            }
            changes.append(change)
            let id = UUID().uuidString.lowercased()
            try await insert(id: id, userId: principal.userId, spot: spot.ref, createdAt: now,
                             expiresAt: SoftHold.expiry(from: now), warning: warning, sql: sql)
            let lots = try await SpotChanges.record(changes, sql: sql, isPostgres: isPostgres, now: now)
            // Read on the transaction's connection: the answer needs no second connection,
            // which a burst of requests may keep busy.
            return (try await require(id, sql: sql), lots)
        }
        await published(lots)
        return hold
    }

    func list(_ principal: Principal) async throws -> [HoldRow] {
        try await expireDue()
        let rows = try await store.sql.raw("""
            \(unsafeRaw: HoldRow.select) WHERE h.user_id = \(bind: principal.userId)
            ORDER BY CASE WHEN h.ended_at IS NULL THEN 0 ELSE 1 END, h.created_at DESC, h.id LIMIT 21
            """).all()
        return try rows.map(HoldRow.init)
    }

    func get(_ principal: Principal, id: String) async throws -> HoldRow {
        try await expireDue()
        return try await owned(principal, id)
    }

    /// "Exits navigation manually" (SpotMe 7.2.2.1). An ended hold stays as it ended.
    func cancel(_ principal: Principal, id: String) async throws -> HoldRow {
        let hold = try await owned(principal, id)
        guard hold.endedAt == nil else { return hold }
        let now = now()
        let isPostgres = isPostgres
        let (ended, lots) = try await store.write { sql in
            try await lockLive(sql)
            let change = try await HoldStore.end(hold, outcome: .cancelled, at: now, sql: sql)
            let lots = try await SpotChanges.record(change.map { [$0] } ?? [], sql: sql, isPostgres: isPostgres, now: now)
            return (try await require(id, sql: sql), lots)
        }
        await published(lots)
        return ended
    }

    /// "Was it you?" (SpotMe 7.2.1, 7.2.2).
    func answer(_ principal: Principal, id: String, wasMe: Bool) async throws -> (answered: HoldRow, next: HoldRow?) {
        try await expireDue()
        let hold = try await owned(principal, id)
        guard hold.status == .asking else {
            throw Problem.conflict("hold-not-asking", hold.status == .ended
                ? "This hold has ended."
                : "Nobody has parked on the held spot; there is nothing to answer.")
        }
        let now = now()
        if wasMe {
            let parked = try await store.write { sql in
                _ = try await HoldStore.end(hold, outcome: .parked, at: now, sql: sql)
                return try await require(id, sql: sql)
            }
            return (parked, nil)
        }
        let user = try await accounts.user(id: principal.userId)
        let permits = user?.heldPermits.at(site: hold.siteId) ?? []
        guard let zone = try await ParkingQueries(store: store).timeZone(siteId: hold.siteId) else { throw Problem.internalError }
        let moment = PermitCheck.localMoment(of: now, timeZone: zone)
        let isPostgres = isPostgres
        let (answered, next, lots) = try await store.write { sql -> (HoldRow, HoldRow?, [Components.Schemas.LotOccupancy]) in
            try await lockLive(sql)
            // Read under the lock, so the spot chosen is still free when it is claimed.
            let candidates = try await freeCandidates(siteId: hold.siteId, sql: sql)
            guard let best = SoftHold.nearest(to: hold.center, among: candidates.map(\.candidate), permits: permits,
                                              weekday: moment.weekday, minute: moment.minute),
                  let ref = candidates.first(where: { $0.candidate.spotId == best.spotId })?.ref,
                  let change = try await claim(ref, sql: sql, at: now)
            else {
                _ = try await HoldStore.end(hold, outcome: .nothingFree, at: now, sql: sql)
                return (try await require(id, sql: sql), nil, [])
            }
            let nextId = UUID().uuidString.lowercased()
            _ = try await HoldStore.end(hold, outcome: .moved, movedTo: nextId, at: now, sql: sql)
            try await insert(id: nextId, userId: principal.userId, spot: ref, createdAt: now,
                             expiresAt: Date(millis: hold.expiresAt), warning: nil, sql: sql)
            let lots = try await SpotChanges.record([change], sql: sql, isPostgres: isPostgres, now: now)
            let next = try await require(nextId, sql: sql)
            try await Notifier.post([HoldNotices.moved(next)], at: now, within: sql)
            return (try await require(id, sql: sql), next, lots)
        }
        if next != nil { notifier.delivered() }
        await published(lots)
        return (answered, next)
    }

    /// Ends every open hold whose time is up (SpotMe 7.1.2): a spot still held is free again.
    /// Run by the hold job every second and before holds are read, so that nobody sees a hold
    /// outlive its 10 minutes. Several instances may run it at once: ending is conditional.
    @discardableResult
    func expireDue() async throws -> Int {
        let now = now()
        let due = try await store.sql.raw("""
            \(unsafeRaw: HoldRow.select) WHERE h.ended_at IS NULL AND h.expires_at <= \(bind: now.millis)
            """).all().map(HoldRow.init)
        guard !due.isEmpty else { return 0 }
        let isPostgres = isPostgres
        let (lots, told) = try await store.write { sql in
            try await lockLive(sql)
            var changes: [SpotChange] = []
            var drafts: [NotificationDraft] = []
            for hold in due {
                let (ended, change) = try await HoldStore.finish(hold, outcome: .expired, at: now, sql: sql)
                if let change { changes.append(change) }
                // Only the instance that ended it tells the holder (PRK-15).
                if ended { drafts.append(HoldNotices.expired(hold)) }
            }
            let lots = try await SpotChanges.record(changes, sql: sql, isPostgres: isPostgres, now: now)
            try await Notifier.post(drafts, at: now, within: sql)
            return (lots, !drafts.isEmpty)
        }
        if told { notifier.delivered() }
        await published(lots)
        return due.count
    }

    func run(logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await expireDue()
            } catch {
                logger.error("hold expiry failed", metadata: ["error": .string(String(reflecting: error))])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    // MARK: Helpers

    static let notFree = Problem.conflict("spot-not-free", "Someone else holds or took this spot just now. Choose another free spot.")

    private func lockLive(_ sql: any SQLDatabase) async throws {
        if isPostgres { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run() }
    }

    /// Free → held, only if free now.
    private func claim(_ ref: SpotRef, sql: any SQLDatabase, at now: Date) async throws -> SpotChange? {
        let row = try await sql.raw("UPDATE spot_states SET state = 'h' WHERE spot_id = \(bind: ref.spotId) AND state = 'f' RETURNING spot_id").first()
        return row == nil ? nil : SpotChange(ref: ref, before: .free, after: .held, at: now)
    }

    private func insert(id: String, userId: String, spot: SpotRef, createdAt: Date, expiresAt: Date, warning: String?,
                        sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO holds (id, user_id, spot_id, lot_id, site_id, created_at, expires_at, permit_warning)
            VALUES (\(bind: id), \(bind: userId), \(bind: spot.spotId), \(bind: spot.lotId), \(bind: spot.siteId),
                    \(bind: createdAt.millis), \(bind: expiresAt.millis), \(bind: warning))
            """).run()
    }

    private func published(_ lots: [Components.Schemas.LotOccupancy]) async {
        guard !lots.isEmpty else { return }
        live.merge(lots)
        live.poke()
        // A held spot is taken too: holds can fill a watched lot (PRK-15).
        await alerts.occupancyChanged(lots)
    }

    private func require(_ id: String, sql: any SQLDatabase) async throws -> HoldRow {
        guard let row = try await HoldStore.hold(id: id, sql: sql) else { throw Problem.notFound("hold") }
        return row
    }

    /// Someone else's hold is as unknown as a missing one.
    private func owned(_ principal: Principal, _ id: String) async throws -> HoldRow {
        guard let row = try await HoldStore.hold(id: id, sql: store.sql), row.userId == principal.userId else {
            throw Problem.notFound("hold")
        }
        return row
    }

    private func spotInfo(_ spotId: String) async throws -> SpotInfo? {
        guard let r = try await store.sql.raw("""
            SELECT s.id, s.lot_id, s.ordinal, s.category, st.state, s.center_lat, s.center_lon, l.site_id, l.permit_rules, t.time_zone, t.permits
            FROM spots s JOIN spot_states st ON st.spot_id = s.id JOIN lots l ON l.id = s.lot_id JOIN sites t ON t.id = l.site_id
            WHERE s.id = \(bind: spotId)
            """).first(),
            let zone = TimeZone(identifier: try r.decode(column: "time_zone", as: String.self))
        else { return nil }
        return SpotInfo(
            ref: SpotRef(spotId: try r.decode(column: "id", as: String.self), lotId: try r.decode(column: "lot_id", as: String.self),
                         siteId: try r.decode(column: "site_id", as: String.self), ordinal: try r.decode(column: "ordinal", as: Int.self)),
            center: Coordinate(latitude: try r.decode(column: "center_lat", as: Double.self),
                               longitude: try r.decode(column: "center_lon", as: Double.self)),
            category: SpotCategory(rawValue: try r.decode(column: "category", as: String.self)) ?? .regular,
            rules: try StoredPermitRule.rules(try r.decode(column: "permit_rules", as: String.self)),
            timeZone: zone,
            state: try r.decode(column: "state", as: String.self).first.flatMap(SpotState.init(code:)) ?? .unknown,
            permitKinds: try JSONColumn.decode([PermitKind].self, try r.decode(column: "permits", as: String.self)))
    }

    private func freeCandidates(siteId: String, sql: any SQLDatabase) async throws -> [(candidate: SoftHold.Candidate, ref: SpotRef)] {
        var rulesByLot: [String: [PermitRule]] = [:]
        for lot in try await sql.raw("SELECT id, permit_rules FROM lots WHERE site_id = \(bind: siteId)").all() {
            rulesByLot[try lot.decode(column: "id", as: String.self)] = try StoredPermitRule.rules(try lot.decode(column: "permit_rules", as: String.self))
        }
        let rows = try await sql.raw("""
            SELECT s.id, s.lot_id, s.ordinal, s.category, s.center_lat, s.center_lon
            FROM spots s JOIN spot_states st ON st.spot_id = s.id JOIN lots l ON l.id = s.lot_id
            WHERE l.site_id = \(bind: siteId) AND st.state = 'f'
            """).all()
        return try rows.map { r in
            let lotId = try r.decode(column: "lot_id", as: String.self)
            let id = try r.decode(column: "id", as: String.self)
            let candidate = SoftHold.Candidate(
                spotId: id,
                center: Coordinate(latitude: try r.decode(column: "center_lat", as: Double.self),
                                   longitude: try r.decode(column: "center_lon", as: Double.self)),
                category: SpotCategory(rawValue: try r.decode(column: "category", as: String.self)) ?? .regular,
                rules: rulesByLot[lotId] ?? [])
            return (candidate, SpotRef(spotId: id, lotId: lotId, siteId: siteId, ordinal: try r.decode(column: "ordinal", as: Int.self)))
        }
    }
}
