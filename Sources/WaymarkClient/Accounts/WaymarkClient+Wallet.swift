import Foundation
import WaymarkAPI
import WaymarkCore

public typealias Wallet = Components.Schemas.Wallet
public typealias WalletLine = Components.Schemas.WalletLine

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

    /// Adds `amountMinor` (cents for USD). Retrying with the same `idempotencyKey` tops up once.
    public func topUp(amountMinor: Int, currency: String = "USD",
                      idempotencyKey: String? = UUID().uuidString) async throws -> (line: WalletLine, balance: Components.Schemas.Money) {
        let output = try await call {
            try await client.topUpWallet(headers: .init(idempotencyKey: idempotencyKey),
                                         body: .json(.init(amountMinor: Int64(amountMinor), currency: currency)))
        }
        guard case .created(let created) = output else { throw Self.unexpected }
        let result = try created.body.json
        return (result.line, result.balance)
    }
}
