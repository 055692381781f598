import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import Vapor
import WaymarkAPI
@testable import WaymarkServer

@Suite("Web Push (PRK-22)")
struct WebPushTests {
    // Keys, salt and output made with the PyPI `http-ece` package (aes128gcm, rs 4096):
    // an implementation of RFC 8291 that shares no code with ours.
    static let vector = (
        receiverPublic: "BFFcPW6545a5BNP-yn9U_c0MwemXvzddylFa0KbDtANfRTa-OlDzGPv5pUdZAqIhUCvvDVfgjFOyzApW8X2fk1Q",
        senderPrivate: "ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0-P0A",
        auth: "ZGVmZ2hpamtsbW5vcHFycw",
        salt: "yMnKy8zNzs_Q0dLT1NXW1w",
        plaintext: #"{"title":"Was it you?"}"#,
        body: "yMnKy8zNzs_Q0dLT1NXW1wAAEABBBB8UAUa_sbJR-E9N2-DUzc_Xev2YSpUg41eUAh-DErue7JlaCLH6dwTfPcwLUKlmUmP7dxH5X5-KRJxQluR8iSu_JQMVq5vAd8uX3CzYmT788wi12m8Xkk5Xq37lOlmUPDj1WmthLmLb")

    @Test("PRK-22 a message is encrypted exactly as an independent RFC 8291 implementation encrypts it")
    func encryptionMatchesIndependentImplementation() throws {
        let v = Self.vector
        let senderKey = try #require(Data(base64URL: v.senderPrivate)), receiver = try #require(Data(base64URL: v.receiverPublic))
        let auth = try #require(Data(base64URL: v.auth)), salt = try #require(Data(base64URL: v.salt))
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: senderKey)
        let body = try WebPushEncryption.encrypt(Data(v.plaintext.utf8), p256dh: receiver, auth: auth, sender: sender,
                                                 salt: salt, padBlock: 1)
        #expect(body.base64URL == v.body)
    }

    @Test("PRK-22 messages are padded, fit a push service's 4,096 bytes, and bad keys are refused")
    func encryptionLimits() throws {
        let browser = Browser()
        let short = try WebPushEncryption.encrypt(Data("hi".utf8), p256dh: browser.p256dh, auth: browser.auth)
        let longer = try WebPushEncryption.encrypt(Data(String(repeating: "x", count: 100).utf8), p256dh: browser.p256dh, auth: browser.auth)
        #expect(short.count == longer.count, "both pad to one 128-byte block")
        #expect(try browser.open(short) == Data("hi".utf8))
        let largest = try WebPushEncryption.encrypt(Data(count: WebPushEncryption.maxPlaintext), p256dh: browser.p256dh, auth: browser.auth)
        #expect(largest.count <= 4096)
        #expect(throws: WebPushEncryption.Failure.tooLarge) {
            try WebPushEncryption.encrypt(Data(count: WebPushEncryption.maxPlaintext + 1), p256dh: browser.p256dh, auth: browser.auth)
        }
        #expect(throws: WebPushEncryption.Failure.badSubscriptionKey) {
            try WebPushEncryption.encrypt(Data("x".utf8), p256dh: Data(count: 65), auth: browser.auth)
        }
        #expect(throws: WebPushEncryption.Failure.badAuthSecret) {
            try WebPushEncryption.encrypt(Data("x".utf8), p256dh: browser.p256dh, auth: Data(count: 15))
        }
    }

    @Test("PRK-22 a VAPID token names the push service's origin, lives less than a day and verifies with the server's public key")
    func vapidToken() throws {
        let key = VAPIDKey(privateKey: P256.Signing.PrivateKey())
        let endpoint = try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc:def"))
        #expect(VAPIDKey.audience(of: endpoint) == "https://fcm.googleapis.com")
        #expect(VAPIDKey.audience(of: URL(string: "http://127.0.0.1:8123/push/x")!) == "http://127.0.0.1:8123")
        let expires = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try key.authorization(audience: "https://fcm.googleapis.com", subject: "mailto:ops@example.org", expires: expires)
        #expect(header.hasPrefix("vapid t="))
        let parts = header.dropFirst("vapid t=".count).components(separatedBy: ", k=")
        #expect(parts.count == 2)
        #expect(parts[1] == key.publicKey)
        let token = parts[0].split(separator: ".").map(String.init)
        #expect(token.count == 3)
        let claimBytes = try #require(Data(base64URL: token[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
        #expect(claims["aud"] as? String == "https://fcm.googleapis.com")
        #expect(claims["sub"] as? String == "mailto:ops@example.org")
        #expect(claims["exp"] as? Int == 1_800_000_000)
        let keyBytes = try #require(Data(base64URL: parts[1])), signatureBytes = try #require(Data(base64URL: token[2]))
        let publicKey = try P256.Signing.PublicKey(x963Representation: keyBytes)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        #expect(publicKey.isValidSignature(signature, for: Data((token[0] + "." + token[1]).utf8)))
    }

    @Test("PRK-22 a person adds, lists and removes their browsers; an endpoint seen before moves to its new owner; strangers get nothing",
          arguments: TestDatabase.available)
    func subscriptions(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: Self.pushConfig) { ctx in
            let key = try ctx.decode(Components.Schemas.PushKey.self, try await ctx.call(.GET, "/v1/push/key"))
            #expect(Data(base64URL: key.publicKey)?.count == 65)
            let ana = try await ctx.register("ana"), ben = try await ctx.register("ben")
            let phone = Browser()
            let added = try await ctx.call(.POST, "/v1/me/push-subscriptions", token: ana.token, json: phone.json)
            #expect(added.status == .created)
            let sub = try ctx.decode(Components.Schemas.PushSubscription.self, added)
            #expect(sub.endpoint == phone.endpoint)
            let again = try await ctx.call(.POST, "/v1/me/push-subscriptions", token: ana.token, json: phone.json)
            #expect(again.status == .ok)
            #expect(try ctx.decode(Components.Schemas.PushSubscription.self, again).id == sub.id)

            let list = try ctx.decode(Components.Schemas.PushSubscriptionList.self,
                                      try await ctx.call(.GET, "/v1/me/push-subscriptions", token: ana.token))
            #expect(list.subscriptions.map(\.id) == [sub.id])
            let bens = try ctx.decode(Components.Schemas.PushSubscriptionList.self,
                                      try await ctx.call(.GET, "/v1/me/push-subscriptions", token: ben.token))
            #expect(bens.subscriptions.isEmpty)
            #expect(try await ctx.call(.DELETE, "/v1/me/push-subscriptions/\(sub.id)", token: ben.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/me/push-subscriptions").status == .unauthorized)
            #expect(try await ctx.call(.POST, "/v1/me/push-subscriptions", json: phone.json).status == .unauthorized)

            // The same browser, now signed in as Ben (a shared laptop): pushes follow Ben.
            #expect(try await ctx.call(.POST, "/v1/me/push-subscriptions", token: ben.token, json: phone.json).status == .ok)
            #expect(try ctx.decode(Components.Schemas.PushSubscriptionList.self,
                                   try await ctx.call(.GET, "/v1/me/push-subscriptions", token: ana.token)).subscriptions.isEmpty)
            #expect(try await ctx.call(.DELETE, "/v1/me/push-subscriptions/\(sub.id)", token: ben.token).status == .noContent)
            #expect(try await ctx.call(.DELETE, "/v1/me/push-subscriptions/\(sub.id)", token: ben.token).status == .notFound)
            #expect(try await ctx.call(.DELETE, "/v1/me/push-subscriptions/not-an-id", token: ben.token).status == .notFound)
        }
    }

    @Test("PRK-22 QLT-2 an endpoint that is no push service's, bad keys or an expired subscription are refused with problems",
          arguments: TestDatabase.available)
    func badSubscriptions(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: Self.pushConfig) { ctx in
            let ana = try await ctx.register("ana")
            let good = Browser().json
            func with(_ change: (inout [String: Any]) -> Void) -> [String: Any] { var j = good; change(&j); return j }
            let notAllowed = [
                "https://evil.example/push/1", "http://fcm.googleapis.com/fcm/send/1", "https://fcm.googleapis.com.evil.example/x",
                "http://10.0.0.1/push", "https://user:pw@fcm.googleapis.com/fcm/send/1",
            ]
            for endpoint in notAllowed {
                let r = try await ctx.call(.POST, "/v1/me/push-subscriptions", token: ana.token, json: with { $0["endpoint"] = endpoint })
                #expect([422, 400].contains(r.status.code), "\(endpoint)")
                #expect(r.headers.contentType?.description.hasPrefix("application/problem+json") == true)
                if r.status.code == 422 { #expect(r.problemType == "push-endpoint-not-allowed") }
            }
            let badKeys: [[String: Any]] = [
                with { $0["keys"] = ["p256dh": Data(count: 65).base64URL, "auth": Data(count: 16).base64URL] },
                with { $0["keys"] = ["p256dh": (Browser().p256dh.dropLast()).base64URL, "auth": Data(count: 16).base64URL] },
                with { $0["keys"] = ["p256dh": Browser().p256dh.base64URL, "auth": Data(count: 12).base64URL] },
                with { $0["keys"] = ["p256dh": "not base64!", "auth": "x"] },
                with { $0["expirationTime"] = 1_000 },
                with { $0["endpoint"] = "not a url" },
            ]
            for body in badKeys {
                let r = try await ctx.call(.POST, "/v1/me/push-subscriptions", token: ana.token, json: body)
                #expect(r.status == .badRequest, "\(body)")
            }
            let list = try ctx.decode(Components.Schemas.PushSubscriptionList.self,
                                      try await ctx.call(.GET, "/v1/me/push-subscriptions", token: ana.token))
            #expect(list.subscriptions.isEmpty, "nothing half-saved")
            #expect(try await ctx.call(.PUT, "/v1/me/push-preferences", token: ana.token,
                                       json: ["kinds": [["kind": "lot-exploded", "enabled": false]]]).status == .badRequest)
        }
    }

    @Test("PRK-22 PRK-15 every new notification is pushed once to each of its person's browsers unless they switched its kind off; a subscription the service calls gone is forgotten",
          arguments: TestDatabase.available)
    func delivery(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: Self.pushConfig) { ctx in
            let lot = try await ctx.freeLot("L")  // 10 spots
            let ana = try await ctx.register("ana"), ben = try await ctx.register("ben")
            for person in [ana, ben] { #expect(try await ctx.call(.PUT, "/v1/lots/\(lot.id)/watch", token: person.token).status == .ok) }
            let phone = Browser(), laptop = Browser(), bensPhone = Browser(gone: true)
            for (token, browser) in [(ana.token, phone), (ana.token, laptop), (ben.token, bensPhone)] {
                #expect(try await ctx.call(.POST, "/v1/me/push-subscriptions", token: token, json: browser.json).status == .created)
            }
            // Ana wants to hear when a lot is full, not when it is almost full.
            let prefs = try ctx.decode(Components.Schemas.PushPreferences.self, try await ctx.call(
                .PUT, "/v1/me/push-preferences", token: ana.token, json: ["kinds": [["kind": "lot-almost-full", "enabled": false]]]))
            #expect(prefs.kinds.map(\.kind.rawValue) == ["hold-asking", "hold-moved", "hold-expired", "lot-almost-full", "lot-full", "space-freed", "booking-cancelled", "plan-unreachable", "trail-suggestions", "friend-request", "friend-accepted", "thread-message", "time-to-leave"])
            #expect(prefs.kinds.filter { !$0.enabled }.map(\.kind) == [.lotAlmostFull])
            #expect(prefs.kinds.allSatisfy { !$0.label.isEmpty && !$0.label.contains("-") })

            let recorder = PushRecorder(gone: [bensPhone.endpoint])
            let pusher = Pusher(store: ctx.services.store, transport: recorder, contact: "mailto:ops@example.org",
                                now: ctx.clock.function, logger: Logger(label: "test"))
            try await pusher.prime()
            #expect(pusher.key?.publicKey == (try ctx.services.notifications.push.publicKey()))

            for i in 0..<10 {
                #expect(try await ctx.ingest([TestContext.event(lot.sensors[i], true, at: ctx.clock.now, seq: 10 + i)]).status == .ok)
            }
            #expect(try await pusher.pushOnce() == 4, "almost full and full, for each of two watchers")
            #expect(try await pusher.pushOnce() == 0, "each is pushed once")

            let sent = recorder.messages
            #expect(Set(sent.map(\.endpoint.absoluteString)) == [phone.endpoint, laptop.endpoint, bensPhone.endpoint])
            let toPhone = try sent.filter { $0.endpoint.absoluteString == phone.endpoint }.map { try phone.payload($0) }
            #expect(toPhone.map { $0["kind"] as? String } == ["lot-full"])
            let inbox = try ctx.decode(Components.Schemas.NotificationList.self,
                                       try await ctx.call(.GET, "/v1/me/notifications", token: ana.token))
            let full = try #require(inbox.notifications.first { $0.kind == .lotFull })
            #expect(toPhone.first?["id"] as? String == full.id)
            #expect(toPhone.first?["title"] as? String == "Test Lot is full")
            #expect(toPhone.first?["url"] as? String == "/lots/\(lot.id)")
            #expect(inbox.notifications.contains { $0.kind == .lotAlmostFull }, "switched off for pushes, still in the inbox")
            let toBen = try sent.filter { $0.endpoint.absoluteString == bensPhone.endpoint }.map { try bensPhone.payload($0)["kind"] as? String }
            #expect(Set(toBen) == ["lot-almost-full", "lot-full"])
            for message in sent {
                let headers = Dictionary(message.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                #expect(headers["Content-Encoding"] == "aes128gcm")
                #expect(Int(headers["TTL"] ?? "") ?? 0 > 0)
                #expect(headers["Authorization"]?.hasPrefix("vapid t=") == true)
            }

            let bens = try ctx.decode(Components.Schemas.PushSubscriptionList.self,
                                      try await ctx.call(.GET, "/v1/me/push-subscriptions", token: ben.token))
            #expect(bens.subscriptions.isEmpty, "the push service said 410: forgotten")
            let anas = try ctx.decode(Components.Schemas.PushSubscriptionList.self,
                                      try await ctx.call(.GET, "/v1/me/push-subscriptions", token: ana.token))
            #expect(anas.subscriptions.count == 2)
            #expect(anas.subscriptions.allSatisfy { $0.lastDeliveredAt != nil })

            // A notification that waited over an hour (a server down) is not pushed late.
            recorder.clear()
            for i in 0..<2 { _ = try await ctx.ingest([TestContext.event(lot.sensors[i], false, at: ctx.clock.now, seq: 30 + i)]) }
            for i in 0..<2 { _ = try await ctx.ingest([TestContext.event(lot.sensors[i], true, at: ctx.clock.now, seq: 40 + i)]) }
            ctx.clock.advance(by: 3601)
            #expect(try await pusher.pushOnce() == 2, "full again, for each watcher: claimed")
            #expect(recorder.messages.isEmpty, "but not sent")
        }
    }

    @Test("PRK-22 ACC-5 erasing an account erases its browsers and choices", arguments: TestDatabase.available)
    func erasure(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: Self.pushConfig) { ctx in
            let ana = try await ctx.register("ana")
            #expect(try await ctx.call(.POST, "/v1/me/push-subscriptions", token: ana.token, json: Browser().json).status == .created)
            #expect(try await ctx.call(.PUT, "/v1/me/push-preferences", token: ana.token,
                                       json: ["kinds": [["kind": "lot-full", "enabled": false]]]).status == .ok)
            let deleted = try await ctx.call(.POST, "/v1/me/deletion", token: ana.token, json: ["password": TestContext.password])
            #expect(deleted.status == .noContent)
            let rows = try await ctx.allRows()
            #expect(!rows.values.joined().contains { $0.contains(ana.id) })
            #expect(rows["push_subscriptions"]?.isEmpty ?? true)
        }
    }

    static func pushConfig(_ config: inout WaymarkConfiguration) {
        config.pushHosts = ["push.example.org"]
        config.passwordHashCost = 4
    }
}

/// What a browser keeps of its subscription: the key pair and secret the server encrypts to.
struct Browser {
    let privateKey = P256.KeyAgreement.PrivateKey()
    let auth = Secrets.randomBytes(16)
    let endpoint: String

    init(gone: Bool = false) {
        endpoint = "https://push.example.org/\(gone ? "gone" : "send")/\(UUID().uuidString)"
    }

    var p256dh: Data { privateKey.publicKey.x963Representation }
    var json: [String: Any] {
        ["endpoint": endpoint, "expirationTime": NSNull(), "keys": ["p256dh": p256dh.base64URL, "auth": auth.base64URL]]
    }

    /// Decrypts a message as the browser does (RFC 8291 from the receiving side).
    func open(_ body: Data) throws -> Data {
        let bytes = [UInt8](body)
        let salt = Data(bytes[0..<16])
        let idLength = Int(bytes[20])
        let senderPublic = Data(bytes[21..<(21 + idLength)])
        let shared = try privateKey.sharedSecretFromKeyAgreement(with: try P256.KeyAgreement.PublicKey(x963Representation: senderPublic))
        var info = Data("WebPush: info".utf8); info.append(0); info.append(p256dh); info.append(senderPublic)
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: info, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm\u{0}".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce\u{0}".utf8), outputByteCount: 12)
            .withUnsafeBytes { Data($0) }
        let sealed = Data(bytes[(21 + idLength)...])
        let box = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: nonce), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
        let record = try AES.GCM.open(box, using: cek)
        guard let delimiter = record.lastIndex(where: { $0 != 0 }), record[delimiter] == 2 else { throw TestFailure("no delimiter") }
        return Data(record[record.startIndex..<delimiter])
    }

    func payload(_ message: PushMessage) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try open(message.body)) as? [String: Any] ?? [:]
    }
}

/// Stands in for the browsers' push services, which tests cannot reach.
final class PushRecorder: PushTransport {
    private let sent = NIOLockedValueBox<[PushMessage]>([])
    let gone: Set<String>

    init(gone: Set<String> = []) { self.gone = gone }

    var messages: [PushMessage] { sent.withLockedValue { $0 } }
    func clear() { sent.withLockedValue { $0 = [] } }

    func send(_ message: PushMessage) async -> PushOutcome {
        sent.withLockedValue { $0.append(message) }
        return gone.contains(message.endpoint.absoluteString) ? .gone : .delivered
    }
}

extension TestContext {
    /// An answer decoded into the contract's generated type.
    func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        guard (200..<300).contains(response.status.code) else {
            throw TestFailure("\(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return try LiveEncoding.decoder.decode(T.self, from: response.body)
    }
}
