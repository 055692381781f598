import Foundation
import SQLKit
import WaymarkAPI
import WaymarkCore

/// What an operator of a site changes on the ground (PRK-1): a lot's settings, and spots
/// closed or opened again. Each change is refused unless the person runs the lot's site, is
/// recorded with who and when in its own transaction, and reaches drivers at once: settings on
/// their next read of the lot, a spot on the site's live stream.
struct OperateService: Sendable {
    let store: SQLStore
    let operators: SiteOperators
    let live: LiveHub
    /// Tells drivers whose bookings a closure cancelled; nil where nobody is told (tests).
    var notifier: Notifier?
    let now: @Sendable () -> Date
    private var isPostgres: Bool { store.sql.dialect.name == "postgresql" }
    var queries: ParkingQueries { ParkingQueries(store: store) }

    // MARK: Lot settings

    /// The lot's settings in the words of a site file, for the Operate screen to edit.
    func settings(_ principal: Principal, lotId: String) async throws -> (lot: LotRow, settings: LotSettings) {
        guard let lot = try await queries.lot(id: lotId) else { throw Problem.notFound("lot") }
        try await operators.require(principal, siteId: lot.siteId)
        return (lot, try Self.settings(of: lot))
    }

    /// Replaces the lot's settings with `json` (SITE_FILES.md's lot properties), checked by the
    /// rules a site file meets. Nothing is recorded when nothing changes.
    func updateSettings(_ principal: Principal, lotId: String, json: Data) async throws -> LotRow {
        guard let lot = try await queries.lot(id: lotId) else { throw Problem.notFound("lot") }
        let site = try await operators.require(principal, siteId: lot.siteId)
        let read = SiteImport.lotSettings(json, capacity: lot.capacity, sitePermits: try site.permitKinds(), source: "The settings")
        guard let settings = read.settings else {
            throw Self.refused("lot-settings-invalid", "The settings cannot be saved", subject: "The settings", read.problems)
        }
        let now = now()
        return try await store.write { sql in
            // Bookings count the offer's spaces under the lot's lock.
            try await AdvisoryLocks.lockLot(lotId, sql: sql)
            guard let current = try await queries.lot(id: lotId, on: sql) else { throw Problem.notFound("lot") }
            // The site's permits may have changed since they were read: check again under their lock.
            try await AdvisoryLocks.lockSitePermits(current.siteId, sql: sql)
            let issued = PermitKind.codes(issuedBy: try await SitePermitsStore.kinds(siteId: current.siteId, sql: sql))
            if let gone = Set(settings.permitRules.flatMap(\.permits)).subtracting(issued).sorted().first {
                throw Problem.conflict("permit-unknown", "The site no longer issues the permit '\(gone.rawValue)' the rules name; "
                    + "reload the settings and choose from the site's permits.")
            }
            let before = try Self.settings(of: current)
            let changed = settings.changed(from: before)
            guard !changed.isEmpty else { return current }
            let sets: [SQLQueryString] = try SiteRowsWriter.settingsColumns(settings).map { "\(unsafeRaw: $0.0) = \(bind: $0.1)" }
            try await sql.raw("UPDATE lots SET \(sets.joined(separator: ", ")) WHERE id = \(bind: lotId)").run()
            try await OperatorChanges.record(.init(
                siteId: current.siteId, lotId: lotId, userId: principal.userId, action: .lotSettings,
                summary: "Changed \(ListWords.and(changed.map { Self.settingWords[$0] ?? $0 })) of \(current.name)",
                before: String(decoding: SiteFileWriter.settings(before), as: UTF8.self),
                after: String(decoding: SiteFileWriter.settings(settings), as: UTF8.self)), at: now, sql: sql)
            guard let updated = try await queries.lot(id: lotId, on: sql) else { throw Problem.notFound("lot") }
            return updated
        }
    }

    /// A 400 naming each rule of the site file that `subject` breaks, numbered when there are several.
    static func refused(_ type: String, _ title: String, subject: String, _ problems: [SiteImport.Problem]) -> Problem {
        let rules = problems.map(\.rule)
        return Problem(type: type, title: title, status: 400,
                       detail: rules.count == 1 ? "\(subject) \(rules[0])" : rules.enumerated().map { "\($0 + 1). \(subject) \($1)" }.joined(separator: " "))
    }

    static let settingWords = ["hours": "the hours", "price": "the price", "permits": "the permit rules", "rules": "the rules",
                               "booking": "the booking offer"]

    static func settings(of lot: LotRow) throws -> LotSettings {
        let offer = try lot.bookingTariff.map { BookingOffer(capacity: lot.bookableCapacity, pricing: try JSONColumn.decode(StoredTariff.self, $0).pricing) }
        return LotSettings(
            hours: try JSONColumn.decode([StoredOpeningHours].self, lot.hours).map(\.openingHours),
            price: try JSONColumn.decode(LotPrice.self, lot.price),
            permitRules: try StoredPermitRule.rules(lot.permitRules),
            rules: try JSONColumn.decode([String].self, lot.rules),
            booking: offer)
    }

    // MARK: Spots

    struct SpotOpening: Sendable {
        var spotId: String
        var state: SpotState
        var lot: Components.Schemas.LotOccupancy?
    }

    /// Closes a spot (works, a reserved event) or opens it again. A closed spot stays closed
    /// whatever its sensor reports; an opened one is unknown until its sensor reports again.
    /// A spot a driver holds cannot be closed under them.
    func setOpen(_ principal: Principal, spotId: String, open: Bool) async throws -> SpotOpening {
        guard let found = try await Self.spot(spotId, sql: store.sql) else { throw Problem.notFound("spot") }
        try await operators.require(principal, siteId: found.ref.siteId)
        let now = now()
        let isPostgres = isPostgres
        let (state, lots) = try await store.write { sql -> (SpotState, [Components.Schemas.LotOccupancy]) in
            if isPostgres { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run() }
            guard let current = try await Self.spot(spotId, sql: sql) else { throw Problem.notFound("spot") }
            let target: SpotState
            switch (open, current.state) {
            case (false, .closed), (true, .free), (true, .occupied), (true, .held), (true, .booked), (true, .unknown):
                return (current.state, [])
            case (false, .held):
                throw Problem.conflict("spot-held", "A driver holds spot \(current.label) right now; close it once the hold has ended.")
            case (false, _): target = .closed
            case (true, .closed): target = .unknown
            }
            try await sql.raw("UPDATE spot_states SET state = \(bind: String(target.rawValue)) WHERE spot_id = \(bind: spotId)").run()
            let lots = try await SpotChanges.record([SpotChange(ref: current.ref, before: current.state, after: target, at: now)],
                                                    sql: sql, isPostgres: isPostgres, now: now)
            try await OperatorChanges.record(.init(
                siteId: current.ref.siteId, lotId: current.ref.lotId, userId: principal.userId, action: open ? .spotOpened : .spotClosed,
                summary: "\(open ? "Opened" : "Closed") spot \(current.label) of \(current.lotName)"), at: now, sql: sql)
            return (target, lots)
        }
        if !lots.isEmpty {
            live.merge(lots)
            live.poke()
        }
        return SpotOpening(spotId: spotId, state: state, lot: lots.first)
    }

    private static func spot(_ id: String, sql: any SQLDatabase) async throws -> (ref: SpotRef, label: String, lotName: String, state: SpotState)? {
        guard let row = try await sql.raw("""
            SELECT s.id, s.lot_id, s.ordinal, s.label, l.site_id, l.name, ss.state
            FROM spots s JOIN lots l ON l.id = s.lot_id JOIN spot_states ss ON ss.spot_id = s.id WHERE s.id = \(bind: id)
            """).first() else { return nil }
        let code = try row.decode(column: "state", as: String.self)
        return (SpotRef(spotId: id, lotId: try row.decode(column: "lot_id", as: String.self), siteId: try row.decode(column: "site_id", as: String.self),
                        ordinal: try row.decode(column: "ordinal", as: Int.self)),
                try row.decode(column: "label", as: String.self), try row.decode(column: "name", as: String.self),
                code.first.flatMap(SpotState.init(code:)) ?? .unknown)
    }
}
