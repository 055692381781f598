import Foundation
import SQLKit
import WaymarkCore

/// The operator analytics of PRK-17: loads the facts for a range of site-local days and lets
/// `OperatorAnalytics` answer.
struct OperatorAnalyticsService: Sendable {
    let store: SQLStore
    let zone: AnalyticsZone
    let latencies: OperationLatencies
    let now: @Sendable () -> Date

    static let slowestLimit = 10

    struct PeakLot: Sendable {
        var lotId: String
        var code: String
        var name: String
        var bookings: Int
    }

    struct Report: Sendable {
        var from: LocalDay
        var to: LocalDay
        var timeZone: TimeZone
        var days: [OperatorAnalytics.DayShare]
        var peakLots: [PeakLot]
        var modifications: OperatorAnalytics.Modifications
        var slowest: [LatencySummary]
    }

    /// `from` and `to` as sent (`YYYY-MM-DD`, both included); the last 14 days up to today when absent.
    func report(from fromText: String?, to toText: String?) async throws -> Report {
        let zone = try await zone.current()
        let to = try toText.map { try Self.day($0, name: "to") } ?? LocalDay(containing: now(), timeZone: zone)
        let from = try fromText.map { try Self.day($0, name: "from") } ?? to.adding(days: 1 - OperatorAnalytics.defaultDays)
        let days: [LocalDay]
        switch OperatorAnalytics.days(from: from, to: to) {
        case .success(let d): days = d
        case .failure(.reversed): throw Problem.badRequest("from (\(from)) is after to (\(to)).")
        case .failure(.tooLong(let n)): throw Problem.badRequest("A range covers at most \(n) days.")
        }

        let sql = store.sql
        var active: [LocalDay: Int] = [:]
        for row in try await sql.raw("""
            SELECT day, COUNT(*) AS n FROM user_activity_days
            WHERE day >= \(bind: from.description) AND day <= \(bind: to.description) GROUP BY day
            """).all() {
            if let day = LocalDay(try row.decode(column: "day", as: String.self)) {
                active[day] = try row.decode(column: "n", as: Int.self)
            }
        }

        // Wide enough for any UTC offset (-12 h … +14 h); the core keeps exactly the local days asked for.
        let lower = Int64(from.number * 86_400 - 14 * 3600) * 1000
        let upper = Int64((to.number + 1) * 86_400 + 12 * 3600) * 1000
        let facts = try await sql.raw("""
            SELECT user_id, lot_id, start_at, created_at, modifications, state FROM bookings
            WHERE (created_at >= \(bind: lower) AND created_at < \(bind: upper))
               OR (start_at >= \(bind: lower) AND start_at < \(bind: upper))
            """).all().map { row in
            OperatorAnalytics.BookingFact(
                userId: try row.decode(column: "user_id", as: String.self),
                lotId: try row.decode(column: "lot_id", as: String.self),
                start: Date(millis: try row.decode(column: "start_at", as: Int64.self)),
                createdAt: Date(millis: try row.decode(column: "created_at", as: Int64.self)),
                modifications: try row.decode(column: "modifications", as: Int.self),
                cancelled: try row.decode(column: "state", as: String.self) == BookingState.cancelled.rawValue)
        }

        let ranked = OperatorAnalytics.peakLots(days: from...to, bookings: facts, timeZone: zone)
        var lots: [String: (code: String, name: String)] = [:]
        if !ranked.isEmpty {
            for row in try await sql.raw("SELECT id, code, name FROM lots").all() {
                lots[try row.decode(column: "id", as: String.self)] =
                    (try row.decode(column: "code", as: String.self), try row.decode(column: "name", as: String.self))
            }
        }
        return Report(
            from: from, to: to, timeZone: zone,
            days: OperatorAnalytics.reservingShare(days: days, activeUsers: active, bookings: facts, timeZone: zone),
            peakLots: ranked.map { PeakLot(lotId: $0.lotId, code: lots[$0.lotId]?.code ?? "", name: lots[$0.lotId]?.name ?? "", bookings: $0.bookings) },
            modifications: OperatorAnalytics.modifications(days: from...to, bookings: facts, timeZone: zone),
            slowest: latencies.slowest(limit: Self.slowestLimit))
    }

    static func day(_ text: String, name: String) throws -> LocalDay {
        guard let day = LocalDay(text) else { throw Problem.badRequest("\(name) must be a date like 2026-11-18.") }
        return day
    }
}
