import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore

@Suite("SDK planner against a live server (PLN-1…6)")
struct ClientPlannerTests {
    @Test("PLN-1 PLN-2 PLN-4 PLN-6 calendars, a weekly event with a cancelled day, preferences and the day plan with its legs through the SDK")
    func plan() async throws {
        try await LiveServer.with(configure: { $0.passwordHashCost = 4 }) { server in
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await client.ensureDeviceIdentity()
            let rome = TimeZone(identifier: "Europe/Rome")!
            // Two days ahead, so the day is never "past" whatever the hour.
            let day = LocalDay(containing: Date().addingTimeInterval(2 * 86_400), timeZone: rome)
            let first = try await client.calendars()
            #expect(first.calendars.map(\.name) == ["Personal"])
            let work = try await client.createCalendar(name: "Work", colour: "#0b8043")
            #expect(work.textColour == "#ffffff")

            let lecture = try await client.createEvent(.init(
                title: "Lecture", calendarId: work.id, start: "\(day)T09:00", end: "\(day)T11:00", timeZone: "Europe/Rome",
                _repeat: .init(weekdays: [day.weekday], count: 3),
                place: .init(name: "Politecnico – Leonardo", latitude: 45.4781, longitude: 9.2272)))
            #expect(lecture.warnings.isEmpty)
            #expect(try await client.calendars().defaultCalendarId == work.id, "the calendar used last")
            _ = try await client.createEvent(.init(
                title: "Lab", start: "\(day)T13:00", end: "\(day)T15:00", timeZone: "Europe/Rome",
                place: .init(name: "Politecnico – Bovisa", latitude: 45.5030, longitude: 9.1560), modes: [.walk, .transit]))
            let week = try await client.occurrences(from: day.description, to: day.adding(days: 14).description)
            #expect(week.map(\.title) == ["Lecture", "Lab", "Lecture", "Lecture"])
            try await client.cancelOccurrence(eventId: lecture.event.id, day: day.adding(days: 7).description)
            #expect(try await client.occurrences(from: day.description, to: day.adding(days: 14).description).count == 3)
            await #expect { try await client.cancelOccurrence(eventId: lecture.event.id, day: day.adding(days: 1).description) } throws: {
                ($0 as? WaymarkClientError)?.problemKind == "bad-request"
            }

            var prefs = try await client.travelPreferences()
            #expect(prefs.lunchFrom == "11:30")
            prefs.ecoMode = true
            prefs = try await client.updateTravelPreferences(prefs)
            #expect(prefs.ecoMode)

            let plan = try await client.dayPlan(day: day.description)
            #expect(plan.timeZone == "Europe/Rome")
            #expect(plan.steps.compactMap(\.title) == ["Lecture", "Lab"])
            #expect(plan.steps.contains { $0.kind == .lunch })
            let lab = try #require(plan.steps.last)
            #expect(lab.leg?.mode == .transit)
            #expect(lab.arrival == .onTime)
            #expect(plan.travelMinutes == lab.leg?.minutes)
            let places = try await client.plannerPlaces(matching: "nutwood")
            #expect(places.first?.kind == .lot)
        }
    }
}
