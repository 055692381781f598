import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Tickets and shared rides for the plan's trips (PLN-9)")
struct TicketTests {
    static let zone = TimeZone(identifier: "Europe/Rome")!
    static var leonardo: [String: Any] { ["name": "Politecnico – Leonardo", "latitude": 45.4781, "longitude": 9.2272] }
    static var bovisa: [String: Any] { ["name": "Politecnico – Bovisa", "latitude": 45.5030, "longitude": 9.1560] }

    static func event(_ title: String, _ start: String, _ end: String, _ place: [String: Any], modes: [String]) -> [String: Any] {
        ["title": title, "start": start, "end": end, "timeZone": zone.identifier, "place": place, "modes": modes]
    }

    static func preferences(ride: String? = nil) -> [String: Any] {
        var p: [String: Any] = ["ecoMode": false, "maxWalkingMetres": 800, "maxBikingMetres": 20000, "ownsBike": false, "bikeSharing": true,
                                "transitFrom": "05:00", "transitTo": "24:00", "ownsCar": false, "carSharing": false]
        if let ride { p["rideSharingService"] = ride }
        return p
    }

    @Test("PLN-9 the transit trip to an event gets one ticket with a code and a QR code; buying again gives the same; nobody else can buy or see it",
          arguments: TestDatabase.available)
    func pln9BuyTicket(db: TestDatabase) async throws {
        // Wednesday 18 November 2026, 08:00 in Milan: the trip is tomorrow.
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-18T07:00:00Z")!)
        try await TestApp.with(db, clock: clock, configure: { fastHashing(&$0); $0.demoTickets = true }) { ctx in
            let files = MilanTransit.files(validFrom: .init(year: 2026, month: 11, day: 1), validTo: .init(year: 2027, month: 1, day: 31))
            _ = try await ctx.app.importTransitFeed(files: files.map { (name: $0.key, data: $0.value) })
            let me = try await ctx.device()
            try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: Self.preferences())
            _ = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                   json: Self.event("Lecture", "2026-11-19T08:00", "2026-11-19T09:00", Self.leonardo, modes: ["walk", "transit"]))
            let lab = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                         json: Self.event("Lab", "2026-11-19T10:00", "2026-11-19T12:00", Self.bovisa, modes: ["walk", "transit"]))
            let labId = try #require((lab.json["event"] as? [String: Any])?["id"] as? String)
            let path = "/v1/me/planner/events/\(labId)/occurrences/2026-11-19/ticket"

            let bought = try await ctx.call(.POST, path, token: me.token)
            #expect(bought.status == .created, "\(String(decoding: bought.body, as: UTF8.self))")
            let code = try #require(bought.json["code"] as? String)
            #expect(code.count == 6 && code.allSatisfy { DemoTicketProvider.codeAlphabet.contains($0) })
            #expect(bought.json["demo"] as? Bool == true && (bought.json["price"] as? [String: Any])?["minorUnits"] as? Int == 220)
            let qrText = try #require(bought.json["qrText"] as? String)
            #expect(qrText.hasPrefix("WAYMARK-DEMO-TICKET;\(code);"))
            let svg = try #require(bought.json["qrSvg"] as? String)
            #expect(svg.hasPrefix("<svg") && svg.contains("Ticket \(code)"))
            #expect(svg == (try QRCode(text: qrText, correction: .medium)).svg(moduleSize: 4, quietZone: 4, label: "Ticket \(code)"))
            let lines = bought.json["lines"] as? [String] ?? []
            let plan = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: me.token)
            let journey = try #require(((plan.json["steps"] as? [[String: Any]])?.first { $0["title"] as? String == "Lab" }?["leg"] as? [String: Any])?["journey"] as? [String: Any])
            let rides = (journey["legs"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "ride" }
            #expect(lines == rides.compactMap { ($0["route"] as? [String: Any])?["name"] as? String } && !lines.isEmpty)
            #expect(bought.json["validFrom"] as? String == journey["leave"] as? String, "valid from when the trip starts")

            let again = try await ctx.call(.POST, path, token: me.token)
            #expect(again.status == .ok && again.json["code"] as? String == code && again.json["id"] as? String == bought.json["id"] as? String)
            let list = try await ctx.call(.GET, "/v1/me/planner/tickets", token: me.token)
            #expect((list.json["tickets"] as? [[String: Any]])?.map { $0["code"] as? String } == [code])
            #expect((list.json["tickets"] as? [[String: Any]])?.first?["eventTitle"] as? String == "Lab")

            let stranger = try await ctx.device()
            #expect(try await ctx.call(.POST, path, token: stranger.token).status == .notFound)
            #expect((try await ctx.call(.GET, "/v1/me/planner/tickets", token: stranger.token).json["tickets"] as? [Any])?.isEmpty == true)

            // The first event of the day has no trip before it; a day the event is not on has none at all.
            let lecture = try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-11-19&to=2026-11-19", token: me.token)
            let lectureId = try #require((lecture.json["occurrences"] as? [[String: Any]])?.first { $0["title"] as? String == "Lecture" }?["eventId"] as? String)
            let none = try await ctx.call(.POST, "/v1/me/planner/events/\(lectureId)/occurrences/2026-11-19/ticket", token: me.token)
            #expect(none.status == .conflict && none.problemType == "no-transit-leg")
            #expect(try await ctx.call(.POST, "/v1/me/planner/events/\(labId)/occurrences/2026-11-20/ticket", token: me.token).status == .badRequest)

            // After the trip, no ticket can be bought for it; the one bought stays listed for a week.
            clock.set(ISO8601DateFormatter().date(from: "2026-11-19T12:00:00Z")!)
            let late = try await ctx.call(.POST, "/v1/me/planner/events/\(labId)/occurrences/2026-11-19/ticket", token: me.token)
            #expect(late.status == .ok, "the ticket bought before is still given")
            clock.set(ISO8601DateFormatter().date(from: "2026-11-30T12:00:00Z")!)
            #expect((try await ctx.call(.GET, "/v1/me/planner/tickets", token: me.token).json["tickets"] as? [Any])?.isEmpty == true)

            // Erasing the person's Planner data erases their tickets.
            let sql = ctx.services.store.sql
            try await PlannerPersonalData().erase(userId: me.id, now: clock.now, sql: sql)
            #expect(try await ctx.allRows()["planner_tickets"]?.isEmpty ?? true)
        }
    }

    @Test("PLN-9 without a ticket provider \"Buy ticket\" says so (503)", arguments: TestDatabase.available)
    func pln9NoProvider(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: { fastHashing(&$0); $0.demoTickets = false }) { ctx in
            let me = try await ctx.device()
            let e = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                       json: Self.event("Lab", "2026-11-19T10:00", "2026-11-19T12:00", Self.bovisa, modes: ["walk", "transit"]))
            let id = try #require((e.json["event"] as? [String: Any])?["id"] as? String)
            let res = try await ctx.call(.POST, "/v1/me/planner/events/\(id)/occurrences/2026-11-19/ticket", token: me.token)
            #expect(res.status == .serviceUnavailable && (res.json["detail"] as? String ?? "").contains("transport company"))
        }
    }

    @Test("PLN-9 a ride goes through the person's service, with the destination in the link; a bike they do not own is the city's shared one",
          arguments: TestDatabase.available)
    func pln9SharingProviders(db: TestDatabase) async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-18T07:00:00Z")!)
        try await TestApp.with(db, clock: clock, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            try await ctx.call(.PUT, "/v1/me/planner/preferences", token: me.token, json: Self.preferences(ride: "Uber"))
            _ = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                   json: Self.event("Lecture", "2026-11-19T08:00", "2026-11-19T09:00", Self.leonardo, modes: ["walk"]))
            _ = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                   json: Self.event("Lab", "2026-11-19T10:00", "2026-11-19T12:00", Self.bovisa, modes: ["rideShare"]))
            _ = try await ctx.call(.POST, "/v1/me/planner/events", token: me.token,
                                   json: Self.event("Seminar", "2026-11-19T13:00", "2026-11-19T14:00", Self.leonardo, modes: ["bike"]))
            let plan = try await ctx.call(.GET, "/v1/me/planner/days/2026-11-19", token: me.token)
            let legs = Dictionary(uniqueKeysWithValues: (plan.json["steps"] as? [[String: Any]] ?? []).compactMap { s in
                (s["title"] as? String).flatMap { t in (s["leg"] as? [String: Any]).map { (t, $0) } }
            })
            let ride = try #require(legs["Lab"]?["provider"] as? [String: Any], "\(plan.json)")
            #expect(legs["Lab"]?["mode"] as? String == "rideShare" && ride["name"] as? String == "Uber")
            #expect((ride["url"] as? String ?? "").contains("dropoff%5Blatitude%5D=45.503000"))
            let bike = try #require(legs["Seminar"]?["provider"] as? [String: Any])
            #expect(legs["Seminar"]?["mode"] as? String == "bike" && bike["name"] as? String == "BikeMi")
        }
    }
}
