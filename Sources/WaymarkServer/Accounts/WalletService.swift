import Foundation
import SQLKit
import WaymarkCore

/// The wallet of PRK-13: balance, history, top-ups. Money only moves through `LedgerStore`.
///
/// Wallets, like bookings, need an account: a guest identity lives on one device, and money
/// paid into it would be lost with the phone (UniPark, too, asks for a registered email before
/// anyone pays).
struct WalletService: Sendable {
    let store: SQLStore
    /// nil: top-ups are switched off (503 `payments-unavailable`).
    let provider: (any PaymentProvider)?
    let now: @Sendable () -> Date

    static let accountRequired = Problem(
        type: "account-required", title: "An account is needed", status: 403,
        detail: "Bookings and the wallet need an account: register or sign in. A guest identity lives on one device, and money in it would be lost with the device.")

    static func requireAccount(_ principal: Principal) throws {
        guard principal.kind == .account else { throw accountRequired }
    }

    func balances(_ principal: Principal) async throws -> [Money] {
        try Self.requireAccount(principal)
        return try await LedgerStore.balances(of: .wallet(principal.userId), sql: store.sql)
    }

    /// Newest first, at most `limit` lines.
    func history(_ principal: Principal, currency: String, limit: Int) async throws -> [StatementLine] {
        try Self.requireAccount(principal)
        guard Money.isValidCurrency(currency) else { throw Problem.badRequest("currency is three upper-case letters, e.g. USD.") }
        guard (1...500).contains(limit) else { throw Problem.badRequest("limit is 1 to 500.") }
        return Array(try await LedgerStore.statement(userId: principal.userId, currency: currency, sql: store.sql).suffix(limit).reversed())
    }

    struct TopUp: Sendable {
        var line: StatementLine
        var balance: Money
    }

    func topUp(_ principal: Principal, amount: Money, idempotencyKey: String?) async throws -> TopUp {
        try Self.requireAccount(principal)
        let userId = principal.userId
        let fingerprint = "\(amount.minorUnits) \(amount.currency)"
        let sql = store.sql
        if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .topUp, key: idempotencyKey,
                                                                           fingerprint: fingerprint, sql: sql) {
            return try await result(userId: userId, transactionId: done, currency: amount.currency, sql: sql)
        }
        try Self.check(amount, onto: try await LedgerStore.balance(of: .wallet(userId), currency: amount.currency, sql: sql))
        guard let provider else {
            throw Problem(type: "payments-unavailable", title: "Payments are switched off", status: 503,
                          detail: "This server takes no payments; ask its operator.")
        }
        // Charged outside the database transaction: a real provider answers over the network,
        // and a write lock must not wait for it.
        let paymentId = try await provider.charge(userId: userId, amount: amount, idempotencyKey: idempotencyKey ?? UUID().uuidString)
        let now = now()
        do {
            return try await store.write { sql in
                try await AdvisoryLocks.lockUser(userId, sql: sql)
                if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .topUp, key: idempotencyKey,
                                                                                   fingerprint: fingerprint, sql: sql) {
                    return try await result(userId: userId, transactionId: done, currency: amount.currency, sql: sql)
                }
                try Self.check(amount, onto: try await LedgerStore.balance(of: .wallet(userId), currency: amount.currency, sql: sql))
                let transaction = LedgerTransaction.topUp(id: UUID().uuidString.lowercased(), userId: userId, provider: provider.name,
                                                          amount: amount, at: now, providerPaymentId: paymentId)
                try await LedgerStore.post(transaction, sql: sql)
                if let idempotencyKey {
                    try await IdempotencyKeys.remember(userId: userId, scope: .topUp, key: idempotencyKey, fingerprint: fingerprint,
                                                       resultId: transaction.id, at: now, sql: sql)
                }
                return try await result(userId: userId, transactionId: transaction.id, currency: amount.currency, sql: sql)
            }
        } catch let problem as Problem where problem.type == Self.walletLimitType {
            // Another top-up filled the wallet meanwhile: give this charge back. Other failures
            // keep the charge, since a retry with the same key gets the same payment from the
            // provider and credits it then; voiding it could undo a charge another request of
            // the same key has credited.
            try? await provider.void(paymentId: paymentId)
            throw problem
        }
    }

    private static let walletLimitType = Problem.conflict("wallet-limit", "").type

    static func check(_ amount: Money, onto balance: Money) throws {
        do throws(WalletRules.TopUpError) {
            try WalletRules.checkTopUp(amount, onto: balance)
        } catch {
            switch error {
            case .invalidCurrency, .amountOutOfRange:
                throw Problem(type: "amount-out-of-range", title: "The amount is not accepted", status: 400, detail: error.description)
            case .balanceLimit:
                throw Problem.conflict("wallet-limit", error.description)
            }
        }
    }

    private func result(userId: String, transactionId: String, currency: String, sql: any SQLDatabase) async throws -> TopUp {
        let statement = try await LedgerStore.statement(userId: userId, currency: currency, sql: sql)
        guard let line = statement.first(where: { $0.transactionId == transactionId }) else { throw Problem.internalError }
        return TopUp(line: line, balance: statement.last?.balanceAfter ?? line.balanceAfter)
    }
}
