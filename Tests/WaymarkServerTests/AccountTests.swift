import Foundation
import Testing
import Vapor
@testable import WaymarkServer

/// Fast bcrypt for tests; `defaultCost` checks the production setting.
func fastHashing(_ c: inout WaymarkConfiguration) { c.passwordHashCost = 4 }

@Suite("Accounts and device identity (ACC-1…8)")
struct AccountTests {
    @Test("ACC-8 a device identity uses permits and schedule; registering with it keeps them", arguments: TestDatabase.available)
    func deviceBecomesAccount(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let device = try await ctx.device()
            #expect(try await ctx.call(.PUT, "/v1/me/permits", token: device.token, json: ctx.permitsBody(["green", "handicap"])).status == .ok)
            let block = try await ctx.call(.POST, "/v1/me/schedule/blocks", token: device.token, json: ["weekday": 2, "startSlot": 16, "endSlot": 20])
            #expect(block.status == .created)

            let account = try await ctx.register("Ana", device: device.token)
            #expect(account.id == device.id, "the device identity itself became the account")
            let me = try await ctx.call(.GET, "/v1/me", token: account.token).json
            #expect(me["kind"] as? String == "account")
            #expect(me["username"] as? String == "Ana")
            #expect(TestContext.permitCodes(me) == ["handicap", "green"])
            let blocks = try await ctx.call(.GET, "/v1/me/schedule", token: account.token).json["blocks"] as? [[String: Any]]
            #expect(blocks?.count == 1)
            #expect(try await ctx.call(.GET, "/v1/me", token: device.token).status == .unauthorized, "the device token ended")
        }
    }

    @Test("ACC-8 signing in on a device moves its permits and the blocks that fit, then erases the device", arguments: TestDatabase.available)
    func signInMergesDevice(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let account = try await ctx.register("bob")
            try await ctx.call(.PUT, "/v1/me/permits", token: account.token, json: ctx.permitsBody(["black"]))
            try await ctx.call(.POST, "/v1/me/schedule/blocks", token: account.token, json: ["weekday": 2, "startSlot": 16, "endSlot": 20])

            let device = try await ctx.device()
            try await ctx.call(.PUT, "/v1/me/permits", token: device.token, json: ctx.permitsBody(["yellow"]))
            try await ctx.call(.POST, "/v1/me/schedule/blocks", token: device.token, json: ["weekday": 2, "startSlot": 18, "endSlot": 22])
            try await ctx.call(.POST, "/v1/me/schedule/blocks", token: device.token, json: ["weekday": 3, "startSlot": 18, "endSlot": 22])

            let signedIn = try await ctx.signIn("BOB", device: device.token)
            #expect(signedIn.status == .ok)
            let token = try #require(signedIn.json["token"] as? String)
            let me = try await ctx.call(.GET, "/v1/me", token: token).json
            #expect(me["id"] as? String == account.id)
            #expect(TestContext.permitCodes(me) == ["black", "yellow"])
            let blocks = try await ctx.call(.GET, "/v1/me/schedule", token: token).json["blocks"] as? [[String: Any]] ?? []
            #expect(blocks.map { "\($0["weekday"]!)/\($0["startSlot"]!)" } == ["2/16", "3/18"])
            #expect(try await ctx.call(.GET, "/v1/me", token: device.token).status == .unauthorized)
            let rows = try await ctx.allRows()
            #expect(!rows.values.joined().contains { $0.contains(device.id) }, "nothing of the device is left")
        }
    }

    @Test("ACC-1 usernames are unique regardless of case; ACC-2 the server names the failed rules", arguments: TestDatabase.available)
    func registration(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            _ = try await ctx.register("Carla", email: "carla@example.com")
            let dup = try await ctx.call(.POST, "/v1/accounts", json: ["username": "carla", "password": TestContext.password])
            #expect(dup.status == .conflict)
            #expect(dup.problemType == "username-taken")
            let dupEmail = try await ctx.call(.POST, "/v1/accounts", json: ["username": "carla2", "password": TestContext.password, "email": "CARLA@example.com"])
            #expect(dupEmail.problemType == "email-taken")

            let weak = try await ctx.call(.POST, "/v1/accounts", json: ["username": "dan", "password": "password1"])
            #expect(weak.status == .badRequest)
            #expect(weak.problemType == "password-policy")
            #expect((weak.json["detail"] as? String)?.contains("an upper-case letter") == true)
            #expect((weak.json["detail"] as? String)?.contains("not a letter or digit") == true)
            #expect(weak.headers.contentType?.description.hasPrefix("application/problem+json") == true)

            for bad: [String: Any] in [
                ["username": "a b", "password": TestContext.password],
                ["username": "x", "password": TestContext.password],
                ["username": "ok_name", "password": TestContext.password, "email": "not-an-email"],
                ["username": "ok_name", "password": TestContext.password, "firstName": "A\u{0}B"],
                ["username": "ok_name"],
                ["username": 5, "password": TestContext.password],
            ] {
                let res = try await ctx.call(.POST, "/v1/accounts", json: bad)
                #expect(res.status == .badRequest, "\(bad)")
            }
            let users = try await ctx.allRows()["users"] ?? []
            #expect(users.count == 1, "nothing but Carla was stored")
        }
    }

    @Test("ACC-6 passwords are stored as bcrypt at cost 12 by default")
    func defaultCost() async throws {
        #expect(WaymarkConfiguration().passwordHashCost >= 12)
        try await TestApp.with(.sqlite, configure: { $0.passwordHashCost = WaymarkConfiguration().passwordHashCost }) { ctx in
            _ = try await ctx.register("eve")
            let hash = try await ctx.services.store.sql.raw("SELECT password_hash FROM users").first()!.decode(column: "password_hash", as: String.self)
            #expect(hash.hasPrefix("$2b$12$"))
            #expect(!hash.contains(TestContext.password))
            let tokens = try await ctx.services.store.sql.raw("SELECT token_hash FROM sessions").all()
            #expect(tokens.count == 1)
        }
    }

    @Test("ACC-6 every byte of a password counts: beyond bcrypt's 72 bytes and after a NUL", arguments: TestDatabase.available)
    func longPasswords(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let long = "Aa1!" + String(repeating: "x", count: 100)
            _ = try await ctx.register("wes", password: long)
            #expect(try await ctx.signIn("wes", "Aa1!" + String(repeating: "x", count: 68) + "DIFFERENT").status == .unauthorized)
            #expect(try await ctx.signIn("wes", long).status == .ok)
            _ = try await ctx.register("xia", password: "Aa1!\u{0}first")
            #expect(try await ctx.signIn("xia", "Aa1!\u{0}other").status == .unauthorized)
            #expect(try await ctx.signIn("xia", "Aa1!\u{0}first").status == .ok)
        }
    }

    @Test("ACC-3 sign out ends the session; an idle session expires after 30 days; use keeps it alive", arguments: TestDatabase.available)
    func sessions(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let a = try await ctx.register("fay")
            let second = try #require(try await ctx.signIn("fay").json["token"] as? String)
            #expect(try await ctx.call(.DELETE, "/v1/sessions/current", token: a.token).status == .noContent)
            #expect(try await ctx.call(.GET, "/v1/me", token: a.token).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me", token: second).status == .ok, "other sessions stay")

            for _ in 0..<3 {
                ctx.clock.advance(by: 20 * 86_400)
                #expect(try await ctx.call(.GET, "/v1/me", token: second).status == .ok, "used every 20 days, it slides")
            }
            ctx.clock.advance(by: 31 * 86_400)
            #expect(try await ctx.call(.GET, "/v1/me", token: second).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me", token: "wms_" + String(repeating: "x", count: 43)).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me").status == .unauthorized)
        }
    }

    @Test("ACC-4 username and password change only with the current password; a new password ends every session", arguments: TestDatabase.available)
    func changes(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let a = try await ctx.register("gus")
            _ = try await ctx.register("hal")
            let other = try #require(try await ctx.signIn("gus").json["token"] as? String)

            let wrong = try await ctx.call(.PUT, "/v1/me/username", token: a.token, json: ["currentPassword": "Wrong!pass1", "newUsername": "gustav"])
            #expect(wrong.status == .forbidden)
            let taken = try await ctx.call(.PUT, "/v1/me/username", token: a.token, json: ["currentPassword": TestContext.password, "newUsername": "HAL"])
            #expect(taken.status == .conflict)
            let renamed = try await ctx.call(.PUT, "/v1/me/username", token: a.token, json: ["currentPassword": TestContext.password, "newUsername": "gustav"])
            #expect(renamed.json["username"] as? String == "gustav")

            let weak = try await ctx.call(.PUT, "/v1/me/password", token: a.token, json: ["currentPassword": TestContext.password, "newPassword": "weak"])
            #expect(weak.problemType == "password-policy")
            let changed = try await ctx.call(.PUT, "/v1/me/password", token: a.token, json: ["currentPassword": TestContext.password, "newPassword": "N3w!password"])
            #expect(changed.status == .ok)
            let fresh = try #require(changed.json["token"] as? String)
            #expect(try await ctx.call(.GET, "/v1/me", token: a.token).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me", token: other).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me", token: fresh).status == .ok)
            #expect(try await ctx.signIn("gustav").status == .unauthorized)
            #expect(try await ctx.signIn("gustav", "N3w!password").status == .ok)

            let device = try await ctx.device()
            #expect(try await ctx.call(.PUT, "/v1/me/password", token: device.token, json: ["currentPassword": "x", "newPassword": "N3w!password"]).status == .forbidden)
        }
    }

    @Test("ACC-6 after 5 failures sign-in waits longer each time, the same for unknown names; success clears it", arguments: TestDatabase.available)
    func throttling(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            _ = try await ctx.register("ida")
            for name in ["ida", "nobody"] {
                var answers: [String] = []
                for _ in 0..<5 {
                    let r = try await ctx.signIn(name, "Wrong!pass1")
                    answers.append("\(r.status.code) \(r.problemType ?? "")")
                }
                #expect(answers == Array(repeating: "401 invalid-credentials", count: 5))
                let blocked = try await ctx.signIn(name, name == "ida" ? TestContext.password : "Wrong!pass1")
                #expect(blocked.status == .tooManyRequests, "even the right password waits")
                #expect(blocked.headers.first(name: .retryAfter) == "2")
                ctx.clock.advance(by: 2)
                #expect(try await ctx.signIn(name, "Wrong!pass1").status == .unauthorized)
                #expect(try await ctx.signIn(name, "Wrong!pass1").headers.first(name: .retryAfter) == "4", "the delay doubled")
            }
            ctx.clock.advance(by: 4)
            #expect(try await ctx.signIn("ida").status == .ok)
            #expect(try await ctx.signIn("ida", "Wrong!pass1").status == .unauthorized, "success cleared the count")
        }
    }

    @Test("ACC-6 one address may fail 20 times in 10 minutes across all usernames", arguments: TestDatabase.available)
    func addressLimit(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            _ = try await ctx.register("joe")
            for i in 0..<20 { #expect(try await ctx.signIn("user\(i)", "Wrong!pass1").status == .unauthorized) }
            let blocked = try await ctx.signIn("joe")
            #expect(blocked.status == .tooManyRequests)
            #expect(Int(blocked.headers.first(name: .retryAfter) ?? "") ?? 0 > 500)
            ctx.clock.advance(by: 601)
            #expect(try await ctx.signIn("joe").status == .ok)
        }
    }

    @Test("ACC-7 another user's token changes nothing of mine: every mutating operation is scoped or 404", arguments: TestDatabase.available)
    func authorisation(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let mine = try await ctx.register("kim", email: "kim@example.com")
            let theirs = try await ctx.register("lee")
            try await ctx.call(.PUT, "/v1/me/permits", token: mine.token, json: ctx.permitsBody(["green"]))
            let block = try await ctx.call(.POST, "/v1/me/schedule/blocks", token: mine.token, json: ["weekday": 2, "startSlot": 16, "endSlot": 20])
            let blockId = try #require(block.json["id"] as? String)
            let before = try await ctx.allRows()

            let blockBody: [String: Any] = ["weekday": 5, "startSlot": 0, "endSlot": 2]
            #expect(try await ctx.call(.PUT, "/v1/me/schedule/blocks/\(blockId)", token: theirs.token, json: blockBody).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/me/schedule/blocks/\(blockId)", token: theirs.token).status == .notFound)

            // Every operation that needs a user is refused without one.
            let operations: [(HTTPMethod, String, [String: Any]?)] = [
                (.DELETE, "/v1/sessions/current", nil), (.GET, "/v1/me", nil),
                (.PUT, "/v1/me/profile", ["about": "x"]), (.PUT, "/v1/me/username", ["currentPassword": "x", "newUsername": "abc"]),
                (.PUT, "/v1/me/password", ["currentPassword": "x", "newPassword": "Abc!12345"]), (.POST, "/v1/me/deletion", [:]),
                (.DELETE, "/v1/me/picture", nil), (.GET, "/v1/me/permits", nil), (.PUT, "/v1/me/permits", ["permits": []]),
                (.GET, "/v1/me/schedule", nil), (.POST, "/v1/me/schedule/blocks", blockBody),
                (.PUT, "/v1/me/schedule/blocks/\(blockId)", blockBody), (.DELETE, "/v1/me/schedule/blocks/\(blockId)", nil),
                (.GET, "/v1/me/schedule/lot-advice?siteId=\(ctx.siteId)&weekday=2&startSlot=0&endSlot=1", nil),
            ]
            for (method, path, body) in operations {
                let res = try await ctx.call(method, path, json: body)
                #expect(res.status == .unauthorized, "\(method) \(path)")
                #expect(res.headers.first(name: .wwwAuthenticate) == "Bearer")
            }
            #expect(try await ctx.call(.PUT, "/v1/me/picture", body: Data([0x89, 0x50]), contentType: "image/png").status == .unauthorized)
            #expect(Set(operations.map { $0.1.split(separator: "?")[0] }).count >= 10)

            // The other user's calls on their own data leave mine exactly as it was.
            try await ctx.call(.PUT, "/v1/me/permits", token: theirs.token, json: ctx.permitsBody(["black"]))
            try await ctx.call(.PUT, "/v1/me/profile", token: theirs.token, json: ["about": "hi"])
            try await ctx.call(.POST, "/v1/me/schedule/blocks", token: theirs.token, json: blockBody)
            let after = try await ctx.allRows()
            let mineBefore = before.values.joined().filter { $0.contains(mine.id) }.sorted()
            let mineAfter = after.values.joined().filter { $0.contains(mine.id) }.sorted()
            #expect(mineBefore == mineAfter)
        }
    }

    @Test("ACC-7 every operation the contract protects with a user token is checked by the server")
    func contractMatchesMiddleware() throws {
        let document = openAPIDocument()
        #expect(!document.isEmpty)
        let chunks = document.components(separatedBy: "operationId: ").dropFirst()
        var protected: Set<String> = [], optional: Set<String> = []
        for chunk in chunks {
            let id = String(chunk.prefix { !$0.isWhitespace })
            guard let security = chunk.range(of: "security:") else { continue }
            let next = chunk[security.upperBound...].prefix(80)
            if next.contains("- {}") { optional.insert(id) } else if next.contains("userToken") { protected.insert(id) }
        }
        #expect(protected == UserAuthMiddleware.required)
        #expect(optional == UserAuthMiddleware.optional)
    }

    @Test("ACC-5 deleting an account erases every row that refers to it, watched lots and notifications too (PRK-15)", arguments: TestDatabase.available)
    func deletion(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let gone = try await ctx.register("mia_gone", email: "mia@example.com")
            let stays = try await ctx.register("ned")
            // PRK-12, PRK-13: a wallet, a booking still to come, one cancelled, an idempotency key.
            let lot = try await ctx.lotId("L")
            #expect(try await ctx.topUp(gone.token, cents: 3000, key: "mia-top-up").status == .created)
            let future = try await ctx.book(gone.token, lot: lot, TestContext.local(day: 20, 10), TestContext.local(day: 20, 12), key: "mia-1")
            let futureId = try #require(future.json["id"] as? String)
            let cancelled = try #require(try await ctx.book(gone.token, lot: lot, TestContext.local(day: 21, 10), TestContext.local(day: 21, 11)).json["id"] as? String)
            #expect(try await ctx.call(.POST, "/v1/bookings/\(cancelled)/cancel", token: gone.token).status == .ok)
            try await ctx.topUp(stays.token, cents: 2000)
            try await ctx.book(stays.token, lot: lot, TestContext.local(day: 20, 10), TestContext.local(day: 20, 12))
            try await ctx.call(.PUT, "/v1/me/permits", token: gone.token, json: ctx.permitsBody(["green"]))
            try await ctx.call(.PUT, "/v1/me/profile", token: gone.token, json: ["email": "mia@example.com", "firstName": "Mia", "about": "Hello"])
            try await ctx.call(.POST, "/v1/me/schedule/blocks", token: gone.token, json: ["weekday": 2, "startSlot": 16, "endSlot": 20])
            // PLN-1, PLN-2, PLN-4: a calendar, a repeating event with a cancelled day, preferences.
            let event = try await ctx.call(.POST, "/v1/me/planner/events", token: gone.token, json: [
                "title": "Mia's seminar", "start": "2026-11-23T09:00", "end": "2026-11-23T10:00", "timeZone": "Europe/Rome",
                "repeat": ["weekdays": [2]], "place": ["name": "Mia's office", "latitude": 45.478, "longitude": 9.227]])
            #expect(event.status == .created)
            let eventId = try #require((event.json["event"] as? [String: Any])?["id"] as? String)
            #expect(try await ctx.call(.DELETE, "/v1/me/planner/events/\(eventId)/occurrences/2026-11-30", token: gone.token).status == .noContent)
            try await ctx.call(.PUT, "/v1/me/planner/preferences", token: gone.token, json: [
                "ecoMode": true, "maxWalkingMetres": 1500, "maxBikingMetres": 5000, "ownsBike": true, "bikeSharing": false,
                "transitFrom": "06:00", "transitTo": "24:00", "ownsCar": false, "carSharing": false, "rideSharingService": "Mia's taxi"])
            try await ctx.call(.PUT, "/v1/me/picture", token: gone.token, body: Self.png, contentType: "image/png")
            _ = try await ctx.signIn("mia_gone", "Wrong!pass1")  // a throttle counter under the name
            // PRK-17: an operator, with a day of activity noted by her signed-in requests.
            #expect(try await ctx.app.grantOperator(login: "mia@example.com"))
            let activity = try await ctx.services.store.sql.raw("SELECT day FROM user_activity_days WHERE user_id = \(bind: gone.id)").all()
            #expect(activity.count == 1)
            // PRK-15: a watched lot and a notification about it.
            #expect(try await ctx.call(.PUT, "/v1/lots/\(lot)/watch", token: gone.token).status == .ok)
            try await ctx.services.store.write { sql in
                try await NotificationStore.insert([NotificationDraft(userId: gone.id, kind: .lotFull, title: "Full", body: "b", lotId: lot)],
                                                   at: ctx.clock.now, sql: sql)
            }
            #expect(try await ctx.call(.GET, "/v1/me/notifications", token: gone.token).json["unreadCount"] as? Int == 1)
            let rowsBefore = try await ctx.allRows().values.joined().filter { $0.contains(gone.id) || $0.contains("mia") }
            #expect(rowsBefore.count >= 5)

            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: gone.token, json: [:]).status == .forbidden)
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: gone.token, json: ["password": "Wrong!pass1"]).status == .forbidden)
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: gone.token, json: ["password": TestContext.password]).status == .noContent)

            let rows = try await ctx.allRows()
            for (table, values) in rows {
                for value in values {
                    #expect(!value.contains(gone.id) && !value.lowercased().contains("mia"), "\(table): \(value)")
                }
            }
            #expect(try await ctx.call(.GET, "/v1/me", token: gone.token).status == .unauthorized)
            #expect(try await ctx.call(.GET, "/v1/me", token: stays.token).status == .ok)
            // The booking to come was cancelled and refunded before the rows were anonymised;
            // the ledger still balances, and the other user's booking is untouched.
            let state = try await ctx.services.store.sql.raw("SELECT state FROM bookings WHERE id = \(bind: futureId)").first()?
                .decode(column: "state", as: String.self)
            #expect(state == "cancelled")
            try await ctx.checkLedger()
            #expect(try await ctx.balance(stays.token) == 2000 - 540)
            #expect((try await ctx.call(.GET, "/v1/bookings", token: stays.token).json["bookings"] as? [Any])?.count == 1)
            #expect(try await ctx.signIn("mia_gone").status == .unauthorized)
            // The name is free again.
            _ = try await ctx.register("mia_gone")

            let device = try await ctx.device()
            #expect(try await ctx.call(.POST, "/v1/me/deletion", token: device.token, json: [:]).status == .noContent)
            #expect(!(try await ctx.allRows()).values.joined().contains { $0.contains(device.id) })
        }
    }

    /// A 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!

    @Test("ACC-10 profile: about-me up to 300 characters, picture upload with type and size checks, default avatar", arguments: TestDatabase.available)
    func profile(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: fastHashing) { ctx in
            let a = try await ctx.register("olga")
            let ok = try await ctx.call(.PUT, "/v1/me/profile", token: a.token, json: [
                "firstName": "Olga", "lastName": "<b>Ruiz</b>", "about": String(repeating: "é", count: 300),
                "units": ["distance": "mi", "temperature": "F", "elevation": "ft"]])
            #expect(ok.status == .ok)
            #expect((ok.json["units"] as? [String: String])?["distance"] == "mi")
            #expect(try await ctx.call(.PUT, "/v1/me/profile", token: a.token, json: ["about": String(repeating: "x", count: 301)]).status == .badRequest)
            #expect(try await ctx.call(.PUT, "/v1/me/profile", token: a.token, json: ["pictureURL": "http://example.com/a.png"]).status == .badRequest)
            #expect(try await ctx.call(.PUT, "/v1/me/profile", token: a.token, json: ["pictureURL": "javascript:alert(1)"]).status == .badRequest)
            #expect(try await ctx.call(.PUT, "/v1/me/profile", token: a.token, json: ["units": ["distance": "furlong", "temperature": "F", "elevation": "ft"]]).status == .badRequest)

            let avatar = try await ctx.call(.GET, "/v1/users/\(a.id)/picture")
            #expect(avatar.headers.contentType?.description == "image/svg+xml")
            let svg = String(decoding: avatar.body, as: UTF8.self)
            #expect(svg.contains(">OB<"), "initials of the first and last name")
            #expect(!svg.contains("<b>"), "names are escaped")
            #expect(avatar.headers.first(name: "Content-Security-Policy")?.contains("sandbox") == true)

            let up = try await ctx.call(.PUT, "/v1/me/picture", token: a.token, body: Self.png, contentType: "image/png")
            #expect(up.status == .ok)
            let url = try #require(up.json["pictureURL"] as? String)
            #expect(url.hasPrefix("/v1/users/\(a.id)/picture?v="))
            let got = try await ctx.call(.GET, url)
            #expect(got.body == Self.png)
            #expect(got.headers.contentType?.description == "image/png")

            #expect(try await ctx.call(.PUT, "/v1/me/picture", token: a.token, body: Self.png, contentType: "image/jpeg").status == .badRequest)
            #expect(try await ctx.call(.PUT, "/v1/me/picture", token: a.token, body: Data("<svg/>".utf8), contentType: "image/svg+xml").status == .unsupportedMediaType)
            var big = Self.png
            big.append(Data(count: 1 << 20))
            #expect(try await ctx.call(.PUT, "/v1/me/picture", token: a.token, body: big, contentType: "image/png").status == .payloadTooLarge)
            #expect(try await ctx.call(.GET, "/v1/users/\(a.id)/picture").body == Self.png, "the failed uploads changed nothing")

            let removed = try await ctx.call(.DELETE, "/v1/me/picture", token: a.token)
            #expect(removed.json["hasPicture"] as? Bool == false)
            #expect(try await ctx.call(.GET, "/v1/users/00000000-0000-0000-0000-000000000000/picture").status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/users/..%2F..%2Fetc/picture").status == .notFound)
        }
    }
}
