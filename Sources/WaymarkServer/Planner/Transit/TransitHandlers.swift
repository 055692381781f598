import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func planJourneys(_ input: Operations.PlanJourneys.Input) async throws -> Operations.PlanJourneys.Output {
        let q = input.query
        for (name, value) in [("fromLatitude", q.fromLatitude), ("toLatitude", q.toLatitude)] where !(-90...90).contains(value) {
            throw Problem.badRequest("\(name) must be between -90 and 90.")
        }
        for (name, value) in [("fromLongitude", q.fromLongitude), ("toLongitude", q.toLongitude)] where !(-180...180).contains(value) {
            throw Problem.badRequest("\(name) must be between -180 and 180.")
        }
        let walk = q.maxWalkMetres ?? 1000, rides = q.maxRides ?? 5
        guard (0...5000).contains(walk) else { throw Problem.badRequest("maxWalkMetres must be between 0 and 5000.") }
        guard (1...8).contains(rides) else { throw Problem.badRequest("maxRides must be between 1 and 8.") }
        let now = services.now()
        let leaving = q.leaveAt ?? now
        // Timetables are for the years around now; this only keeps the calendar arithmetic sane.
        guard abs(leaving.timeIntervalSince(now)) <= 50 * 366 * 86400 else {
            throw Problem.badRequest("leaveAt must be within 50 years of today.")
        }
        guard let plan = try await services.planner.transit.journeys(
            from: Coordinate(latitude: q.fromLatitude, longitude: q.fromLongitude), to: Coordinate(latitude: q.toLatitude, longitude: q.toLongitude),
            leaving: leaving, maximumWalk: Double(walk), maximumRides: rides)
        else {
            throw Problem(type: "no-timetable", title: "No public-transport timetable is loaded", status: 404,
                          detail: "An operator loads one from a GTFS feed with `waymark import gtfs`.")
        }
        return .ok(.init(body: .json(TransitMapping.plan(plan))))
    }
}
