import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Time to leave (PLN-7)")
struct LeaveAlertTests {
    static let zone = TimeZone(identifier: "Europe/Rome")!
    static var leonardo: [String: Any] { ["name": "Politecnico – Leonardo", "latitude": 45.4781, "longitude": 9.2272] }
    static var bovisa: [String: Any] { ["name": "Politecnico – Bovisa", "latitude": 45.5030, "longitude": 9.1560] }
    static var duomo: [String: Any] { ["name": "Duomo", "latitude": 45.4642, "longitude": 9.1916] }

    static func event(_ title: String, _ start: String, _ end: String, _ place: [String: Any], calendar: String? = nil) -> [String: Any] {
        var e: [String: Any] = ["title": title, "start": start, "end": end, "timeZone": zone.identifier, "place": place, "modes": ["walk", "transit"]]
        if let calendar { e["calendarId"] = calendar }
        return e
    }

    @Test("PLN-7 the day's first alert comes from the last position, the next from the event before; each at its moment, once, across restarts and two servers; a calendar can turn them off",
          arguments: TestDatabase.available)
    func pln7TimeToLeave(db: TestDatabase) async throws {
        // Thursday 19 November 2026, 07:30 in Milan.
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-19T06:30:00Z")!)
        try await TestApp.with(db, clock: clock, configure: fastHashing) { ctx in
            let files = MilanTransit.files(validFrom: .init(year: 2026, month: 11, day: 1), validTo: .init(year: 2027, month: 1, day: 31))
            _ = try await ctx.app.importTransitFeed(files: files.map { (name: $0.key, data: $0.value) })
            let me = try await ctx.device()
            try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: [
                "ecoMode": false, "maxWalkingMetres": 800, "maxBikingMetres": 0, "ownsBike": false, "bikeSharing": false,
                "transitFrom": "05:00", "transitTo": "24:00", "ownsCar": false, "carSharing": false])
            let lecture = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: Self.event("Lecture", "2026-11-19T09:00", "2026-11-19T10:00", Self.leonardo))
            let lab = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: Self.event("Lab", "2026-11-19T11:00", "2026-11-19T12:00", Self.bovisa))
            let gym = try await ctx.call(.POST, "/v1/me/planner/calendars", token: me.token, json: ["name": "Gym", "colour": "#0b8043", "leaveAlerts": false])
            #expect(gym.json["leaveAlerts"] as? Bool == false)
            _ = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                   json: Self.event("Swim", "2026-11-19T13:00", "2026-11-19T14:00", Self.duomo, calendar: gym.json["id"] as? String))
            let lectureId = try #require((lecture.json["event"] as? [String: Any])?["id"] as? String)
            let labId = try #require((lab.json["event"] as? [String: Any])?["id"] as? String)
            let alerts = ctx.services.planner.leaveAlerts

            // No position yet: the day's first event has no trip to time.
            #expect(try await alerts.dueAlerts(userId: me.id, at: clock.now).map(\.event.title) == [])
            // At home near the Duomo.
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token, json: ["latitude": 45.4660, "longitude": 9.1890]).status == .noContent)
            let first = try #require(try await alerts.dueAlerts(userId: me.id, at: clock.now).first)
            #expect(first.event.title == "Lecture" && first.fromPosition && first.leg.journey != nil, "by the timetable from the position")
            // Moving re-times it: from Piola, next door, it is later.
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token, json: ["latitude": 45.4808, "longitude": 9.2240]).status == .noContent)
            let nearer = try #require(try await alerts.dueAlerts(userId: me.id, at: clock.now).first)
            #expect(nearer.leg.depart > first.leg.depart, "\(nearer.leg.depart) after \(first.leg.depart)")
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token, json: ["latitude": 45.4660, "longitude": 9.1890]).status == .noContent)

            #expect(try await alerts.run() == 0, "not yet")
            clock.set(first.leg.depart.addingTimeInterval(-60))
            #expect(try await alerts.run() == 1)
            #expect(try await alerts.run() == 0, "never twice")
            // A restarted server (a new job on the same database) knows it was sent.
            let restarted = LeaveAlerts(store: ctx.services.store, plans: ctx.services.planner.plans, positions: ctx.services.planner.positions,
                                        estimator: GroundDistanceEstimator(), transit: ctx.services.planner.transit, now: clock.function, logger: ctx.app.logger)
            #expect(try await restarted.run() == 0)

            let inbox = try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [[String: Any]] ?? []
            let notice = try #require(inbox.first { $0["kind"] as? String == "time-to-leave" })
            #expect(notice["title"] as? String == "Time to leave for “Lecture”")
            #expect(notice["eventId"] as? String == lectureId && notice["planDay"] as? String == "2026-11-19")
            let body = notice["body"] as? String ?? ""
            let ride = try #require(first.leg.journey?.journey.legs.lazy.compactMap { if case .ride(let r) = $0 { r } else { nil } }.first)
            #expect(body.hasPrefix("\(TransitWords.vehicle(ride.route)) from \(ride.from.name) at ") && body.contains("by 0"), "\(body)")
            #expect(Pusher.screen(of: try #require(try await NotificationStore.after(0, userId: me.id, limit: 50, sql: ctx.services.store.sql)
                .first { $0.kind == "time-to-leave" })) == "/plan/event/\(lectureId)/2026-11-19")

            // The Lab's trip is from the Lecture; two servers at its moment send it once.
            let next = try #require(try await alerts.dueAlerts(userId: me.id, at: clock.now).first { $0.event.title == "Lab" })
            #expect(!next.fromPosition && next.leg.journey != nil)
            clock.set(next.leg.depart.addingTimeInterval(-30))
            async let a = alerts.run()
            async let b = restarted.run()
            #expect(try await a + b == 1)
            let kinds = try await NotificationStore.after(0, userId: me.id, limit: 50, sql: ctx.services.store.sql).filter { $0.kind == "time-to-leave" }
            #expect(kinds.map(\.eventId) == [lectureId, labId])

            // The Gym calendar's swim never alerts.
            clock.set(ISO8601DateFormatter().date(from: "2026-11-19T11:55:00Z")!)
            #expect(try await alerts.dueAlerts(userId: me.id, at: clock.now).isEmpty)
            #expect(try await alerts.run() == 0)
        }
    }

    @Test("PLN-7 only the latest position is kept, it is gone at the end of its day or when forgotten, and leaves with the person",
          arguments: TestDatabase.available)
    func pln7PositionIsNotAHistory(db: TestDatabase) async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-19T06:30:00Z")!)
        try await TestApp.with(db, clock: clock, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let sql = ctx.services.store.sql
            let rows = { try await sql.raw("SELECT latitude FROM planner_positions").all().map { try $0.decode(column: "latitude", as: Double.self) } }
            for lat in [45.46, 45.47, 45.48] {
                #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token,
                                           json: ["latitude": lat, "longitude": 9.19, "timeZone": "Europe/Rome"]).status == .noContent)
            }
            #expect(try await rows() == [45.48], "the latest only")
            for bad: [String: Any] in [["latitude": 91, "longitude": 9], ["latitude": 45, "longitude": 9, "timeZone": "Mars/Olympus"]] {
                #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token, json: bad).status == .badRequest)
            }
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", json: ["latitude": 45, "longitude": 9]).status == .unauthorized)
            // Midnight in Milan ends it.
            clock.set(ISO8601DateFormatter().date(from: "2026-11-19T23:00:01Z")!)
            #expect(try await ctx.services.planner.positions.latest(userId: me.id) == nil)
            try await ctx.services.planner.leaveAlerts.run()
            #expect(try await rows().isEmpty)
            // Forgotten on request, and erased with the account.
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token, json: ["latitude": 45.5, "longitude": 9.2]).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/position", token: me.token).status == .noContent)
            #expect(try await rows().isEmpty)
            #expect(try await ctx.call(.PUT, "/v1/me/planner/position", token: me.token, json: ["latitude": 45.5, "longitude": 9.2]).status == .noContent)
            try await PlannerPersonalData().erase(userId: me.id, now: clock.now, sql: sql)
            #expect(try await rows().isEmpty)
        }
    }
}
