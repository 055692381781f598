import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func getWallet(_ input: Operations.GetWallet.Input) async throws -> Operations.GetWallet.Output {
        let me = try RequestContext.requirePrincipal()
        let balances = try await services.accounts.wallet.balances(me)
        return .ok(.init(body: .json(.init(
            balances: balances.map(BookingMapping.money),
            topUpMinimumMinor: WalletRules.topUpRange.lowerBound, topUpMaximumMinor: WalletRules.topUpRange.upperBound,
            maximumBalanceMinor: WalletRules.maximumBalanceMinor,
            payments: services.accounts.cardTopUps != nil ? .card : services.environment.payments != nil ? .demo : .off,
            cardPublishableKey: services.accounts.cardTopUps?.processor.publishableKey))))
    }

    func getWalletHistory(_ input: Operations.GetWalletHistory.Input) async throws -> Operations.GetWalletHistory.Output {
        let me = try RequestContext.requirePrincipal()
        let currency = input.query.currency ?? "USD"
        let lines = try await services.accounts.wallet.history(me, currency: currency, limit: input.query.limit ?? 100)
        return .ok(.init(body: .json(.init(currency: currency, lines: lines.map(WalletMapping.line)))))
    }

    func topUpWallet(_ input: Operations.TopUpWallet.Input) async throws -> Operations.TopUpWallet.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let key = try IdempotencyKeys.validated(input.headers.idempotencyKey)
        guard let amount = Int(exactly: body.amountMinor) else { throw Problem.badRequest("amountMinor is out of range.") }
        if let card = services.accounts.cardTopUps {
            let row = try await card.start(me, amount: Money(amount, body.currency), idempotencyKey: key)
            return .accepted(.init(body: .json(WalletMapping.cardTopUp(row, publishableKey: card.processor.publishableKey))))
        }
        let result = try await services.accounts.wallet.topUp(me, amount: Money(amount, body.currency), idempotencyKey: key)
        return .created(.init(body: .json(.init(line: WalletMapping.line(result.line), balance: BookingMapping.money(result.balance)))))
    }
}

extension APIHandler {
    func getCardTopUp(_ input: Operations.GetCardTopUp.Input) async throws -> Operations.GetCardTopUp.Output {
        let me = try RequestContext.requirePrincipal()
        guard let card = services.accounts.cardTopUps else { throw Problem.notFound("top-up") }
        let id = try BookingMapping.id(input.path.topUpId, "top-up")
        return .ok(.init(body: .json(WalletMapping.cardTopUp(try await card.get(me, id: id), publishableKey: card.processor.publishableKey))))
    }
}

enum WalletMapping {
    static func cardTopUp(_ r: CardTopUpService.Row, publishableKey: String) -> Components.Schemas.CardTopUp {
        let state: Components.Schemas.CardTopUp.StatePayload = switch r.state {
        case .pending: .pending
        case .succeeded: .succeeded
        case .failed: .failed
        case .refundDue: .refundDue
        case .refunded: .refunded
        }
        let open = r.state == .pending || r.state == .failed
        return .init(
            id: r.id, state: state, amount: BookingMapping.money(r.amount), paymentIntentId: r.intentId,
            clientSecret: open ? r.clientSecret : nil, publishableKey: publishableKey, failure: r.failure,
            transactionId: r.transactionId, refundId: r.refundId, createdAt: r.createdAt, updatedAt: r.updatedAt)
    }

    static func line(_ l: StatementLine) -> Components.Schemas.WalletLine {
        let movement: Components.Schemas.WalletLine.MovementPayload = switch l.movement {
        case .topUp: .topUp
        case .bookingPayment: .bookingPayment
        case .modificationSettlement: .modificationSettlement
        case .cancellationRefund: .cancellationRefund
        case .forfeit: .forfeit
        case .cardRefund: .cardRefund
        }
        let aboutBooking = l.movement != .topUp && l.movement != .cardRefund
        return .init(
            transactionId: l.transactionId, movement: movement, at: l.at, amount: BookingMapping.money(l.amount),
            balanceAfter: BookingMapping.money(l.balanceAfter), bookingId: aboutBooking ? l.reference : nil)
    }
}
