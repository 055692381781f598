import Foundation
import SQLKit
import WaymarkCore

/// The SQL of dates operators closed lots on (`lot_closures`).
enum LotClosures {
    /// A lot keeps at most this many closures not yet over: a calendar of closures, not a log.
    static let mostAhead = 100

    /// The lot's closures not over at `now`, earliest first.
    static func ahead(lotId: String, now: Date, sql: any SQLDatabase) async throws -> [LotClosure] {
        try await sql.raw("""
            SELECT id, lot_id, starts_at, ends_at, reason FROM lot_closures
            WHERE lot_id = \(bind: lotId) AND ends_at > \(bind: now.millis) ORDER BY starts_at, id
            """).all().map(closure)
    }

    static func find(id: String, sql: any SQLDatabase) async throws -> LotClosure? {
        try await sql.raw("SELECT id, lot_id, starts_at, ends_at, reason FROM lot_closures WHERE id = \(bind: id)").first().map(closure)
    }

    static func insert(_ c: LotClosure, at now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO lot_closures (id, lot_id, starts_at, ends_at, reason, created_at)
            VALUES (\(bind: c.id), \(bind: c.lotId), \(bind: c.range.start.millis), \(bind: c.range.end.millis), \(bind: c.reason), \(bind: now.millis))
            """).run()
    }

    /// False when it was gone already.
    static func delete(id: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("DELETE FROM lot_closures WHERE id = \(bind: id) RETURNING id").first() != nil
    }

    private static func closure(_ r: any SQLRow) throws -> LotClosure {
        LotClosure(id: try r.decode(column: "id", as: String.self), lotId: try r.decode(column: "lot_id", as: String.self),
                   range: BookingRange(start: Date(millis: try r.decode(column: "starts_at", as: Int64.self)),
                                       end: Date(millis: try r.decode(column: "ends_at", as: Int64.self))),
                   reason: try r.decode(column: "reason", as: String.self))
    }
}
