import Foundation
import SQLKit
import WaymarkCore

/// What the Planner keeps of a person (ACC-5, ACC-8): calendars with their events and
/// subscription addresses, travel preferences and tickets. On sign-in a device's events join the
/// account's (D1: every device sees the same plan): into the account's calendar of the same name
/// when it has one, else with their own calendar; an untouched calendar of the device stays
/// behind. Its preferences are kept only if the account has none.
struct PlannerPersonalData: PersonalData {
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws {
        let accountCalendars = try await PlannerStore.calendars(userId: accountId, on: sql)
        var byName: [String: String] = [:]
        for c in accountCalendars { byName[c.name.lowercased()] = c.id }
        for c in try await PlannerStore.calendars(userId: deviceId, on: sql) {
            let events = try await sql.raw("SELECT COUNT(*) AS n FROM planner_events WHERE calendar_id = \(bind: c.id)").first()?
                .decode(column: "n", as: Int.self) ?? 0
            if let same = byName[c.name.lowercased()] {
                // The same file imported on both sides: the account's copy stays.
                try await sql.raw("""
                    DELETE FROM planner_events WHERE calendar_id = \(bind: c.id)
                    AND ical_uid IN (SELECT ical_uid FROM planner_events WHERE calendar_id = \(bind: same) AND ical_uid IS NOT NULL)
                    """).run()
                try await sql.raw("""
                    UPDATE planner_events SET calendar_id = \(bind: same), user_id = \(bind: accountId) WHERE calendar_id = \(bind: c.id)
                    """).run()
            } else if events > 0 || accountCalendars.isEmpty {
                try await sql.raw("UPDATE planner_calendars SET user_id = \(bind: accountId) WHERE id = \(bind: c.id)").run()
                try await sql.raw("UPDATE planner_events SET user_id = \(bind: accountId) WHERE calendar_id = \(bind: c.id)").run()
                try await sql.raw("UPDATE planner_subscriptions SET user_id = \(bind: accountId) WHERE calendar_id = \(bind: c.id)").run()
                byName[c.name.lowercased()] = c.id
            }
        }
        let hasPreferences = try await sql.raw("SELECT user_id FROM planner_preferences WHERE user_id = \(bind: accountId)").first() != nil
        if !hasPreferences {
            try await sql.raw("UPDATE planner_preferences SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)").run()
        }
        // The device's last position is not carried over: the app reports one again.
        try await sql.raw("DELETE FROM planner_positions WHERE user_id = \(bind: deviceId)").run()
        try await sql.raw("UPDATE leave_alerts SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)").run()
        try await sql.raw("UPDATE planner_tickets SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)").run()
    }

    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        // Exceptions go with their events.
        for table in ["planner_tickets", "planner_subscriptions", "planner_events", "planner_calendars", "planner_preferences", "planner_positions", "leave_alerts"] {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
    }
}
