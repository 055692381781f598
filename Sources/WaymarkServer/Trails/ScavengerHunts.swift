import Foundation
import SQLKit
import WaymarkCore

/// Scavenger hunts (TRL-10): on easy and moderate trails, the focal points a person has found.
/// A find is one row per person, trail and point, so ticking twice, or from two devices, is one.
struct ScavengerHunts: Sendable {
    let store: SQLStore
    let trails: TrailStore
    let now: @Sendable () -> Date

    static let noHunt = Problem(type: "no-scavenger-hunt", title: "This trail has no scavenger hunt", status: 404,
                                detail: "Scavenger hunts are on easy and moderate trails with focal points to find.")

    /// The trail's focal points, when it has a hunt.
    func focalPoints(_ trailId: String) async throws -> (trail: Trail, points: [PointOfInterest]) {
        guard let found = try await trails.trail(trailId) else { throw Problem.notFound("trail") }
        let points = found.trail.points.filter(\.focalPoint)
        guard found.trail.difficulty != .hard, !points.isEmpty else { throw Self.noHunt }
        return (found.trail, points)
    }

    func found(userId: String, trailId: String) async throws -> [String: Date] {
        try await store.sql.raw("SELECT point_id, found_at FROM scavenger_finds WHERE user_id = \(bind: userId) AND trail_id = \(bind: trailId)")
            .all().reduce(into: [:]) { $0[try $1.decode(column: "point_id", as: String.self)] = Date(millis: try $1.decode(column: "found_at", as: Int64.self)) }
    }

    /// Ticks or unticks one focal point.
    func mark(userId: String, trailId: String, pointId: String, found: Bool) async throws {
        let (_, points) = try await focalPoints(trailId)
        guard points.contains(where: { $0.id == pointId }) else { throw Problem.notFound("focal point") }
        let now = now()
        try await store.write { sql in
            if found {
                try await sql.raw("""
                    INSERT INTO scavenger_finds (user_id, trail_id, point_id, found_at)
                    VALUES (\(bind: userId), \(bind: trailId), \(bind: pointId), \(bind: now.millis))
                    ON CONFLICT (user_id, trail_id, point_id) DO NOTHING
                    """).run()
            } else {
                try await sql.raw("""
                    DELETE FROM scavenger_finds WHERE user_id = \(bind: userId) AND trail_id = \(bind: trailId) AND point_id = \(bind: pointId)
                    """).run()
            }
        }
    }
}
