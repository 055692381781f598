import Foundation
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// The iCalendar corpus kept in the core tests' fixtures (BSD 2-Clause, see its LICENSE.rst).
enum ICalendarCorpus {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WaymarkCoreTests/Fixtures/ical")

    static var files: [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "ics" }.sorted { $0.path < $1.path }
    }
}

@Suite("iCalendar files and subscriptions on the server (PLN-10)")
struct CalendarFileTests {
    /// A term's timetable as a university's calendar exports it: a weekly lecture with one week
    /// off and one moved, a monthly seminar, a to-do, a three-day trip and a property of its own.
    static let term = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Politecnico//Timetable//IT\r
        X-WR-CALNAME:Autumn term\r
        BEGIN:VEVENT\r
        UID:lecture-1@polimi.example\r
        DTSTAMP:20261101T080000Z\r
        DTSTART;TZID=Europe/Rome:20261102T090000\r
        DTEND;TZID=Europe/Rome:20261102T110000\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20261217T225959Z\r
        EXDATE;TZID=Europe/Rome:20261109T090000\r
        SUMMARY:Algorithms\\, lecture\r
        LOCATION:Aula 3.1.2\r
        GEO:45.4781;9.2272\r
        X-POLIMI-ROOM-CODE:L31.2\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT15M\r
        DESCRIPTION:Algorithms\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:lecture-1@polimi.example\r
        DTSTAMP:20261101T080000Z\r
        RECURRENCE-ID;TZID=Europe/Rome:20261119T090000\r
        DTSTART;TZID=Europe/Rome:20261119T140000\r
        DTEND;TZID=Europe/Rome:20261119T160000\r
        SUMMARY:Algorithms\\, lecture\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:seminar@polimi.example\r
        DTSTAMP:20261101T080000Z\r
        DTSTART;TZID=Europe/Rome:20261110T170000\r
        DTEND;TZID=Europe/Rome:20261110T180000\r
        RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=3\r
        SUMMARY:Research seminar\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:trip@polimi.example\r
        DTSTAMP:20261101T080000Z\r
        DTSTART;VALUE=DATE:20261125\r
        DTEND;VALUE=DATE:20261128\r
        SUMMARY:Field trip\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:todo@polimi.example\r
        DTSTAMP:20261101T080000Z\r
        SUMMARY:Hand in the project\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    static func occurrences(_ ctx: TestContext, _ token: String) async throws -> [String] {
        let res = try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-11-01&to=2026-12-31", token: token)
        return (res.json["occurrences"] as? [[String: Any]] ?? []).map { "\($0["title"] ?? "") \($0["start"] ?? "")" }
    }

    @Test("PLN-10 an .ics file imports: repeats, a week off, a moved lecture, a monthly seminar one by one; what cannot be taken is listed with the reason; importing again changes nothing",
          arguments: TestDatabase.available)
    func pln10Import(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let res = try await ctx.call(.POST, "/v1/me/planner/calendars/import?file=term.ics", token: me.token,
                                         body: Data(Self.term.utf8), contentType: "text/calendar")
            #expect(res.status == .ok, "\(String(decoding: res.body, as: UTF8.self))")
            let calendar = try #require(res.json["calendar"] as? [String: Any])
            #expect(calendar["name"] as? String == "Autumn term")
            #expect(res.json["added"] as? Int == 4 && res.json["updated"] as? Int == 0, "the lecture and three seminars: \(res.json)")
            let skipped = res.json["skipped"] as? [[String: Any]] ?? []
            #expect(skipped.count == 2, "\(skipped)")
            #expect(skipped.contains { ($0["title"] as? String) == "Field trip" && ($0["reason"] as? String ?? "").contains("24 hours") })
            #expect(skipped.allSatisfy { ($0["line"] as? Int ?? 0) > 1 && !($0["reason"] as? String ?? "").isEmpty })
            #expect(!(res.json["notes"] as? [String] ?? []).isEmpty, "says the monthly seminar was added occurrence by occurrence")

            let seen = try await Self.occurrences(ctx, me.token)
            let lectures = seen.filter { $0.hasPrefix("Algorithms, lecture") }
            // Mondays and Thursdays 2 Nov – 17 Dec is 14, less 9 November.
            #expect(lectures.count == 13, "\(lectures)")
            #expect(!lectures.contains { $0.contains("2026-11-09") })
            #expect(lectures.contains("Algorithms, lecture 2026-11-19T13:00:00.000Z"), "moved to 14:00 in Rome")
            #expect(seen.filter { $0.hasPrefix("Research seminar") }.count == 2, "10 Nov and 8 Dec in these two months")

            let again = try await ctx.call(.POST, "/v1/me/planner/calendars/import?calendarId=\(calendar["id"] as? String ?? "")", token: me.token,
                                           body: Data(Self.term.utf8), contentType: "text/calendar")
            #expect(again.json["added"] as? Int == 0 && again.json["updated"] as? Int == 4)
            #expect(try await Self.occurrences(ctx, me.token) == seen)
            // Without naming the calendar, the file goes to the calendar of its name again.
            let third = try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: me.token,
                                           body: Data(Self.term.utf8), contentType: "text/calendar")
            #expect((third.json["calendar"] as? [String: Any])?["id"] as? String == calendar["id"] as? String)
            #expect(third.json["added"] as? Int == 0 && third.json["updated"] as? Int == 4)
            #expect(try await Self.occurrences(ctx, me.token) == seen)
        }
    }

    @Test("PLN-10 an export keeps every occurrence and the properties Waymark does not read; importing it elsewhere gives the same occurrences",
          arguments: TestDatabase.available)
    func pln10RoundTrip(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let res = try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: me.token, body: Data(Self.term.utf8), contentType: "text/calendar")
            let id = try #require((res.json["calendar"] as? [String: Any])?["id"] as? String)
            let before = try await Self.occurrences(ctx, me.token)
            let file = try await ctx.call(.GET, "/v1/me/planner/calendars/\(id)/ics", token: me.token)
            #expect(file.status == .ok && file.headers.contentType?.description.hasPrefix("text/calendar") == true)
            #expect(file.headers.first(name: "Content-Disposition")?.contains("Autumn") == true)
            let text = String(decoding: file.body, as: UTF8.self)
            for line in ["UID:lecture-1@polimi.example", "X-POLIMI-ROOM-CODE:L31.2", "BEGIN:VALARM", "BEGIN:VTIMEZONE", "TZID:Europe/Rome",
                         "RECURRENCE-ID;TZID=Europe/Rome:20261119T090000", "SUMMARY:Algorithms\\, lecture"] {
                #expect(text.contains(line), "\(line)")
            }
            #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "folded at 75 octets")

            let other = try await ctx.device()
            let copy = try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: other.token, body: file.body, contentType: "text/calendar")
            #expect(copy.status == .ok && (copy.json["skipped"] as? [Any])?.isEmpty == true, "\(copy.json)")
            #expect(try await Self.occurrences(ctx, other.token) == before)

            let stranger = try await ctx.device()
            #expect(try await ctx.call(.GET, "/v1/me/planner/calendars/\(id)/ics", token: stranger.token).status == .notFound)
        }
    }

    @Test("PLN-10 an event imported in UTC is edited in the app with the zone the API gave it", arguments: TestDatabase.available)
    func pln10UTCEventEdits(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VEVENT\r\nUID:u1\r\nDTSTAMP:20261101T000000Z\r\n"
                + "DTSTART:20261202T090000Z\r\nDTEND:20261202T100000Z\r\nSUMMARY:Call with Tokyo\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            #expect(try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: me.token, body: Data(ics.utf8), contentType: "text/calendar").status == .ok)
            let occurrence = try #require((try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-12-02&to=2026-12-02", token: me.token)
                .json["occurrences"] as? [[String: Any]])?.first)
            let id = try #require(occurrence["eventId"] as? String)
            let event = try await ctx.call(.GET, "/v1/me/planner/events/\(id)", token: me.token).json
            let zone = try #require(event["timeZone"] as? String)
            let edited = try await ctx.call(.PUT, "/v1/me/planner/events/\(id)", token: me.token, json: [
                "title": "Call with Tokyo office", "start": "2026-12-02T09:30", "end": "2026-12-02T10:30", "timeZone": zone])
            #expect(edited.status == .ok, "\(zone): \(String(decoding: edited.body, as: UTF8.self))")
            #expect(try await ctx.call(.PUT, "/v1/me/planner/events/\(id)", token: me.token, json: [
                "title": "Call", "start": "2026-12-02T09:30", "end": "2026-12-02T10:30", "timeZone": "CET"]).status == .badRequest)
        }
    }

    @Test("PLN-10 every file of the corpus is imported or refused with a problem: never a server error", arguments: TestDatabase.available)
    func pln10Corpus(db: TestDatabase) async throws {
        // One identity per file: more than the default allows one address to make.
        try await TestApp.with(db, configure: { fastHashing(&$0); $0.identityLimitPerAddress = 500 }) { ctx in
            let files = ICalendarCorpus.files
            #expect(files.count >= 150)
            var imported = 0, refused = 0
            for url in files {
                // Each into a fresh identity: the corpus's events together pass no limit.
                let me = try await ctx.device()
                let res = try await ctx.call(.POST, "/v1/me/planner/calendars/import?file=\(url.lastPathComponent)", token: me.token,
                                             body: try Data(contentsOf: url), contentType: "text/calendar")
                switch res.status {
                case .ok: imported += 1
                case .unprocessableEntity:
                    refused += 1
                    #expect(res.problemType == "calendar-file-invalid" && (res.json["detail"] as? String ?? "").contains(url.lastPathComponent))
                default: Issue.record("\(url.lastPathComponent): \(res.status) \(String(decoding: res.body, as: UTF8.self))")
                }
            }
            #expect(imported > 100 && refused > 0, "\(imported) imported, \(refused) refused")
        }
    }

    @Test("PLN-10 a private subscription address: the feed says how often to refresh, answers 304 to its validators, changes when the calendar does, and stops when revoked",
          arguments: TestDatabase.available)
    func pln10Subscription(db: TestDatabase) async throws {
        let clock = TestClock(ISO8601DateFormatter().date(from: "2026-11-02T07:00:00Z")!)
        try await TestApp.with(db, clock: clock, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let res = try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: me.token, body: Data(Self.term.utf8), contentType: "text/calendar")
            let id = try #require((res.json["calendar"] as? [String: Any])?["id"] as? String)
            #expect(try await ctx.call(.GET, "/v1/me/planner/calendars/\(id)/subscription", token: me.token).json["active"] as? Bool == false)

            let made = try await ctx.call(.POST, "/v1/me/planner/calendars/\(id)/subscription", token: me.token, json: [:])
            #expect(made.status == .created)
            let path = try #require(made.json["path"] as? String)
            #expect(path.hasPrefix("/v1/calendar-feeds/wcal_") && path.hasSuffix(".ics"))
            let status = try await ctx.call(.GET, "/v1/me/planner/calendars/\(id)/subscription", token: me.token)
            #expect(status.json["active"] as? Bool == true && status.json["path"] == nil, "the address is shown once")

            let feed = try await ctx.call(.GET, path)
            #expect(feed.status == .ok)
            let text = String(decoding: feed.body, as: UTF8.self)
            #expect(text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H") && text.contains("X-PUBLISHED-TTL:PT1H") && text.contains("Algorithms"))
            let etag = try #require(feed.headers.first(name: .eTag)), modified = try #require(feed.headers.first(name: .lastModified))
            #expect(try await ctx.call(.GET, path, headers: ["If-None-Match": etag]).status == .notModified)
            #expect(try await ctx.call(.GET, path, headers: ["If-Modified-Since": modified]).status == .notModified)
            #expect(try await ctx.call(.GET, String(path.dropLast(4)), headers: ["If-None-Match": etag]).status == .notModified, "with or without .ics")
            let fetched = try await ctx.call(.GET, "/v1/me/planner/calendars/\(id)/subscription", token: me.token)
            #expect(fetched.json["lastFetchedAt"] is String)

            // A week off later on: the feed changes.
            clock.advance(by: 60)
            let lecture = try #require((try await ctx.call(.GET, "/v1/me/planner/occurrences?from=2026-11-01&to=2026-12-31", token: me.token)
                .json["occurrences"] as? [[String: Any]])?.first { $0["title"] as? String == "Algorithms, lecture" })
            let eventId = try #require(lecture["eventId"] as? String)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(eventId)/occurrences/2026-11-12", token: me.token).status == .noContent)
            let changed = try await ctx.call(.GET, path, headers: ["If-None-Match": etag])
            #expect(changed.status == .ok && changed.headers.first(name: .eTag) != etag)
            #expect(String(decoding: changed.body, as: UTF8.self).contains("20261112T090000"))

            // A new address revokes the old; deleting revokes it too; a stranger has no way in.
            let second = try await ctx.call(.POST, "/v1/me/planner/calendars/\(id)/subscription", token: me.token, json: ["includeTravel": true])
            #expect(try await ctx.call(.GET, path).status == .notFound)
            let path2 = try #require(second.json["path"] as? String)
            #expect(try await ctx.call(.GET, path2).status == .ok)
            let stranger = try await ctx.device()
            #expect(try await ctx.call(.GET, "/v1/me/planner/calendars/\(id)/subscription", token: stranger.token).status == .notFound)
            #expect(try await ctx.call(.POST, "/v1/me/planner/calendars/\(id)/subscription", token: stranger.token, json: [:]).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/calendars/\(id)/subscription", token: stranger.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/calendar-feeds/wcal_guess.ics").status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/calendars/\(id)/subscription", token: me.token).status == .noContent)
            #expect(try await ctx.call(.GET, path2).status == .notFound)
            // Revoked is gone from the database, not just switched off.
            let rows = try await ctx.allRows()
            #expect(rows["planner_subscriptions"]?.isEmpty ?? true)
        }
    }

    @Test("PLN-10 a bad import is a problem, not a server error: not iCalendar, too big, an unknown calendar, a wrong zone", arguments: TestDatabase.available)
    func pln10BadImports(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let me = try await ctx.device()
            let notCalendar = try await ctx.call(.POST, "/v1/me/planner/calendars/import?file=notes.txt", token: me.token,
                                                 body: Data("Shopping: milk, bread".utf8), contentType: "text/calendar")
            #expect(notCalendar.status == .unprocessableEntity && (notCalendar.json["detail"] as? String ?? "").hasPrefix("notes.txt"))
            let huge = try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: me.token,
                                          body: Data(repeating: 0x41, count: CalendarFiles.fileLimit + 1), contentType: "text/calendar")
            #expect(huge.status == .payloadTooLarge)
            let unknown = try await ctx.call(.POST, "/v1/me/planner/calendars/import?calendarId=\(UUID().uuidString.lowercased())", token: me.token,
                                             body: Data(Self.term.utf8), contentType: "text/calendar")
            #expect(unknown.status == .notFound)
            let zone = try await ctx.call(.POST, "/v1/me/planner/calendars/import?timeZone=Mars", token: me.token,
                                          body: Data(Self.term.utf8), contentType: "text/calendar")
            #expect(zone.status == .badRequest)
            let json = try await ctx.call(.POST, "/v1/me/planner/calendars/import", token: me.token, json: ["events": []])
            #expect(json.status == .unsupportedMediaType)
            #expect(try await ctx.call(.POST, "/v1/me/planner/calendars/import", body: Data(Self.term.utf8), contentType: "text/calendar").status == .unauthorized)
        }
    }
}
