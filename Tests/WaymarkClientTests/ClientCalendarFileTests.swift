import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK calendar files, subscriptions, tickets and time to leave against a live server (PLN-7, PLN-9, PLN-10)")
struct ClientCalendarFileTests {
    static let rome = TimeZone(identifier: "Europe/Rome")!

    @Test("PLN-10 an .ics file in, the calendar out again and by subscription, through the SDK")
    func pln10Files() async throws {
        try await LiveServer.with { server in
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await client.ensureDeviceIdentity()
            let day = LocalDay(containing: Date().addingTimeInterval(2 * 86_400), timeZone: Self.rome)
            let stamp = day.description.replacingOccurrences(of: "-", with: "")
            let ics = """
                BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nX-WR-CALNAME:Seminars\r\nBEGIN:VEVENT\r\nUID:s1@example\r\n\
                DTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Europe/Rome:\(stamp)T170000\r\nDTEND;TZID=Europe/Rome:\(stamp)T180000\r\n\
                RRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:Reading group\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
                """
            let report = try await client.importCalendar(ics: Data(ics.utf8), fileName: "seminars.ics")
            #expect(report.calendar.name == "Seminars" && report.added == 1 && report.skipped.isEmpty)
            let seen = try await client.occurrences(from: day.description, to: day.adding(days: 20).description)
            #expect(seen.filter { $0.title == "Reading group" }.count == 3)

            let file = String(decoding: try await client.exportCalendar(id: report.calendar.id), as: UTF8.self)
            #expect(file.contains("UID:s1@example") && file.contains("RRULE:FREQ=WEEKLY") && file.contains("COUNT=3"))

            let (subscription, url) = try await client.subscribeCalendar(id: report.calendar.id)
            #expect(subscription.active && url.absoluteString.hasPrefix(server.url.absoluteString))
            let (body, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200 && String(decoding: body, as: UTF8.self).contains("Reading group"))
            #expect(try await client.calendarSubscription(calendarId: report.calendar.id).path == nil, "shown once")
            try await client.unsubscribeCalendar(id: report.calendar.id)
            let (_, gone) = try await URLSession.shared.data(from: url)
            #expect((gone as? HTTPURLResponse)?.statusCode == 404)
        }
    }

    @Test("PLN-7 PLN-9 the position for time to leave, and the ticket for a transit trip, through the SDK")
    func pln9Tickets() async throws {
        try await LiveServer.with(configure: { $0.demoTickets = true }) { server in
            let validFrom = ServiceDay(containing: Date(), timeZone: Self.rome).date
            let validTo = ServiceDay(containing: Date().addingTimeInterval(30 * 86_400), timeZone: Self.rome).date
            _ = try await server.app.importTransitFeed(files: MilanTransit.files(validFrom: validFrom, validTo: validTo).map { (name: $0.key, data: $0.value) })
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            try await client.ensureDeviceIdentity()
            try await client.reportPlannerPosition(latitude: 45.4660, longitude: 9.1890, timeZone: "Europe/Rome")
            try await client.forgetPlannerPosition()

            // Next Tuesday in Milan: the demo timetable's weekday service.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = Self.rome
            let tuesday = LocalDay(containing: calendar.nextDate(after: Date().addingTimeInterval(86_400), matching: DateComponents(hour: 12, weekday: 3),
                                                                 matchingPolicy: .nextTime)!, timeZone: Self.rome)
            _ = try await client.createEvent(.init(title: "Lecture", start: "\(tuesday)T08:00", end: "\(tuesday)T09:00", timeZone: "Europe/Rome",
                                                   place: .init(name: "Leonardo", latitude: 45.4781, longitude: 9.2272), modes: [.walk, .transit]))
            let lab = try await client.createEvent(.init(title: "Lab", start: "\(tuesday)T10:00", end: "\(tuesday)T12:00", timeZone: "Europe/Rome",
                                                         place: .init(name: "Bovisa", latitude: 45.5030, longitude: 9.1560), modes: [.walk, .transit]))
            let ticket = try await client.buyTicket(eventId: lab.event.id, day: tuesday.description)
            #expect(ticket.demo && ticket.code.count == 6 && !ticket.lines.isEmpty && ticket.qrSvg.hasPrefix("<svg"))
            #expect(try await client.buyTicket(eventId: lab.event.id, day: tuesday.description).id == ticket.id)
            #expect(try await client.tickets().map(\.code) == [ticket.code])
        }
    }
}
