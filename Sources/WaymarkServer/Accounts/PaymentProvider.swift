import Foundation
import WaymarkCore

/// Where top-ups come from (PRK-13). A provider takes the user's money; the ledger then credits
/// the wallet from the provider's clearing account. `idempotencyKey` is passed through so that a
/// top-up retried after a lost answer is charged once by the provider too.
protocol PaymentProvider: Sendable {
    /// The owner of the provider's clearing account in the ledger ("providerClearing:<name>").
    var name: String { get }
    /// Charges `amount` and returns the provider's payment id, or throws a `Problem`.
    func charge(userId: String, amount: Money, idempotencyKey: String) async throws -> String
    /// Gives back a charge whose credit could not be posted (e.g. the wallet limit was reached
    /// in the meantime).
    func void(paymentId: String) async throws
}

/// Credits at once and charges nobody: for the demo server and tests. Switched on with
/// `WaymarkConfiguration.demoPayments`; never in front of real users.
struct DemoPaymentProvider: PaymentProvider {
    var name: String { "demo" }

    func charge(userId: String, amount: Money, idempotencyKey: String) async throws -> String {
        "demo-" + UUID().uuidString.lowercased()
    }

    /// Nothing was charged, so there is nothing to give back.
    func void(paymentId: String) async throws {}
}
