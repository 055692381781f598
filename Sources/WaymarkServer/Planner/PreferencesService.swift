import Foundation
import WaymarkCore

/// How a person likes to travel and when they eat (PLN-4): defaults until saved.
struct PreferencesService: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    func preferences(_ principal: Principal) async throws -> TravelPreferences {
        try await PlannerStore.preferences(userId: principal.userId, on: store.sql)
    }

    func save(_ principal: Principal, _ p: TravelPreferences) async throws -> TravelPreferences {
        if let problem = p.problem { throw Problem.badRequest(problem) }
        let now = now()
        try await store.write { sql in try await PlannerStore.savePreferences(p, userId: principal.userId, now: now, on: sql) }
        return p
    }
}
