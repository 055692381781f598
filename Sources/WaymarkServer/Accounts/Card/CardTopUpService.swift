import Crypto
import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Top-ups paid by card (PRK-13). `start` opens a payment intent and keeps it as `pending`; the
/// processor's webhook then says whether it succeeded, and only a success credits the wallet,
/// once: each event is handled at most once (its id is kept), and a payment moves only forward
/// (pending → succeeded or failed; failed → succeeded when another card worked), so an event
/// delivered twice or late changes nothing. A success the wallet cannot take (its limit was
/// reached meanwhile) is refunded to the card. A refund made at the processor takes the amount
/// back out of the wallet, as much as it still holds; the rest is recorded as unrecovered.
struct CardTopUpService: Sendable {
    let store: SQLStore
    let processor: any CardProcessor
    let now: @Sendable () -> Date
    let logger: Logger

    enum State: String, Sendable {
        case pending, succeeded, failed, refundDue, refunded
    }

    struct Row: Sendable {
        var id: String
        var userId: String
        var intentId: String
        var clientSecret: String?
        var amount: Money
        var state: State
        var failure: String?
        var transactionId: String?
        var refundId: String?
        /// Given back by the processor so far, and the part of it the wallet no longer held.
        var refundedMinor: Int
        var unrecoveredMinor: Int
        var createdAt: Date
        var updatedAt: Date

        static let select = """
            SELECT id, user_id, intent_id, client_secret, amount_minor, currency, state, failure, transaction_id, refund_id,
                   refunded_minor, unrecovered_minor, created_at, updated_at FROM card_payments
            """

        init(_ r: any SQLRow) throws {
            id = try r.decode(column: "id", as: String.self)
            userId = try r.decode(column: "user_id", as: String.self)
            intentId = try r.decode(column: "intent_id", as: String.self)
            clientSecret = try r.decode(column: "client_secret", as: String?.self)
            amount = Money(try r.decode(column: "amount_minor", as: Int.self), try r.decode(column: "currency", as: String.self))
            state = State(rawValue: try r.decode(column: "state", as: String.self)) ?? .failed
            failure = try r.decode(column: "failure", as: String?.self)
            transactionId = try r.decode(column: "transaction_id", as: String?.self)
            refundId = try r.decode(column: "refund_id", as: String?.self)
            refundedMinor = try r.decode(column: "refunded_minor", as: Int.self)
            unrecoveredMinor = try r.decode(column: "unrecovered_minor", as: Int.self)
            createdAt = Date(millis: try r.decode(column: "created_at", as: Int64.self))
            updatedAt = Date(millis: try r.decode(column: "updated_at", as: Int64.self))
        }
    }

    /// Opens a payment intent for `amount`; the web app confirms it with the person's card.
    func start(_ principal: Principal, amount: Money, idempotencyKey: String?) async throws -> Row {
        try WalletService.requireAccount(principal)
        let userId = principal.userId, sql = store.sql
        let fingerprint = "\(amount.minorUnits) \(amount.currency)"
        if let idempotencyKey, let done = try await IdempotencyKeys.result(userId: userId, scope: .cardTopUp, key: idempotencyKey,
                                                                           fingerprint: fingerprint, sql: sql) {
            return try await require(done, userId: userId, sql: sql)
        }
        try WalletService.check(amount, onto: try await LedgerStore.balance(of: .wallet(userId), currency: amount.currency, sql: sql))
        // The same key makes the same top-up id, so a retry after a lost answer asks the
        // processor for the very same intent (its idempotency wants identical parameters).
        let topUpId = idempotencyKey.map { Self.stableId(userId: userId, key: $0) } ?? UUID().uuidString.lowercased()
        let intent = try await processor.createIntent(amount: amount, userId: userId, topUpId: topUpId,
                                                      idempotencyKey: "waymark-top-up-\(topUpId)")
        let now = now()
        return try await store.write { sql in
            try await sql.raw("""
                INSERT INTO card_payments (id, user_id, intent_id, client_secret, amount_minor, currency, state, created_at, updated_at)
                VALUES (\(bind: topUpId), \(bind: userId), \(bind: intent.id), \(bind: intent.clientSecret), \(bind: amount.minorUnits),
                        \(bind: amount.currency), 'pending', \(bind: now.millis), \(bind: now.millis))
                ON CONFLICT (id) DO NOTHING
                """).run()
            if let idempotencyKey, try await IdempotencyKeys.result(userId: userId, scope: .cardTopUp, key: idempotencyKey,
                                                                  fingerprint: fingerprint, sql: sql) == nil {
                try await IdempotencyKeys.remember(userId: userId, scope: .cardTopUp, key: idempotencyKey, fingerprint: fingerprint,
                                                   resultId: topUpId, at: now, sql: sql)
            }
            return try await require(topUpId, userId: userId, sql: sql)
        }
    }

    /// One of the person's card top-ups; someone else's is unknown.
    func get(_ principal: Principal, id: String) async throws -> Row {
        try WalletService.requireAccount(principal)
        return try await require(id, userId: principal.userId, sql: store.sql)
    }

    /// A webhook from the processor. Unsigned or stale bodies are refused (400); everything
    /// else is acknowledged, whether it changed anything or not, so the processor stops sending it.
    func receive(payload: Data, signatureHeader: String?) async throws {
        let now = now()
        let event = try processor.verifiedEvent(payload: payload, signatureHeader: signatureHeader, now: now)
        let due = try await store.write { sql -> Row? in
            let fresh = try await sql.raw("""
                INSERT INTO card_events (id, type, received_at) VALUES (\(bind: event.id), \(bind: Self.typeName(event.kind)), \(bind: now.millis))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """).first() != nil
            guard fresh, let intentId = event.intentId,
                  let row = try await sql.raw("\(unsafeRaw: Row.select) WHERE intent_id = \(bind: intentId)").first().map(Row.init)
            else { return nil }
            try await AdvisoryLocks.lockUser(row.userId, sql: sql)
            switch event.kind {
            case .succeeded:
                guard row.state == .pending || row.state == .failed else { return nil }
                if let paid = event.amount, paid != row.amount {
                    logger.error("card payment amount differs from the top-up", metadata: ["intent": .string(intentId)])
                }
                let balance = try await LedgerStore.balance(of: .wallet(row.userId), currency: row.amount.currency, sql: sql)
                // An account deleted meanwhile has no wallet to credit (its rows carry a tombstone).
                let erased = row.userId.hasPrefix("erased-")
                guard !erased, (try? WalletRules.checkTopUp(row.amount, onto: balance)) != nil else {
                    let why = erased ? "The account was deleted" : "Your wallet was full"
                    try await update(row.id, to: .refundDue, failure: "\(why); the payment goes back to your card.", at: now, sql: sql)
                    return row
                }
                let transaction = LedgerTransaction.topUp(id: UUID().uuidString.lowercased(), userId: row.userId, provider: Self.providerName,
                                                          amount: row.amount, at: now, providerPaymentId: row.intentId)
                try await LedgerStore.post(transaction, sql: sql)
                try await sql.raw("""
                    UPDATE card_payments SET state = 'succeeded', failure = NULL, client_secret = NULL, transaction_id = \(bind: transaction.id),
                        updated_at = \(bind: now.millis) WHERE id = \(bind: row.id)
                    """).run()
            case .failed(let reason):
                guard row.state == .pending else { return nil }
                try await update(row.id, to: .failed, failure: reason, at: now, sql: sql)
            case .refunded(let total):
                // Only a credited payment has money in the wallet to take back; Waymark's own
                // refunds (refundDue, refunded) never credited it.
                guard row.state == .succeeded else { return nil }
                try await takeBack(row, totalMinor: min(total, row.amount.minorUnits), at: now, sql: sql)
            case .other:
                break
            }
            return nil
        }
        if let due { try? await refund(due) }
    }

    /// Refunds what is due and was not refunded yet (the processor did not answer at the time).
    func refundDue() async throws {
        let rows = try await store.sql.raw("\(unsafeRaw: Row.select) WHERE state = 'refundDue' ORDER BY updated_at LIMIT 50").all().map(Row.init)
        for row in rows { try await refund(row) }
    }

    func run(every interval: Duration = .seconds(60)) async {
        while !Task.isCancelled {
            do { try await refundDue() } catch { logger.warning("card refunds wait", metadata: ["error": .string("\(error)")]) }
            try? await Task.sleep(for: interval)
        }
    }

    /// Takes what the processor gave back since the last refund event out of the wallet, as much
    /// as it holds (the person may have spent it on bookings); the rest is kept as unrecovered.
    private func takeBack(_ row: Row, totalMinor: Int, at now: Date, sql: any SQLDatabase) async throws {
        let newly = totalMinor - row.refundedMinor
        guard newly > 0 else { return }
        let currency = row.amount.currency
        let balance = try await LedgerStore.balance(of: .wallet(row.userId), currency: currency, sql: sql)
        let taken = row.userId.hasPrefix("erased-") ? 0 : min(newly, max(0, balance.minorUnits))
        if taken > 0 {
            try await LedgerStore.post(.cardRefund(id: UUID().uuidString.lowercased(), userId: row.userId, provider: Self.providerName,
                                                   amount: Money(taken, currency), providerPaymentId: row.intentId, at: now), sql: sql)
        }
        if taken < newly {
            logger.warning("card refund larger than the wallet", metadata: [
                "intent": .string(row.intentId), "unrecovered": .stringConvertible(newly - taken), "currency": .string(currency)])
        }
        let fully = totalMinor >= row.amount.minorUnits
        try await sql.raw("""
            UPDATE card_payments SET refunded_minor = \(bind: totalMinor), unrecovered_minor = unrecovered_minor + \(bind: newly - taken),
                state = \(bind: fully ? State.refunded.rawValue : State.succeeded.rawValue), updated_at = \(bind: now.millis)
            WHERE id = \(bind: row.id)
            """).run()
    }

    // MARK: Helpers

    static let providerName = "card"

    private func refund(_ row: Row) async throws {
        let refundId = try await processor.refund(intentId: row.intentId, idempotencyKey: "waymark-refund-\(row.id)")
        let now = now()
        try await store.write { sql in
            try await sql.raw("""
                UPDATE card_payments SET state = 'refunded', refund_id = \(bind: refundId), client_secret = NULL, updated_at = \(bind: now.millis)
                WHERE id = \(bind: row.id) AND state = 'refundDue'
                """).run()
        }
    }

    private func update(_ id: String, to state: State, failure: String?, at now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE card_payments SET state = \(bind: state.rawValue), failure = \(bind: failure), updated_at = \(bind: now.millis)
            WHERE id = \(bind: id)
            """).run()
    }

    private func require(_ id: String, userId: String, sql: any SQLDatabase) async throws -> Row {
        guard let row = try await sql.raw("\(unsafeRaw: Row.select) WHERE id = \(bind: id) AND user_id = \(bind: userId)").first().map(Row.init)
        else { throw Problem.notFound("top-up") }
        return row
    }

    private static func typeName(_ kind: CardEvent.Kind) -> String {
        switch kind {
        case .succeeded: "payment_intent.succeeded"
        case .failed: "payment_intent.payment_failed"
        case .refunded: "charge.refunded"
        case .other(let type): String(type.prefix(100))
        }
    }

    /// A UUID-shaped id fixed by the person and their Idempotency-Key.
    static func stableId(userId: String, key: String) -> String {
        var bytes = Array(SHA256.hash(data: Data("\(userId) \(key)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let u = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return u.uuidString.lowercased()
    }
}
