import Foundation
import SQLKit
import WaymarkCore

enum ScheduleStore {
    static func blocks(userId: String, on sql: any SQLDatabase) async throws -> [ScheduleBlock] {
        try await sql.raw("""
            SELECT id, weekday, start_slot, end_slot, lot_id FROM schedule_blocks
            WHERE user_id = \(bind: userId) ORDER BY weekday, start_slot
            """).all().map { row in
            ScheduleBlock(
                id: try row.decode(column: "id", as: String.self),
                weekday: try row.decode(column: "weekday", as: Int.self),
                startSlot: try row.decode(column: "start_slot", as: Int.self),
                endSlot: try row.decode(column: "end_slot", as: Int.self),
                lotId: try row.decode(column: "lot_id", as: String?.self))
        }
    }
}

/// The weekly parking schedule (PRK-16): blocks that never overlap, each advised from the lot's
/// permit rules, the user's permits and the lot's typical occupancy (PRK-6).
struct ScheduleService: Sendable {
    let store: SQLStore
    let parking: ParkingQueries
    let accounts: AccountQueries
    let now: @Sendable () -> Date

    struct AdvisedBlock: Sendable {
        var block: ScheduleBlock
        var lotName: String?
        var advice: ScheduleAdvice
    }

    func schedule(_ principal: Principal) async throws -> [AdvisedBlock] {
        let blocks = try await ScheduleStore.blocks(userId: principal.userId, on: store.sql)
        var advisor = try await Advisor(service: self, permits: permits(principal))
        var out: [AdvisedBlock] = []
        for block in blocks { out.append(try await advisor.advise(block)) }
        return out
    }

    func create(_ principal: Principal, weekday: Int, startSlot: Int, endSlot: Int, lotId: String?) async throws -> AdvisedBlock {
        let block = ScheduleBlock(id: UUID().uuidString.lowercased(), weekday: weekday, startSlot: startSlot, endSlot: endSlot, lotId: lotId)
        _ = try await save(principal, block, createIfAbsent: true)
        var advisor = try await Advisor(service: self, permits: permits(principal))
        return try await advisor.advise(block)
    }

    /// Writes the block under its id: an id the person has no block under adds one, so an app
    /// can make the id itself and add a block offline (PRK-19). `created` says which it was.
    func put(_ principal: Principal, id: String, weekday: Int, startSlot: Int, endSlot: Int, lotId: String?) async throws -> (block: AdvisedBlock, created: Bool) {
        let block = ScheduleBlock(id: id, weekday: weekday, startSlot: startSlot, endSlot: endSlot, lotId: lotId)
        let created = try await save(principal, block, createIfAbsent: true)
        var advisor = try await Advisor(service: self, permits: permits(principal))
        return (try await advisor.advise(block), created)
    }

    func delete(_ principal: Principal, id: String) async throws {
        let rows = try await store.write { sql in
            try await sql.raw("DELETE FROM schedule_blocks WHERE id = \(bind: id) AND user_id = \(bind: principal.userId) RETURNING id").all()
        }
        if rows.isEmpty { throw Problem.notFound("schedule block") }
    }

    /// Checked and written in one transaction; the user's row is locked first on PostgreSQL so
    /// that two requests of one user cannot both pass the overlap check. Returns whether the
    /// block was added.
    private func save(_ principal: Principal, _ block: ScheduleBlock, createIfAbsent: Bool) async throws -> Bool {
        if let problem = WeeklySchedule.gridProblem(weekday: block.weekday, startSlot: block.startSlot, endSlot: block.endSlot) {
            throw Problem.badRequest(problem)
        }
        if let lotId = block.lotId, try await parking.lot(id: lotId) == nil { throw Problem.unknownReference(field: "lotId", "lot") }
        let now = now()
        let isPostgres = store.isPostgres
        return try await store.write { sql in
            if isPostgres {
                _ = try await sql.raw("SELECT id FROM users WHERE id = \(bind: principal.userId) FOR UPDATE").first()
            }
            let existing = try await ScheduleStore.blocks(userId: principal.userId, on: sql)
            let isNew = !existing.contains(where: { $0.id == block.id })
            if isNew, !createIfAbsent { throw Problem.notFound("schedule block") }
            if let other = WeeklySchedule.conflict(for: block, in: existing) {
                throw Problem.conflict("schedule-overlap", "The block overlaps another on \(WeeklySchedule.weekdayName(other.weekday)) "
                    + "\(WeeklySchedule.clock(minute: other.startSlot * 30))–\(WeeklySchedule.clock(minute: other.endSlot * 30)).")
            }
            if isNew {
                guard existing.count < WeeklySchedule.maximumBlocks else { throw Problem.badRequest("The schedule is full.") }
                // An id another person's block has is refused by the key itself, whoever writes first,
                // as a block that is not theirs: nobody learns what ids others use (ACC-7).
                let inserted = try await sql.raw("""
                    INSERT INTO schedule_blocks (id, user_id, weekday, start_slot, end_slot, lot_id, created_at)
                    VALUES (\(bind: block.id), \(bind: principal.userId), \(bind: block.weekday), \(bind: block.startSlot),
                            \(bind: block.endSlot), \(bind: block.lotId), \(bind: now.millis))
                    ON CONFLICT (id) DO NOTHING RETURNING id
                    """).all()
                if inserted.isEmpty { throw Problem.notFound("schedule block") }
            } else {
                try await sql.raw("""
                    UPDATE schedule_blocks SET weekday = \(bind: block.weekday), start_slot = \(bind: block.startSlot),
                        end_slot = \(bind: block.endSlot), lot_id = \(bind: block.lotId)
                    WHERE id = \(bind: block.id) AND user_id = \(bind: principal.userId)
                    """).run()
            }
            return isNew
        }
    }

    /// Every lot of a site, advised for one block of time, best first.
    func lotAdvice(_ principal: Principal, siteId: String, weekday: Int, startSlot: Int, endSlot: Int) async throws -> [AdvisedBlock] {
        if let problem = WeeklySchedule.gridProblem(weekday: weekday, startSlot: startSlot, endSlot: endSlot) {
            throw Problem.badRequest(problem)
        }
        guard try await parking.site(id: siteId) != nil else { throw Problem.notFound("site") }
        var advisor = try await Advisor(service: self, permits: permits(principal))
        var out: [AdvisedBlock] = []
        for lot in try await parking.lots(siteId: siteId) {
            out.append(try await advisor.advise(ScheduleBlock(id: lot.id, weekday: weekday, startSlot: startSlot, endSlot: endSlot, lotId: lot.id)))
        }
        return out.sorted { ($0.advice.rank, $0.lotName ?? "") < ($1.advice.rank, $1.lotName ?? "") }
    }

    private func permits(_ principal: Principal) async throws -> HeldPermits {
        guard let user = try await accounts.user(id: principal.userId) else { throw Problem.unauthorized }
        return user.heldPermits
    }

    /// Loads each lot's rules and each (lot, weekday) profile once per request.
    struct Advisor {
        let service: ScheduleService
        let permits: HeldPermits
        var lots: [String: LotFacts] = [:]
        var snapshots: [String: [OccupancySnapshot]] = [:]
        var profiles: [String: [Double?]] = [:]

        struct LotFacts {
            var name: String
            var rules: [PermitRule]
            var zone: TimeZone
            var siteId: String
            var permitNames: PermitNames
        }

        init(service: ScheduleService, permits: HeldPermits) async throws {
            self.service = service
            self.permits = permits
        }

        mutating func advise(_ block: ScheduleBlock) async throws -> AdvisedBlock {
            guard let lotId = block.lotId, let lot = try await lot(lotId) else {
                return AdvisedBlock(block: block, lotName: nil, advice: ScheduleAdvice(level: .none, reason: "Choose a lot."))
            }
            let typical = try await profile(lotId: lotId, weekday: block.weekday, zone: lot.zone)
            let advice = ScheduleAdvisor.advise(weekday: block.weekday, startSlot: block.startSlot, endSlot: block.endSlot,
                                                rules: lot.rules, typical: typical, permits: permits.at(site: lot.siteId),
                                                names: lot.permitNames)
            return AdvisedBlock(block: block, lotName: lot.name, advice: advice)
        }

        private mutating func lot(_ id: String) async throws -> LotFacts? {
            if let cached = lots[id] { return cached }
            guard let row = try await service.parking.lot(id: id), let site = try await service.parking.site(id: row.siteId),
                  let zone = TimeZone(identifier: site.timeZone) else { return nil }
            let rules = try StoredPermitRule.rules(row.permitRules)
            lots[id] = LotFacts(name: row.name, rules: rules, zone: zone, siteId: site.id, permitNames: PermitNames(try site.permitKinds()))
            return lots[id]
        }

        private mutating func profile(lotId: String, weekday: Int, zone: TimeZone) async throws -> [Double?] {
            let key = "\(lotId)/\(weekday)"
            if let cached = profiles[key] { return cached }
            let now = service.now()
            if snapshots[lotId] == nil {
                snapshots[lotId] = try await service.parking.snapshots(lotId: lotId, since: now.addingTimeInterval(-HalfHourSlots.retention - 86_400))
            }
            let profile = TypicalOccupancy.weekdayProfile(snapshots: snapshots[lotId] ?? [], weekday: weekday, timeZone: zone, now: now)
            profiles[key] = profile
            return profile
        }
    }
}
