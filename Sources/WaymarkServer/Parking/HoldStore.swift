import Foundation
import SQLKit
import WaymarkCore

/// A `holds` row with what the API shows of its spot and lot.
struct HoldRow: Sendable {
    var id: String
    var userId: String
    var spotId: String
    var lotId: String
    var siteId: String
    var createdAt: Int64
    var expiresAt: Int64
    var askedAt: Int64?
    var endedAt: Int64?
    var outcome: String?
    var movedTo: String?
    var permitWarning: String?
    var ordinal: Int
    var label: String
    var level: Int
    var center: Coordinate
    var lotCode: String
    var lotName: String

    var status: SoftHold.Status {
        if endedAt != nil { return .ended }
        return askedAt != nil ? .asking : .active
    }

    var ref: SpotRef { SpotRef(spotId: spotId, lotId: lotId, siteId: siteId, ordinal: ordinal) }

    static let select = """
        SELECT h.id, h.user_id, h.spot_id, h.lot_id, h.site_id, h.created_at, h.expires_at, h.asked_at, h.ended_at,
               h.outcome, h.moved_to, h.permit_warning, s.ordinal, s.label, s.level, s.center_lat, s.center_lon,
               l.code AS lot_code, l.name AS lot_name
        FROM holds h JOIN spots s ON s.id = h.spot_id JOIN lots l ON l.id = h.lot_id
        """

    init(_ r: any SQLRow) throws {
        id = try r.decode(column: "id", as: String.self)
        userId = try r.decode(column: "user_id", as: String.self)
        spotId = try r.decode(column: "spot_id", as: String.self)
        lotId = try r.decode(column: "lot_id", as: String.self)
        siteId = try r.decode(column: "site_id", as: String.self)
        createdAt = try r.decode(column: "created_at", as: Int64.self)
        expiresAt = try r.decode(column: "expires_at", as: Int64.self)
        askedAt = try r.decode(column: "asked_at", as: Int64?.self)
        endedAt = try r.decode(column: "ended_at", as: Int64?.self)
        outcome = try r.decode(column: "outcome", as: String?.self)
        movedTo = try r.decode(column: "moved_to", as: String?.self)
        permitWarning = try r.decode(column: "permit_warning", as: String?.self)
        ordinal = try r.decode(column: "ordinal", as: Int.self)
        label = try r.decode(column: "label", as: String.self)
        level = try r.decode(column: "level", as: Int.self)
        center = Coordinate(latitude: try r.decode(column: "center_lat", as: Double.self),
                            longitude: try r.decode(column: "center_lon", as: Double.self))
        lotCode = try r.decode(column: "lot_code", as: String.self)
        lotName = try r.decode(column: "lot_name", as: String.self)
    }
}

/// The SQL of holds that also runs inside other writers' transactions (ingest, erasure).
/// Callers on PostgreSQL hold `LiveHub.appendLockKey`, since ending a hold can free a spot.
enum HoldStore {
    /// A car on a held spot: the hold stops claiming it and asks its holder (PRK-10).
    /// The holds now asking "was it you?", for their holders to be told (PRK-15).
    @discardableResult
    static func markAsked(spotIds: [String], at now: Date, sql: any SQLDatabase) async throws -> [(holdId: String, userId: String, lotId: String)] {
        var asked: [(holdId: String, userId: String, lotId: String)] = []
        for chunk in spotIds.chunked(500) {
            let rows = try await sql.raw("""
                UPDATE holds SET asked_at = \(bind: now.millis)
                WHERE ended_at IS NULL AND asked_at IS NULL AND spot_id IN (\(binds: Array(chunk)))
                RETURNING id, user_id, lot_id
                """).all()
            for r in rows {
                asked.append((try r.decode(column: "id", as: String.self), try r.decode(column: "user_id", as: String.self),
                              try r.decode(column: "lot_id", as: String.self)))
            }
        }
        return asked
    }

    static func open(userId: String, sql: any SQLDatabase) async throws -> HoldRow? {
        try await sql.raw("\(unsafeRaw: HoldRow.select) WHERE h.user_id = \(bind: userId) AND h.ended_at IS NULL").first().map(HoldRow.init)
    }

    static func hold(id: String, sql: any SQLDatabase) async throws -> HoldRow? {
        try await sql.raw("\(unsafeRaw: HoldRow.select) WHERE h.id = \(bind: id)").first().map(HoldRow.init)
    }

    /// Ends an open hold. A hold that still claims its spot gives it back: held becomes free.
    /// Returns the spot change to record, if any; nothing when another writer ended it first.
    static func end(_ hold: HoldRow, outcome: SoftHold.Outcome, movedTo: String? = nil, at now: Date,
                    sql: any SQLDatabase) async throws -> SpotChange? {
        try await finish(hold, outcome: outcome, movedTo: movedTo, at: now, sql: sql).change
    }

    /// As `end`, also saying whether this call ended the hold (another instance may have been first).
    static func finish(_ hold: HoldRow, outcome: SoftHold.Outcome, movedTo: String? = nil, at now: Date,
                       sql: any SQLDatabase) async throws -> (ended: Bool, change: SpotChange?) {
        let ended = try await sql.raw("""
            UPDATE holds SET ended_at = \(bind: now.millis), outcome = \(bind: outcome.rawValue), moved_to = \(bind: movedTo)
            WHERE id = \(bind: hold.id) AND ended_at IS NULL RETURNING asked_at
            """).first()
        guard let ended else { return (false, nil) }
        guard try ended.decode(column: "asked_at", as: Int64?.self) == nil else { return (true, nil) }
        let freed = try await sql.raw("""
            UPDATE spot_states SET state = 'f' WHERE spot_id = \(bind: hold.spotId) AND state = 'h' RETURNING spot_id
            """).first()
        return (true, freed == nil ? nil : SpotChange(ref: hold.ref, before: .held, after: .free, at: now))
    }

    /// Ends the user's open hold, for an erased account or device (ACC-5): the spot is free
    /// again for everyone before the rows go.
    static func release(userId: String, at now: Date, sql: any SQLDatabase) async throws {
        let isPostgres = sql.dialect.name == "postgresql"
        guard let hold = try await open(userId: userId, sql: sql) else { return }
        if isPostgres { try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: LiveHub.appendLockKey))").run() }
        if let change = try await end(hold, outcome: .cancelled, at: now, sql: sql) {
            _ = try await SpotChanges.record([change], sql: sql, isPostgres: isPostgres, now: now)
        }
    }
}
