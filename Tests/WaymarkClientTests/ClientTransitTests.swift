import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

@Suite("SDK public transport against a live server (PLN-5)")
struct ClientTransitTests {
    @Test("PLN-5 journeys on the Milan timetable through the SDK; no timetable is a problem the app can read")
    func journeys() async throws {
        try await LiveServer.with { server in
            let client = WaymarkClient(serverURL: server.url, tokenStore: InMemoryTokenStore())
            let leonardo = Coordinate(latitude: 45.4781, longitude: 9.2272), bovisa = Coordinate(latitude: 45.5030, longitude: 9.1560)
            let rome = TimeZone(identifier: "Europe/Rome")!
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = rome
            // Next Tuesday at 08:30 in Milan: a weekday the demo timetable runs.
            let tuesday = calendar.nextDate(after: Date(), matching: DateComponents(hour: 8, minute: 30, weekday: 3), matchingPolicy: .nextTime)!

            await #expect { try await client.journeys(from: leonardo, to: bovisa, leaving: tuesday) } throws: {
                ($0 as? WaymarkClientError)?.problemKind == "no-timetable"
            }

            let validFrom = ServiceDay(containing: Date(), timeZone: rome).date
            let validTo = ServiceDay(containing: Date().addingTimeInterval(30 * 86_400), timeZone: rome).date
            _ = try await server.app.importTransitFeed(files: MilanTransit.files(validFrom: validFrom, validTo: validTo).map { (name: $0.key, data: $0.value) })
            let plan = try await client.journeys(from: leonardo, to: bovisa, leaving: tuesday, maximumWalkMetres: 800)
            #expect(plan.timeZone == "Europe/Rome")
            let fastest = try #require(plan.journeys.last)
            #expect(fastest.rides >= 1 && fastest.leave >= tuesday && fastest.arrive.timeIntervalSince(tuesday) < 3600)
            let rides = fastest.legs.filter { $0.kind == .ride }
            #expect(rides.allSatisfy { $0.route?.name.isEmpty == false && $0.from.name != nil && $0.to.name != nil })
            #expect(fastest.legs.first?.leave == fastest.leave && fastest.legs.last?.arrive == fastest.arrive)
            // Fewer rides first, each later journey arriving earlier.
            for (a, b) in zip(plan.journeys, plan.journeys.dropFirst()) { #expect(a.rides < b.rides && a.arrive > b.arrive) }

            let onFoot = try await client.journeys(from: leonardo, to: Coordinate(latitude: 45.4790, longitude: 9.2260), leaving: tuesday)
            #expect(onFoot.journeys.first?.rides == 0, "a walk of about 130 m comes first")
        }
    }
}
