import Foundation
import SQLKit
import WaymarkCore

/// The one position a person's app last reported, for time to leave (PLN-7; Travlendar+ D6):
/// replaced by each report, forgotten at the end of the day it was reported on, and never kept
/// as a history.
struct PlannerPositions: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    func report(userId: String, _ position: Coordinate, zone: TimeZone) async throws {
        let at = now()
        let today = LocalDay(containing: at, timeZone: zone)
        let expires = WallTime(day: today.adding(days: 1), minute: 0).instant(in: zone)
        try await store.write { sql in
            try await sql.raw("""
                INSERT INTO planner_positions (user_id, latitude, longitude, reported_at, expires_at)
                VALUES (\(bind: userId), \(bind: position.latitude), \(bind: position.longitude), \(bind: at.millis), \(bind: expires.millis))
                ON CONFLICT (user_id) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
                    reported_at = excluded.reported_at, expires_at = excluded.expires_at
                """).run()
        }
    }

    func forget(userId: String) async throws {
        try await store.write { sql in try await sql.raw("DELETE FROM planner_positions WHERE user_id = \(bind: userId)").run() }
    }

    /// The position and when it was reported, unless its day is over.
    func latest(userId: String) async throws -> (position: Coordinate, at: Date)? {
        try await store.sql.raw("""
            SELECT latitude, longitude, reported_at FROM planner_positions
            WHERE user_id = \(bind: userId) AND expires_at > \(bind: now().millis)
            """).first().map {
            (Coordinate(latitude: try $0.decode(column: "latitude", as: Double.self), longitude: try $0.decode(column: "longitude", as: Double.self)),
             Date(millis: try $0.decode(column: "reported_at", as: Int64.self)))
        }
    }

    /// Deletes the positions whose day is over.
    func prune() async throws {
        let at = now().millis
        try await store.write { sql in try await sql.raw("DELETE FROM planner_positions WHERE expires_at <= \(bind: at)").run() }
    }
}
