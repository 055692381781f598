import Foundation
import Logging
import NIOConcurrencyHelpers

/// Pushes each new notification to its person's browsers (PRK-22): the same rows the inbox and
/// the live stream show, so every area that tells a person something reaches them with the app
/// closed too. A notification is claimed in the database before it is sent, so with several
/// instances it goes out once; one that waited over an hour (a server down) is not pushed late.
final class Pusher: Sendable {
    static let maxAge: TimeInterval = 3600
    /// Notifications claimed per round.
    static let batch = 200
    /// Requests in flight at once.
    static let concurrency = 8

    private let store: SQLStore
    private let transport: any PushTransport
    private let contact: String
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let serverKey = NIOLockedValueBox<VAPIDKey?>(nil)
    private let signal: AsyncStream<Void>.Continuation
    private let signals: AsyncStream<Void>

    init(store: SQLStore, transport: any PushTransport, contact: String, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.transport = transport
        self.contact = contact
        self.now = now
        self.logger = logger
        (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Reads the server's VAPID key, making it on the very first start.
    func prime() async throws {
        let now = now()
        let key = try await store.write { sql in try await PushStore.serverKey(now: now, sql: sql) }
        serverKey.withLockedValue { $0 = key }
    }

    var key: VAPIDKey? { serverKey.withLockedValue { $0 } }

    /// New notifications were read by the inbox tail: push them now.
    func poke() { signal.yield(()) }

    /// Pushes on every poke, and every few seconds for notifications other instances made.
    func run() async {
        let ticker = Task { [signal] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                signal.yield(())
            }
        }
        defer { ticker.cancel() }
        for await _ in signals {
            if Task.isCancelled { break }
            do {
                while try await pushOnce() == Self.batch {}
            } catch {
                logger.warning("push: a round failed", metadata: ["error": .string(String(describing: error))])
            }
        }
    }

    /// Claims up to one batch of notifications and pushes them; returns how many were claimed.
    @discardableResult
    func pushOnce() async throws -> Int {
        guard let key, try await PushStore.anyUnpushed(sql: store.sql) else { return 0 }
        let now = now()
        let claimed = try await store.write { sql in try await PushStore.claimUnpushed(now: now, limit: Self.batch, sql: sql) }
        let fresh = claimed.filter { now.millis - $0.createdAt <= Int64(Self.maxAge * 1000) }
        guard !fresh.isEmpty else { return claimed.count }
        let users = Array(Set(fresh.map(\.userId)))
        let subscriptions = Dictionary(grouping: try await PushStore.subscriptions(userIds: users, sql: store.sql), by: \.userId)
        let switchedOff = try await PushStore.disabledKinds(userIds: users, sql: store.sql)

        var work: [(PushSubscriptionRow, PushMessage)] = []
        for row in fresh where !(switchedOff[row.userId]?.contains(row.kind) ?? false) {
            for subscription in subscriptions[row.userId] ?? [] where (subscription.expiresAt ?? .max) > now.millis {
                do {
                    work.append((subscription, try Self.message(row, to: subscription, key: key, contact: contact, now: now)))
                } catch {
                    logger.warning("push: cannot encrypt for a subscription", metadata: ["error": .string("\(error)")])
                }
            }
        }
        let outcomes = await send(work)
        let at = self.now()
        try await store.write { sql in
            for (subscription, outcome) in outcomes {
                switch outcome {
                case .delivered: try await PushStore.delivered(subscriptionId: subscription.id, at: at, sql: sql)
                case .gone: try await PushStore.forget(subscriptionId: subscription.id, sql: sql)
                case .failed: try await PushStore.failed(subscriptionId: subscription.id, sql: sql)
                }
            }
            try await PushStore.pruneExpired(now: at, sql: sql)
        }
        for case let (subscription, .failed(why)) in outcomes {
            let host = URL(string: subscription.endpoint)?.host ?? "?"
            logger.warning("push: the push service refused a message", metadata: ["host": .string(host), "why": .string(why)])
        }
        return claimed.count
    }

    private func send(_ work: [(PushSubscriptionRow, PushMessage)]) async -> [(PushSubscriptionRow, PushOutcome)] {
        let transport = transport
        return await withTaskGroup(of: (PushSubscriptionRow, PushOutcome).self) { group in
            var results: [(PushSubscriptionRow, PushOutcome)] = []
            var next = work.makeIterator()
            for _ in 0..<Self.concurrency {
                guard let (subscription, message) = next.next() else { break }
                group.addTask { (subscription, await transport.send(message)) }
            }
            while let result = await group.next() {
                results.append(result)
                if let (subscription, message) = next.next() {
                    group.addTask { (subscription, await transport.send(message)) }
                }
            }
            return results
        }
    }

    // MARK: The message

    /// The screen a notification is about: a tap on it opens this path of the web app.
    static func screen(of row: NotificationRow) -> String {
        if row.kind == NotificationDraft.Kind.trailSuggestions.rawValue { return "/trails" }
        if let thread = row.threadId { return "/trails/messages/\(thread)" }
        if let event = row.eventId, let day = row.planDay { return "/plan/event/\(event)/\(day)" }
        if row.kind == NotificationDraft.Kind.friendRequest.rawValue || row.kind == NotificationDraft.Kind.friendAccepted.rawValue { return "/trails/friends" }
        return row.lotId.map { "/lots/\($0)" } ?? row.planDay.map { "/plan/day/\($0)" } ?? "/me/inbox"
    }

    /// What the service worker shows; dates as the API writes them.
    struct Payload: Encodable {
        var id: String
        var kind: String
        var title: String
        var body: String
        var url: String
        var createdAt: Date
    }

    static func payload(_ row: NotificationRow) throws -> Data {
        try LiveEncoding.encoder.encode(Payload(id: row.id, kind: row.kind, title: row.title, body: row.body,
                                                url: screen(of: row), createdAt: Date(millis: row.createdAt)))
    }

    static func message(_ row: NotificationRow, to subscription: PushSubscriptionRow, key: VAPIDKey,
                        contact: String, now: Date) throws -> PushMessage {
        guard let endpoint = URL(string: subscription.endpoint), let audience = VAPIDKey.audience(of: endpoint),
              let p256dh = Data(base64URL: subscription.p256dh), let auth = Data(base64URL: subscription.auth) else {
            throw WebPushEncryption.Failure.badSubscriptionKey
        }
        let body = try WebPushEncryption.encrypt(try payload(row), p256dh: p256dh, auth: auth)
        // A hold waits 10 minutes for its person: its news is urgent and stale soon after.
        let isHold = row.kind.hasPrefix("hold-")
        return PushMessage(endpoint: endpoint, headers: [
            ("TTL", isHold ? "600" : "3600"),
            ("Urgency", row.kind == NotificationDraft.Kind.holdAsking.rawValue ? "high" : "normal"),
            ("Content-Encoding", "aes128gcm"),
            ("Content-Type", "application/octet-stream"),
            ("Authorization", try key.authorization(audience: audience, subject: contact, expires: now.addingTimeInterval(12 * 3600))),
        ], body: body)
    }
}
