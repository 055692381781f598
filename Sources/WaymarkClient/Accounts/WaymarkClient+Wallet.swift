import Foundation
import WaymarkAPI
import WaymarkCore

public typealias Wallet = Components.Schemas.Wallet
public typealias WalletLine = Components.Schemas.WalletLine
public typealias CardTopUp = Components.Schemas.CardTopUp

/// What a top-up came to: credited at once (the demo provider), or a card payment to confirm
/// with the card processor's form, credited when the processor tells the server it succeeded.
public enum TopUpOutcome: Sendable {
    case credited(line: WalletLine, balance: Components.Schemas.Money)
    case cardPayment(CardTopUp)
}

/// The wallet (PRK-13): balance, history and top-ups. Needs an account.
extension WaymarkClient {
    public func wallet() async throws -> Wallet {
        let output = try await call { try await client.getWallet() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Newest first, with the balance after each line.
    public func walletHistory(currency: String = "USD", limit: Int? = nil) async throws -> [WalletLine] {
        let output = try await call { try await client.getWalletHistory(query: .init(currency: currency, limit: limit)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.lines
    }

    /// Starts a top-up however this server takes payments (`Wallet.payments`).
    public func startTopUp(amountMinor: Int, currency: String = "USD",
                           idempotencyKey: String? = UUID().uuidString) async throws -> TopUpOutcome {
        let output = try await call {
            try await client.topUpWallet(headers: .init(idempotencyKey: idempotencyKey),
                                         body: .json(.init(amountMinor: Int64(amountMinor), currency: currency)))
        }
        switch output {
        case .created(let created):
            let result = try created.body.json
            return .credited(line: result.line, balance: result.balance)
        case .accepted(let accepted):
            return .cardPayment(try accepted.body.json)
        default:
            throw Self.unexpected
        }
    }

    /// How a card top-up went: poll it after confirming the payment.
    public func cardTopUp(id: String) async throws -> CardTopUp {
        let output = try await call { try await client.getCardTopUp(path: .init(topUpId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Adds `amountMinor` (cents for USD) where top-ups are credited at once. Retrying with the
    /// same `idempotencyKey` tops up once.
    public func topUp(amountMinor: Int, currency: String = "USD",
                      idempotencyKey: String? = UUID().uuidString) async throws -> (line: WalletLine, balance: Components.Schemas.Money) {
        guard case .credited(let line, let balance) = try await startTopUp(amountMinor: amountMinor, currency: currency,
                                                                           idempotencyKey: idempotencyKey) else { throw Self.unexpected }
        return (line, balance)
    }
}
