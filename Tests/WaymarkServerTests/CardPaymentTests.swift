// The card processor's answers and events in Fixtures/card/ were written by hand in the shape
// its API reference documents (see the README there); the processor cannot be reached here.
import Foundation
import SQLKit
import Testing
import Vapor
import WaymarkCore
@testable import WaymarkServer

@Suite("Top-ups by card through the card processor (PRK-13)")
struct CardPaymentTests {
    typealias T = TestContext
    static let webhookSecret = "whsec_test_5dY8pQ2rT7vX1zB4nM6kL9jH"
    static let intent = "pi_3QJm2fLkdIwHu7ix0mV6cH8d"

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/card/\(name)"))
    }

    static func cardConfig(_ processor: RecordedHTTPServer) -> (inout WaymarkConfiguration) -> Void {
        { c in
            bookingConfig(&c)
            c.demoPayments = false
            c.cardSecretKey = "sk_test_51QJlzXLkdIwHu7ixWaymarkTests"
            c.cardWebhookSecret = webhookSecret
            c.cardPublishableKey = "pk_test_51QJlzXLkdIwHu7ixWaymarkTests"
            c.cardAPIURL = processor.url
        }
    }

    /// Posts an event as the processor does: signed over its exact bytes at `at`.
    func deliver(_ ctx: TestContext, _ event: Data, at: Date? = nil, signature: String? = nil) async throws -> TestResponse {
        let t = Int((at ?? ctx.clock.now).timeIntervalSince1970)
        let header = signature ?? "t=\(t),v1=\(CardWebhookSignature.sign(payload: event, timestamp: t, secret: Self.webhookSecret))"
        return try await ctx.call(.POST, "/v1/payments/card/events", body: event, contentType: "application/json",
                                  headers: header.isEmpty ? [:] : ["Stripe-Signature": header])
    }

    func startProcessor() async throws -> RecordedHTTPServer {
        let processor = try await RecordedHTTPServer.start(path: "v1")
        processor.respond(.init(status: .ok, body: try Self.fixture("payment_intent_created.json")), path: "/v1/payment_intents")
        processor.respond(.init(status: .ok, body: try Self.fixture("refund_created.json")), path: "/v1/refunds")
        return processor
    }

    func minor(_ value: Any?) -> Int? { (value as? [String: Any])?["minorUnits"] as? Int }

    @Test("PRK-13 a top-up opens a payment intent; only the signed success event credits the wallet, once, whatever order and however often events come",
          arguments: TestDatabase.available)
    func intentThenWebhook(db: TestDatabase) async throws {
        let processor = try await startProcessor()
        defer { Task { try? await processor.stop() } }
        try await TestApp.with(db, configure: Self.cardConfig(processor)) { ctx in
            let me = try await ctx.register("cardholder")
            let wallet = try await ctx.call(.GET, "/v1/wallet", token: me.token).json
            #expect(wallet["payments"] as? String == "card")
            #expect(wallet["cardPublishableKey"] as? String == "pk_test_51QJlzXLkdIwHu7ixWaymarkTests")

            let started = try await ctx.topUp(me.token, cents: 1500, key: "top-up-1")
            #expect(started.status == .accepted)
            #expect(started.json["state"] as? String == "pending")
            #expect(started.json["paymentIntentId"] as? String == Self.intent)
            #expect((started.json["clientSecret"] as? String)?.hasPrefix(Self.intent + "_secret_") == true)
            let topUpId = try #require(started.json["id"] as? String)
            let sent = try #require(processor.posted.first)
            #expect(sent.path == "/v1/payment_intents")
            #expect(sent.headers["authorization"] == "Bearer sk_test_51QJlzXLkdIwHu7ixWaymarkTests")
            #expect(sent.headers["idempotency-key"] == "waymark-top-up-\(topUpId)")
            #expect(sent.headers["stripe-version"] == StripeCardProcessor.apiVersion)
            let form = Set(sent.body.split(separator: "&").map(String.init))
            #expect(form.isSuperset(of: ["amount=1500", "currency=usd", "automatic_payment_methods%5Benabled%5D=true",
                                         "metadata%5Bwaymark_user%5D=\(me.id)", "metadata%5Bwaymark_top_up%5D=\(topUpId)"]), "\(form)")
            // A retry with the same key answers the same top-up and asks the processor nothing.
            let again = try await ctx.topUp(me.token, cents: 1500, key: "top-up-1")
            #expect(again.status == .accepted && again.json["id"] as? String == topUpId)
            #expect(processor.posted.count == 1)
            #expect(try await ctx.balance(me.token) == 0, "nothing is credited before the processor says so")

            // Not the processor: no signature, a wrong one, an old one.
            let succeeded = try Self.fixture("event_payment_intent_succeeded.json")
            for (signature, at, why) in [("", nil, "Stripe-Signature header is missing"), ("t=1,v1=00", nil, "more than five minutes"),
                                         (nil, ctx.clock.now.addingTimeInterval(-600), "more than five minutes"),
                                         ("t=\(Int(ctx.clock.now.timeIntervalSince1970)),v1=\(String(repeating: "ab", count: 32))", nil, "No v1 signature matches")] as [(String?, Date?, String)] {
                let r = try await deliver(ctx, succeeded, at: at, signature: signature)
                #expect(r.status == .badRequest, "\(why)")
                #expect(r.problemType == "card-event-unsigned", "\(why)")
                #expect((r.json["detail"] as? String)?.contains(why) == true, "\(why): \(r.json)")
            }
            #expect(try await ctx.balance(me.token) == 0)

            // The card is declined first; an event about another object changes nothing.
            #expect(try await deliver(ctx, try Self.fixture("event_payment_intent_payment_failed.json")).status == .ok)
            #expect(try await deliver(ctx, try Self.fixture("event_charge_succeeded.json")).status == .ok)
            let failed = try await ctx.call(.GET, "/v1/wallet/top-ups/\(topUpId)", token: me.token).json
            #expect(failed["state"] as? String == "failed")
            #expect(failed["failure"] as? String == "Your card has insufficient funds.")
            #expect(failed["clientSecret"] != nil, "another card may still pay it")

            // Another card works: credited once, however often the event comes.
            for _ in 0..<3 { #expect(try await deliver(ctx, succeeded).status == .ok) }
            #expect(try await ctx.balance(me.token) == 1500)
            let done = try await ctx.call(.GET, "/v1/wallet/top-ups/\(topUpId)", token: me.token).json
            #expect(done["state"] as? String == "succeeded")
            #expect(done["clientSecret"] == nil)
            let reference = try await ctx.services.store.sql.raw("""
                SELECT reference FROM ledger_transactions WHERE id = \(bind: done["transactionId"] as? String ?? "")
                """).first()?.decode(column: "reference", as: String?.self)
            #expect(reference == Self.intent, "the ledger keeps the processor's id")

            // A failure delivered late, under a new event id, does not undo the success.
            var late = try #require(try JSONSerialization.jsonObject(with: try Self.fixture("event_payment_intent_payment_failed.json")) as? [String: Any])
            late["id"] = "evt_3QJm2fLkdIwHu7ix0LateFail"
            #expect(try await deliver(ctx, try JSONSerialization.data(withJSONObject: late)).status == .ok)
            #expect(try await ctx.call(.GET, "/v1/wallet/top-ups/\(topUpId)", token: me.token).json["state"] as? String == "succeeded")
            #expect(try await ctx.balance(me.token) == 1500)
            try await ctx.checkLedger()

            let other = try await ctx.register("someone")
            #expect(try await ctx.call(.GET, "/v1/wallet/top-ups/\(topUpId)", token: other.token).status == .notFound)
            #expect(try await ctx.call(.GET, "/v1/wallet/top-ups/\(topUpId)").status == .unauthorized)
        }
    }

    @Test("PRK-13 a refund made at the card processor takes the money back out of the wallet, once per event and as much as the wallet holds; the rest is recorded as unrecovered",
          arguments: TestDatabase.available)
    func refundAtTheProcessor(db: TestDatabase) async throws {
        let processor = try await startProcessor()
        defer { Task { try? await processor.stop() } }
        try await TestApp.with(db, configure: Self.cardConfig(processor)) { ctx in
            let me = try await ctx.register("refunded")
            let topUpId = try #require(try await ctx.topUp(me.token, cents: 1500, key: "card-1").json["id"] as? String)
            #expect(try await deliver(ctx, try Self.fixture("event_payment_intent_succeeded.json")).status == .ok)
            #expect(try await ctx.balance(me.token) == 1500)

            // 5.00 given back at the processor: taken from the wallet once, however often it is told.
            let partial = try Self.fixture("event_charge_refunded.json")
            for _ in 0..<2 { #expect(try await deliver(ctx, partial).status == .ok) }
            func refunded(_ total: Int, id: String) throws -> Data {
                var event = try #require(try JSONSerialization.jsonObject(with: partial) as? [String: Any])
                var data = try #require(event["data"] as? [String: Any]), charge = try #require(data["object"] as? [String: Any])
                charge["amount_refunded"] = total
                charge["refunded"] = total == 1500
                data["object"] = charge
                event["data"] = data
                event["id"] = id
                return try JSONSerialization.data(withJSONObject: event)
            }
            #expect(try await deliver(ctx, try refunded(500, id: "evt_3QJm2fLkdIwHu7ix0SameTotal")).status == .ok)
            #expect(try await ctx.balance(me.token) == 1000)

            // Part of the rest is spent on a booking (2 hours of lot L: 5.40), then the rest is refunded.
            let lotL = try #require(try await ctx.lotIds()["L"])
            #expect(try await ctx.book(me.token, lot: lotL, T.local(day: 19, 10), T.local(day: 19, 12)).status == .created)
            #expect(try await ctx.balance(me.token) == 460)
            #expect(try await deliver(ctx, try refunded(1500, id: "evt_3QJm2fLkdIwHu7ix0FullRefnd")).status == .ok)
            #expect(try await ctx.balance(me.token) == 0, "the wallet never goes below zero")
            let row = try #require(try await ctx.services.store.sql.raw("""
                SELECT state, refunded_minor, unrecovered_minor FROM card_payments WHERE id = \(bind: topUpId)
                """).first())
            #expect(try row.decode(column: "state", as: String.self) == "refunded")
            #expect(try row.decode(column: "refunded_minor", as: Int.self) == 1500)
            #expect(try row.decode(column: "unrecovered_minor", as: Int.self) == 540, "what was spent before the refund")

            let lines = try await ctx.call(.GET, "/v1/wallet/history", token: me.token).json["lines"] as? [[String: Any]] ?? []
            let back = lines.filter { $0["movement"] as? String == "cardRefund" }
            #expect(back.compactMap { minor($0["amount"]) }.sorted() == [-500, -460])
            #expect(back.allSatisfy { $0["bookingId"] == nil })
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-13 a paid top-up the wallet can no longer take goes back to the card; the processor's refusal or outage is a clear problem and stores nothing",
          arguments: TestDatabase.available)
    func refundsAndRefusals(db: TestDatabase) async throws {
        let processor = try await startProcessor()
        defer { Task { try? await processor.stop() } }
        try await TestApp.with(db, configure: Self.cardConfig(processor)) { ctx in
            let me = try await ctx.register("fullwallet")
            #expect(try await ctx.topUp(me.token, cents: 1500).status == .accepted)
            // Meanwhile the wallet was filled to 199,000 by other top-ups.
            try await ctx.services.store.write { sql in
                try await LedgerStore.post(.topUp(id: UUID().uuidString, userId: me.id, provider: "card", amount: Money(199_000, "USD"),
                                                  at: ctx.clock.now, providerPaymentId: "pi_other"), sql: sql)
            }
            #expect(try await deliver(ctx, try Self.fixture("event_payment_intent_succeeded.json")).status == .ok)
            #expect(try await ctx.balance(me.token) == 199_000)
            let refund = try #require(processor.posted.last)
            #expect(refund.path == "/v1/refunds" && refund.body == "payment_intent=\(Self.intent)")
            let row = try await ctx.services.store.sql.raw("SELECT state, refund_id, failure FROM card_payments").first()
            #expect(try row?.decode(column: "state", as: String.self) == "refunded")
            #expect(try row?.decode(column: "refund_id", as: String?.self) == "re_3QJm2fLkdIwHu7ix0Hk4sPq9")
            #expect(try row?.decode(column: "failure", as: String?.self)?.contains("goes back to your card") == true)

            // The processor refuses the request, or is down: nothing is stored.
            let other = try await ctx.register("refused")
            processor.respond(.init(status: .badRequest, body: try Self.fixture("error_amount_too_small.json")), path: "/v1/payment_intents")
            let refused = try await ctx.topUp(other.token, cents: 1500)
            #expect(refused.status == .badGateway)
            #expect(refused.problemType == "card-processor-refused")
            #expect((refused.json["detail"] as? String)?.contains("Amount must be at least $0.50 usd") == true)
            processor.respond(.init(status: .tooManyRequests, body: try Self.fixture("error_rate_limit.json")), path: "/v1/payment_intents")
            let busy = try await ctx.topUp(other.token, cents: 1500)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.problemType == "payments-unavailable")
            #expect((busy.json["detail"] as? String)?.contains("Nothing was charged") == true)
            let rows = try await ctx.services.store.sql.raw("SELECT COUNT(*) AS n FROM card_payments WHERE user_id = \(bind: other.id)")
                .first()?.decode(column: "n", as: Int.self)
            #expect(rows == 0)
            try await ctx.checkLedger()
        }
    }

    @Test("PRK-13 without the card processor's keys card payments stay off and the wallet says how top-ups are paid", arguments: TestDatabase.available)
    func offWithoutKeys(db: TestDatabase) async throws {
        try await TestApp.with(db, configure: { c in bookingConfig(&c); c.demoPayments = false; c.cardSecretKey = "sk_test_only" }) { ctx in
            let me = try await ctx.register("nokeys")
            let wallet = try await ctx.call(.GET, "/v1/wallet", token: me.token).json
            #expect(wallet["payments"] as? String == "off")
            #expect(wallet["cardPublishableKey"] == nil)
            let r = try await ctx.topUp(me.token, cents: 1500)
            #expect(r.status == .serviceUnavailable && r.problemType == "payments-unavailable")
            #expect(try await ctx.call(.POST, "/v1/payments/card/events", json: ["id": "evt_1"]).status == .notFound)
        }
        try await TestApp.with(db, configure: bookingConfig) { ctx in
            let me = try await ctx.register("demo")
            #expect(try await ctx.call(.GET, "/v1/wallet", token: me.token).json["payments"] as? String == "demo")
        }
    }
}
