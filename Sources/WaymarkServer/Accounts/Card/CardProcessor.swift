import Foundation
import WaymarkCore

/// A card processor that takes top-ups in two steps (PRK-13): the server opens a payment intent
/// for the amount, the person's browser confirms it with their card on the processor's own form
/// (the card number never reaches Waymark), and the processor tells the server the outcome by a
/// signed webhook. Only then is the wallet credited.
protocol CardProcessor: Sendable {
    /// Given to the web app, which confirms payments with it; not a secret.
    var publishableKey: String { get }
    /// Opens a payment intent; the same `idempotencyKey` answers the intent made the first time.
    func createIntent(amount: Money, userId: String, topUpId: String, idempotencyKey: String) async throws -> CardIntent
    /// Gives a succeeded payment back in full; the same `idempotencyKey` refunds once.
    func refund(intentId: String, idempotencyKey: String) async throws -> String
    /// The event in a webhook's body, if its signature is the processor's and recent.
    func verifiedEvent(payload: Data, signatureHeader: String?, now: Date) throws -> CardEvent
}

struct CardIntent: Sendable, Equatable {
    var id: String
    var clientSecret: String
    var status: String
}

/// What a webhook says happened to a payment intent.
struct CardEvent: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case succeeded
        case failed(reason: String)
        /// The processor gave the payment back, `totalMinor` of it so far (a refund made at the
        /// processor; Waymark's own refunds come back this way too).
        case refunded(totalMinor: Int)
        /// Any other event: acknowledged, changes nothing.
        case other(String)
    }

    var id: String
    var kind: Kind
    /// The intent it is about; nil for events about other objects.
    var intentId: String?
    var amount: Money?
}
