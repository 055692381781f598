import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// Places in Milan for the plans below (the demo gazetteer's positions).
private enum Milan {
    static var leonardo: [String: Any] { ["name": "Politecnico – Leonardo", "latitude": 45.4781, "longitude": 9.2272] }
    static var piola: [String: Any] { ["name": "Piola M2", "latitude": 45.480850, "longitude": 9.224028] }
    static var bovisa: [String: Any] { ["name": "Politecnico – Bovisa", "latitude": 45.5030, "longitude": 9.1560] }
    static let zone = "Europe/Rome"
}

private func event(_ title: String, _ start: String, _ end: String, place: [String: Any]? = nil, minutes: Int? = nil,
                   modes: [String]? = nil, extra: [String: Any] = [:]) -> [String: Any] {
    var e: [String: Any] = ["title": title, "start": start, "end": end, "timeZone": Milan.zone]
    if let place { e["place"] = place }
    if let minutes { e["durationMinutes"] = minutes }
    if let modes { e["modes"] = modes }
    return e.merging(extra) { $1 }
}

private extension TestResponse {
    var eventId: String? { (json["event"] as? [String: Any])?["id"] as? String }
    var steps: [[String: Any]] { json["steps"] as? [[String: Any]] ?? [] }
}

/// The test clock is Wednesday 2026-11-18, 18:00 in Milan; Thursday the 19th is tomorrow.
@Suite("Planner on the server (PLN-1…6)")
struct PlannerTests {
    @Test("PLN-1 a first visit has one Personal calendar; calendars are named, coloured, renamed; the last used is the default; the last cannot go",
          arguments: TestDatabase.available)
    func calendars(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let first = try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token)
            let personal = try #require((first.json["calendars"] as? [[String: Any]])?.first)
            #expect(personal["name"] as? String == "Personal")
            #expect(first.json["defaultCalendarId"] as? String == personal["id"] as? String)
            let again = try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token)
            #expect((again.json["calendars"] as? [[String: Any]])?.count == 1, "made once")

            for bad: [String: Any] in [["name": "", "colour": "#112233"], ["name": "Work", "colour": "red"], ["name": "Work", "colour": "#12345"],
                                        ["name": String(repeating: "x", count: 61), "colour": "#112233"], ["name": "Work"],
                                        ["name": String(repeating: "x", count: 60) + " ", "colour": "#112233"]] {
                #expect(try await ctx.call(.POST, "/v1/me/planner/calendars", token: me.token, json: bad).status == .badRequest, "\(bad)")
            }
            let work = try await ctx.call(.POST, "/v1/me/planner/calendars", token: me.token, json: ["name": "  Work ", "colour": "#FFEB3B"])
            #expect(work.status == .created)
            #expect(work.json["name"] as? String == "Work")
            #expect(work.json["colour"] as? String == "#ffeb3b")
            #expect(work.json["textColour"] as? String == "#000000", "black reads better on yellow")
            let workId = try #require(work.json["id"] as? String)
            let renamed = try await ctx.call(.PUT, "/v1/me/planner/calendars/\(workId)", token: me.token, json: ["name": "Office", "colour": "#0b3d91"])
            #expect(renamed.json["textColour"] as? String == "#ffffff", "white reads better on dark blue")

            // A new calendar is not the default until an event goes to it.
            #expect(try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token).json["defaultCalendarId"] as? String == personal["id"] as? String)
            ctx.clock.advance(by: 60)
            let meeting = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                             json: event("Meeting", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["calendarId": workId.uppercased()]))
            #expect(meeting.status == .created)
            #expect(try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token).json["defaultCalendarId"] as? String == workId)
            let next = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Call", "2026-11-19T11:00", "2026-11-19T11:30"))
            #expect((next.json["event"] as? [String: Any])?["calendarId"] as? String == workId, "the last used calendar is the default")
            let unknown = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                             json: event("X", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["calendarId": UUID().uuidString]))
            #expect(unknown.problemType == "unknown-reference")

            // Another person sees and changes nothing of it.
            let stranger = try await ctx.device()
            #expect(try await ctx.call(.PUT, "/v1/me/planner/calendars/\(workId)", token: stranger.token, json: ["name": "Mine", "colour": "#000000"]).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/calendars/\(workId)", token: stranger.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/me/planner/events/\(try #require(meeting.eventId))", token: stranger.token).status == .notFound)

            // Deleting a calendar takes its events; the last one stays.
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/calendars/\(workId)", token: me.token).status == .noContent)
            #expect(try await ctx.call(.GET, "/v1/me/planner/events/\(try #require(meeting.eventId))", token: me.token).status == .notFound)
            let last = try await ctx.call(.DELETE, "/v1/me/planner/calendars/\(try #require(personal["id"] as? String))", token: me.token)
            #expect(last.status == .conflict)
            #expect(last.problemType == "last-calendar")
        }
    }

    @Test("PLN-1 first visits at once make one calendar; deleting every calendar at once leaves one", arguments: TestDatabase.available)
    func calendarRaces(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask { (try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token).json["calendars"] as? [Any])?.count ?? 0 }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts == [1, 1, 1, 1, 1, 1])
            for name in ["Work", "Sport", "Family"] {
                try await ctx.call(.POST, "/v1/me/planner/calendars", token: me.token, json: ["name": name, "colour": "#0b8043"])
            }
            let ids = (try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token).json["calendars"] as? [[String: Any]] ?? [])
                .compactMap { $0["id"] as? String }
            #expect(ids.count == 4)
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for id in ids {
                    group.addTask { try await ctx.call(.DELETE, "/v1/me/planner/calendars/\(id)", token: me.token).status.code }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [204, 204, 204, 409])
            #expect((try await ctx.call(.GET, "/v1/me/planner/calendars", token: me.token).json["calendars"] as? [Any])?.count == 1)
        }
    }

    @Test("PLN-2 events are checked as typed; a weekly 09:00 stays 09:00 across the DST change; one occurrence moves, another is cancelled",
          arguments: TestDatabase.available)
    func repeatsAndExceptions(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            for bad in [
                event("", "2026-11-19T09:00", "2026-11-19T10:00"),
                event("A", "2026-11-19 09:00", "2026-11-19T10:00"),
                event("A", "2026-11-19T10:00", "2026-11-19T09:00"),
                event("A", "2026-11-19T09:00", "2026-11-20T10:00"),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", minutes: 90),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["timeZone": "Mars/Olympus"]),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["repeat": ["weekdays": [2]]]),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["repeat": ["weekdays": [5], "until": "2026-11-01"]]),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["repeat": ["weekdays": [5], "until": "2026-12-01", "count": 3]]),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", place: ["name": "Nowhere", "latitude": 91, "longitude": 0]),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", modes: ["teleport"]),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", modes: []),
                event(String(repeating: "a", count: 200) + " ", "2026-11-19T09:00", "2026-11-19T10:00"),
                event("A", "2026-11-19T09:00", "2026-11-19T10:00", extra: ["description": String(repeating: "d", count: 2_001)]),
            ] {
                let res = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: bad)
                #expect(res.status == .badRequest, "\(bad)")
                #expect(res.json["detail"] != nil)
            }

            // Mondays and Wednesdays at 09:00 in Rome from 19 October, six times: CEST then CET.
            let seminar = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event(
                "Seminar", "2026-10-19T09:00", "2026-10-19T10:30", place: Milan.leonardo,
                extra: ["repeat": ["weekdays": [2, 4], "count": 6], "description": "Room 3.1"]))
            #expect(seminar.status == .created)
            let id = try #require(seminar.eventId)
            let list = try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-10-01&to=2026-11-30", token: me.token)
            let occurrences = try #require(list.json["occurrences"] as? [[String: Any]])
            #expect(occurrences.map { $0["day"] as? String ?? "" } == ["2026-10-19", "2026-10-21", "2026-10-26", "2026-10-28", "2026-11-02", "2026-11-04"])
            #expect(occurrences.map { $0["start"] as? String ?? "" } == ["2026-10-19T07:00:00.000Z", "2026-10-21T07:00:00.000Z", "2026-10-26T08:00:00.000Z",
                                                                            "2026-10-28T08:00:00.000Z", "2026-11-02T08:00:00.000Z", "2026-11-04T08:00:00.000Z"])

            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(id)/occurrences/2026-10-21", token: me.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(id)/occurrences/2026-10-20", token: me.token).status == .badRequest,
                    "not a day it is due on")
            let moved = try await ctx.call(.PUT, "/v1/me/planner/events/\(id)/occurrences/2026-10-28", token: me.token,
                                           json: ["start": "2026-10-29T14:00", "end": "2026-10-29T15:30"])
            #expect(moved.status == .ok)
            let stored = try await ctx.call(.GET, "/v1/me/planner/events/\(id)", token: me.token).json
            #expect(stored["cancelledDays"] as? [String] == ["2026-10-21"])
            #expect((stored["movedOccurrences"] as? [[String: Any]])?.first?["start"] as? String == "2026-10-29T14:00")
            #expect(stored["description"] as? String == "Room 3.1")
            let after = try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-10-19&to=2026-11-04", token: me.token)
            let days = (after.json["occurrences"] as? [[String: Any]] ?? []).map { "\($0["day"]!)@\($0["start"]!)" }
            #expect(days == ["2026-10-19@2026-10-19T07:00:00.000Z", "2026-10-26@2026-10-26T08:00:00.000Z", "2026-10-28@2026-10-29T13:00:00.000Z",
                             "2026-11-02@2026-11-02T08:00:00.000Z", "2026-11-04@2026-11-04T08:00:00.000Z"])
            // Moving it back to its own times undoes the move.
            try await ctx.call(.PUT, "/v1/me/planner/events/\(id)/occurrences/2026-10-28", token: me.token,
                               json: ["start": "2026-10-28T09:00", "end": "2026-10-28T10:30"])
            #expect((try await ctx.call(.GET, "/v1/me/planner/events/\(id)", token: me.token).json["movedOccurrences"] as? [Any])?.isEmpty == true)

            // Changing the rule keeps only the exceptions it still has: Mondays only drops the Wednesday cancel.
            let changed = try await ctx.call(.PUT, "/v1/me/planner/events/\(id)", token: me.token, json: event(
                "Seminar", "2026-10-19T09:00", "2026-10-19T10:30", extra: ["repeat": ["weekdays": [2], "until": "2026-11-09"]]))
            #expect(changed.status == .ok)
            #expect((changed.json["event"] as? [String: Any])?["cancelledDays"] as? [String] == [])
            #expect(try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-11-01&to=2026-11-30", token: me.token)
                .json["occurrences"].map { ($0 as? [Any])?.count } == 2)
            for bad in ["from=2026-11-01&to=2026-10-01", "from=2026-01-01&to=2026-12-31", "from=yesterday&to=2026-10-01"] {
                #expect(try await ctx.call(.GET, "/v1/me/planner/occurrences?\(bad)", token: me.token).status == .badRequest, "\(bad)")
            }
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(id)", token: me.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(id)", token: me.token).status == .notFound)
        }
    }

    @Test("PLN-4 preferences have defaults, are checked, and are kept", arguments: TestDatabase.available)
    func preferences(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let defaults = try await ctx.call(.GET, "/v1/me/planner/preferences", token: me.token).json
            #expect(defaults["lunchFrom"] as? String == "11:30")
            #expect(defaults["lunchTo"] as? String == "14:30")
            #expect(defaults["transitTo"] as? String == "24:00")
            #expect(defaults["maxWalkingMetres"] as? Int == 2000)
            var prefs = defaults
            for (key, value) in [("lunchTo", "11:50"), ("lunchFrom", "25:00"), ("transitFrom", "8"), ("maxWalkingMetres", 60_000)] as [(String, Any)] {
                var bad = defaults
                bad[key] = value
                #expect(try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: bad).status == .badRequest, "\(key)")
            }
            var halfLunch = defaults
            halfLunch["lunchTo"] = nil
            #expect(try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: halfLunch).status == .badRequest)
            prefs["ecoMode"] = true
            prefs["ownsCar"] = true
            prefs["rideSharingService"] = "Radiotaxi"
            prefs["lunchFrom"] = "12:00"
            prefs["lunchTo"] = "13:00"
            #expect(try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: prefs).status == .ok)
            let saved = try await ctx.call(.GET, "/v1/me/planner/preferences", token: me.token).json
            #expect(saved["ecoMode"] as? Bool == true)
            #expect(saved["rideSharingService"] as? String == "Radiotaxi")
            #expect(saved["lunchFrom"] as? String == "12:00")
            prefs["lunchFrom"] = nil
            prefs["lunchTo"] = nil
            #expect(try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: prefs).status == .ok)
            #expect(try await ctx.call(.GET, "/v1/me/planner/preferences", token: me.token).json["lunchFrom"] == nil, "no lunch wanted")
        }
    }

    @Test("PLN-5 PLN-6 the day plan places a flexible event between fixed ones, keeps lunch, shows trips and why", arguments: TestDatabase.available)
    func dayPlan(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let empty = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: me.token)
            #expect(empty.status == .ok)
            #expect(empty.steps.isEmpty)
            #expect(["UTC", "GMT"].contains(empty.json["timeZone"] as? String ?? ""), "no events: UTC until the person has some")

            try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Lecture", "2026-11-19T09:00", "2026-11-19T11:00", place: Milan.leonardo))
            try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Lab", "2026-11-19T13:00", "2026-11-19T15:00", place: Milan.bovisa))
            let saved = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                           json: event("Library", "2026-11-19T08:00", "2026-11-19T18:00", place: Milan.piola, minutes: 30))
            #expect(saved.status == .created)
            #expect(saved.json["warnings"] as? [Any] != nil)
            #expect((saved.json["warnings"] as? [Any])?.isEmpty == true, "nothing is out of reach")

            let plan = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: me.token)
            #expect(plan.json["timeZone"] as? String == Milan.zone)
            #expect(plan.json["past"] as? Bool == false)
            #expect(plan.json["proven"] as? Bool == true)
            let steps = plan.steps
            #expect(steps.map { $0["title"] as? String ?? "lunch" } == ["Lecture", "Library", "lunch", "Lab"])
            let library = steps[1]
            #expect(library["start"] as? String == "2026-11-19T10:05:00.000Z", "right after the lecture and the ride to Piola")
            #expect(library["flexible"] as? Bool == true)
            #expect((library["why"] as? String)?.contains("Placed right after “Lecture”.") == true)
            let walk = try #require(library["leg"] as? [String: Any])
            #expect(walk["mode"] as? String == "bike", "a shared bike (2 min to pick up) beats a 7-minute walk")
            #expect(walk["minutes"] as? Int == 5)
            #expect((library["options"] as? [[String: Any]])?.map { $0["mode"] as? String ?? "" } == ["bike", "walk", "transit"])
            let lunch = steps[2]
            #expect(lunch["kind"] as? String == "lunch")
            let instant = ISO8601DateFormatter()
            instant.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let lunchStart = try #require(instant.date(from: lunch["start"] as? String ?? ""))
            let lunchEnd = try #require(instant.date(from: lunch["end"] as? String ?? ""))
            #expect(lunchStart >= instant.date(from: "2026-11-19T10:30:00.000Z")!, "inside 11:30–14:30 in Rome")
            #expect(lunchEnd == lunchStart.addingTimeInterval(1800))
            let lab = steps[3]
            #expect(lab["arrival"] as? String == "onTime")
            #expect((lab["leg"] as? [String: Any])?["mode"] as? String == "transit", "too far to walk (2 km), no bike of her own, so transit")
            let options = (lab["options"] as? [[String: Any]] ?? []).map { $0["mode"] as? String ?? "" }
            #expect(options.contains("transit") && options.contains("bike"), "\(options)")
            let refusals = (lab["refusals"] as? [[String: Any]] ?? []).map { "\($0["mode"]!): \($0["reason"]!)" }
            #expect(refusals.contains("walk: Too far to walk with your limit."))
            #expect(refusals.contains("car: You have no car and car sharing is off."))
            #expect(plan.json["lunchMissed"] as? Bool == false)

            // A day already gone shows no travel (D3).
            try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Old", "2026-11-16T09:00", "2026-11-16T10:00", place: Milan.leonardo))
            try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Older", "2026-11-16T11:00", "2026-11-16T12:00", place: Milan.bovisa))
            let past = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-16", token: me.token)
            #expect(past.json["past"] as? Bool == true)
            #expect(past.steps.filter { $0["kind"] as? String == "event" }.count == 2)
            #expect(past.steps.allSatisfy { $0["leg"] == nil && $0["options"] == nil })
            #expect(try await ctx.call(.GET, "/v1/me/planner/days/2026-11-31", token: me.token).status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19?timeZone=Nowhere", token: me.token).status == .badRequest)
        }
    }

    @Test("PLN-6 an event that cannot be reached is warned about at once, in the answer and the inbox, with why", arguments: TestDatabase.available)
    func unreachableWarning(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Lecture", "2026-11-19T09:00", "2026-11-19T11:00", place: Milan.leonardo))
            let far = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                         json: event("Studio", "2026-11-19T12:00", "2026-11-19T13:00", place: Milan.bovisa, modes: ["walk"]))
            #expect(far.status == .created)
            let warning = try #require((far.json["warnings"] as? [[String: Any]])?.first)
            #expect(warning["day"] as? String == "2026-11-19")
            #expect(warning["message"] as? String == "“Studio” cannot be reached. No way there you allow: too far to walk with your limit.")
            let plan = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: me.token)
            let studio = try #require(plan.steps.first { $0["title"] as? String == "Studio" })
            #expect(studio["arrival"] as? String == "unreachable")
            #expect(studio["start"] as? String == "2026-11-19T11:00:00.000Z", "it keeps its own time")

            let inbox = try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(inbox.count == 1)
            #expect(inbox.first?["kind"] as? String == "plan-unreachable")
            #expect(inbox.first?["planDay"] as? String == "2026-11-19")
            #expect(inbox.first?["title"] as? String == "Check your plan for Thursday 19 November")

            // Saving the same day again warns in the answer but does not tell the inbox twice.
            let again = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token, json: event("Coffee", "2026-11-19T16:00", "2026-11-19T16:30"))
            #expect((again.json["warnings"] as? [Any])?.count == 1)
            #expect((try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [Any])?.count == 1)

            // Allowing transit makes it reachable, late by nothing: no warning.
            let fixed = try await ctx.call(.PUT, "/v1/me/planner/events/\(try #require(far.eventId))", token: me.token,
                                           json: event("Studio", "2026-11-19T12:00", "2026-11-19T13:00", place: Milan.bovisa, modes: ["walk", "transit"]))
            #expect((fixed.json["warnings"] as? [Any])?.isEmpty == true)

            // Deleting an event can leave another out of reach: without the stop at Piola, the
            // walk-only seminar at Leonardo cannot follow the studio at Bovisa, so one of the two
            // goes (the plan gives up the studio: keeping both costs a trip). The inbox hears.
            let stop = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                          json: event("Piola stop", "2026-11-19T17:00", "2026-11-19T17:30", place: Milan.piola))
            let walk = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                          json: event("Walk-only seminar", "2026-11-19T18:00", "2026-11-19T19:00", place: Milan.leonardo, modes: ["walk"]))
            #expect((walk.json["warnings"] as? [[String: Any]])?.contains { ($0["title"] as? String) == "Walk-only seminar" } == false)
            let before = (try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [Any])?.count ?? 0
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(try #require(stop.eventId))", token: me.token).status == .noContent)
            let told = try await ctx.call(.GET, "/v1/me/notifications", token: me.token).json["notifications"] as? [[String: Any]] ?? []
            #expect(told.count == before + 1)
            #expect(told.first?["body"] as? String == "“Studio” cannot be reached. You could get there, but then another event of the day could not be reached.",
                    "\(told.map { $0["body"] ?? "" })")
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(try #require(walk.eventId))", token: me.token).status == .noContent)

            // Too little time is a late arrival, warned too.
            let tight = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                           json: event("Review", "2026-11-19T13:05", "2026-11-19T14:00", place: Milan.leonardo, modes: ["transit"]))
            let late = try #require((tight.json["warnings"] as? [[String: Any]])?.first)
            #expect((late["message"] as? String)?.hasPrefix("“Review” will begin late.") == true, "\(late)")
        }
    }

    @Test("ACC-8 PLN-1 a device's events move into the account it signs in to, into its calendar of the same name", arguments: TestDatabase.available)
    func deviceMovesToAccount(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let account = try await ctx.register("nora")
            try await ctx.call(.POST, "/v1/me/planner/events", token: account.token, json: event("Gym", "2026-11-19T07:00", "2026-11-19T08:00"))
            let device = try await ctx.device()
            let trip = try await ctx.call(.POST, "/v1/me/planner/calendars", token: device.token, json: ["name": "Trips", "colour": "#0b8043"])
            try await ctx.call(.POST, "/v1/me/planner/events", token: device.token,
                               json: event("Train", "2026-11-20T07:00", "2026-11-20T08:00", extra: ["calendarId": try #require(trip.json["id"] as? String)]))
            try await ctx.call(.POST, "/v1/me/planner/calendars", token: device.token, json: ["name": "Untouched", "colour": "#616161"])
            let personal = try await ctx.call(.POST, "/v1/me/planner/events", token: device.token,
                                              json: event("Dentist", "2026-11-20T15:00", "2026-11-20T16:00", extra: ["calendarId": try #require(
                                                  (try await ctx.call(.GET, "/v1/me/planner/calendars", token: device.token).json["calendars"] as? [[String: Any]])?
                                                      .first { $0["name"] as? String == "Personal" }?["id"] as? String)]))
            #expect(personal.status == .created)
            let signedIn = try await ctx.signIn("nora", device: device.token)
            let token = try #require(signedIn.json["token"] as? String)
            let names = (try await ctx.call(.GET, "/v1/me/planner/calendars", token: token).json["calendars"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.sorted() == ["Personal", "Trips"], "the device's Personal joins the account's; an empty calendar stays behind")
            let titles = (try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-11-19&to=2026-11-20", token: token)
                .json["occurrences"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles == ["Gym", "Train", "Dentist"])
        }
    }

    @Test("PLN-2 places to hold an event: lots and buildings by name, checked input", arguments: TestDatabase.available)
    func places(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let found = try await ctx.call(.GET, "/v1/planner/places?q=test%20lo")
            #expect(found.status == .ok)
            let first = try #require((found.json["places"] as? [[String: Any]])?.first)
            #expect(first["name"] as? String == "Test Lot")
            #expect(first["kind"] as? String == "lot")
            #expect(try await ctx.call(.GET, "/v1/planner/places?q=%20-%20").status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/planner/places?q=").status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/planner/places?q=\(String(repeating: "a", count: 201))").status == .badRequest)
            #expect(try await ctx.call(.GET, "/v1/planner/places?q=lot&limit=0").status == .badRequest)
        }
    }
}

@Suite("Planner days beyond what a person keeps (PLN-6, QLT-2)")
struct CrowdedDayTests {
    @Test("PLN-6 a day of 90 events, 70 of them flexible, is planned at once: a first plan, never a crash")
    func crowded() throws {
        let rome = try #require(TimeZone(identifier: "Europe/Rome"))
        let day = try #require(LocalDay("2026-11-19"))
        var events: [PlannerEventRow] = []
        for i in 0..<90 {
            let flexible = i < 70
            let start = WallTime(day: day, minute: 420 + i * 5)
            let end = WallTime(day: day, minute: flexible ? 1_200 : 425 + i * 5)
            let place = EventPlace(name: "P\(i % 7)", coordinate: Coordinate(latitude: 45.47 + Double(i % 7) * 0.004, longitude: 9.2))
            events.append(PlannerEventRow(id: "e\(100 + i)", calendarId: "c", title: "Event \(i)", start: start, end: end, zone: rome,
                                          durationMinutes: flexible ? 10 : nil, repeats: nil, place: place, modes: [.walk, .transit]))
        }
        let view = DayPlans.plan(events: events, preferences: TravelPreferences(), day: day, zone: rome,
                                 now: Date(timeIntervalSince1970: 1_795_021_200), estimator: GroundDistanceEstimator())
        #expect(view.steps.filter { $0.kind == DayPlans.Step.Kind.event }.count == 90)
        #expect(!view.proven, "a first plan within the small budget of a crowded day, not a long search")
    }
}
