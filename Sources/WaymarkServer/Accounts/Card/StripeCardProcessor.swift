import AsyncHTTPClient
import Foundation
import NIOCore
import WaymarkCore

/// The card processor through Stripe's API: payment intents, refunds and signed webhooks.
/// Requests are form-encoded with the secret key as bearer token and pinned to one API version,
/// so that the answers keep the shape this reads; every write carries an Idempotency-Key.
struct StripeCardProcessor: CardProcessor {
    let client: HTTPClient
    /// `https://api.stripe.com`, or a local server in tests.
    let baseURL: String
    let secretKey: String
    let webhookSecret: String
    let publishableKey: String
    var timeout: TimeAmount = .seconds(15)

    static let apiVersion = "2024-06-20"
    static let maximumBody = 1 << 20

    func createIntent(amount: Money, userId: String, topUpId: String, idempotencyKey: String) async throws -> CardIntent {
        let answer = try await post("/v1/payment_intents", form: [
            ("amount", String(amount.minorUnits)),
            ("currency", amount.currency.lowercased()),
            ("automatic_payment_methods[enabled]", "true"),
            ("description", "Waymark wallet top-up"),
            ("metadata[waymark_user]", userId),
            ("metadata[waymark_top_up]", topUpId),
        ], idempotencyKey: idempotencyKey)
        guard let intent = try? JSONDecoder().decode(IntentAnswer.self, from: answer), intent.object == "payment_intent" else {
            throw Self.refused("The card processor's answer is not a payment intent.")
        }
        return CardIntent(id: intent.id, clientSecret: intent.client_secret, status: intent.status)
    }

    func refund(intentId: String, idempotencyKey: String) async throws -> String {
        let answer = try await post("/v1/refunds", form: [("payment_intent", intentId)], idempotencyKey: idempotencyKey)
        guard let refund = try? JSONDecoder().decode(RefundAnswer.self, from: answer), refund.object == "refund" else {
            throw Self.refused("The card processor's answer is not a refund.")
        }
        return refund.id
    }

    func verifiedEvent(payload: Data, signatureHeader: String?, now: Date) throws -> CardEvent {
        do throws(CardWebhookSignature.Failure) {
            try CardWebhookSignature.verify(payload: payload, header: signatureHeader, secret: webhookSecret, now: now)
        } catch {
            throw Problem(type: "card-event-unsigned", title: "The event is not signed by the card processor", status: 400,
                          detail: error.description)
        }
        guard let event = try? JSONDecoder().decode(EventAnswer.self, from: payload), event.object == "event" else {
            throw Problem.badRequest("The body is not an event of the card processor.")
        }
        let object = event.data.object
        // A charge names the intent it paid; its amount refunded is the total so far.
        let intentId = object.object == "payment_intent" ? object.id : object.object == "charge" ? object.payment_intent : nil
        let amount = zip2(object.amount, object.currency).map { Money($0, $1.uppercased()) }
        let kind: CardEvent.Kind = switch event.type {
        case "payment_intent.succeeded": .succeeded
        case "payment_intent.payment_failed": .failed(reason: object.last_payment_error?.message ?? "The card was declined.")
        case "charge.refunded" where object.amount_refunded != nil: .refunded(totalMinor: object.amount_refunded ?? 0)
        default: .other(event.type)
        }
        return CardEvent(id: event.id, kind: kind, intentId: intentId, amount: amount)
    }

    // MARK: HTTP

    private func post(_ path: String, form: [(String, String)], idempotencyKey: String) async throws -> Data {
        let root = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        var request = HTTPClientRequest(url: root + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(secretKey)")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        request.headers.add(name: "Stripe-Version", value: Self.apiVersion)
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(form)))
        let status: UInt, body: Data
        do {
            let response = try await client.execute(request, timeout: timeout)
            status = response.status.code
            body = Data(buffer: try await response.body.collect(upTo: Self.maximumBody))
        } catch {
            throw Self.unreachable
        }
        guard (200..<300).contains(status) else { throw Self.problem(status: status, body: body) }
        return body
    }

    /// The processor's error (`{"error": {"type", "code", "message"}}`) as the problem a person
    /// reads: its own trouble is "try again later", a refusal of the request is passed on.
    static func problem(status: UInt, body: Data) -> Problem {
        let error = (try? JSONDecoder().decode(ErrorAnswer.self, from: body))?.error
        if status == 429 || status >= 500 || error?.type == "api_error" { return unreachable }
        if error?.type == "card_error" {
            return Problem(type: "card-declined", title: "The card was declined", status: 402,
                           detail: error?.message ?? "The card was declined; try another card.")
        }
        return refused(error?.message ?? "HTTP \(status).")
    }

    static let unreachable = Problem(type: "payments-unavailable", title: "Payments are not available right now", status: 503,
                                     detail: "The card processor cannot be reached. Nothing was charged; try again in a minute.")

    static func refused(_ said: String) -> Problem {
        Problem(type: "card-processor-refused", title: "The card processor refused the payment", status: 502,
                detail: "The card processor said: \(said) Nothing was charged.")
    }

    /// `application/x-www-form-urlencoded`, brackets and all escaped as the form rules ask.
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let escape = { (s: String) in s.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    // The parts of the processor's objects this reads (API version `apiVersion`).
    private struct IntentAnswer: Decodable { var id: String; var object: String; var client_secret: String; var status: String }
    private struct RefundAnswer: Decodable { var id: String; var object: String }
    private struct ErrorAnswer: Decodable {
        struct Detail: Decodable { var type: String?; var code: String?; var message: String? }
        var error: Detail
    }
    private struct EventAnswer: Decodable {
        struct Payload: Decodable { var object: EventObject }
        struct EventObject: Decodable {
            struct PaymentError: Decodable { var message: String? }
            var id: String
            var object: String
            var amount: Int?
            var currency: String?
            var last_payment_error: PaymentError?
            var payment_intent: String?
            var amount_refunded: Int?
        }
        var id: String
        var object: String
        var type: String
        var data: Payload
    }
}

private func zip2<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
