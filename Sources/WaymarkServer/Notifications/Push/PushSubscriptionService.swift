import Crypto
import Foundation

/// A person's browsers that may be pushed to, and the kinds they want pushed (PRK-22).
struct PushSubscriptionService: Sendable {
    let store: SQLStore
    let pusher: Pusher
    let allowedHosts: [String]
    let now: @Sendable () -> Date

    struct Preference: Sendable, Equatable {
        var kind: NotificationDraft.Kind
        var enabled: Bool
    }

    func publicKey() throws -> String {
        guard let key = pusher.key else { throw Problem.unavailable("Push notifications are starting; try again in a moment.") }
        return key.publicKey
    }

    /// Adds a browser's subscription (what `PushSubscription.toJSON()` gives); an endpoint
    /// already known moves to this person with its new keys.
    func subscribe(_ me: Principal, endpoint: String, p256dh: String, auth: String,
                   expirationTime: Int64?) async throws -> (PushSubscriptionRow, created: Bool) {
        let endpoint = try checkedEndpoint(endpoint)
        guard let key = Data(base64URL: p256dh), key.count == 65, key.first == 0x04,
              (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil else {
            throw Problem.badRequest("`keys.p256dh` must be the browser's P-256 public key: 65 bytes, uncompressed, in base64url.")
        }
        guard let secret = Data(base64URL: auth), secret.count == 16 else {
            throw Problem.badRequest("`keys.auth` must be the browser's 16-byte authentication secret in base64url.")
        }
        let now = now()
        if let expirationTime, expirationTime <= now.millis {
            throw Problem.badRequest("`expirationTime` has passed: this subscription has already expired.")
        }
        return try await store.write { sql in
            try await PushStore.upsert(userId: me.userId, endpoint: endpoint, p256dh: key.base64URL, auth: secret.base64URL,
                                       expiresAt: expirationTime, now: now, sql: sql)
        }
    }

    func list(_ me: Principal) async throws -> [PushSubscriptionRow] {
        try await PushStore.subscriptions(userIds: [me.userId], sql: store.sql)
    }

    func remove(_ me: Principal, id: String) async throws {
        let removed = try await store.write { sql in try await PushStore.delete(id: id, userId: me.userId, sql: sql) }
        guard removed else { throw Problem.notFound("push subscription") }
    }

    func preferences(_ me: Principal) async throws -> [Preference] {
        let off = try await PushStore.disabledKinds(userIds: [me.userId], sql: store.sql)[me.userId] ?? []
        return NotificationDraft.Kind.allCases.map { Preference(kind: $0, enabled: !off.contains($0.rawValue)) }
    }

    func setPreferences(_ me: Principal, _ changes: [Preference]) async throws -> [Preference] {
        let rows = changes.map { (kind: $0.kind.rawValue, enabled: $0.enabled) }
        try await store.write { sql in try await PushStore.setPreferences(userId: me.userId, rows, sql: sql) }
        return try await preferences(me)
    }

    /// The endpoint, when it is a push service's: the server will post to it, so an address
    /// inside the network, or anybody's server, is refused.
    func checkedEndpoint(_ text: String) throws -> String {
        guard text.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              let host = url.host?.lowercased(), !host.isEmpty, url.user == nil, url.password == nil else {
            throw Problem.badRequest("`endpoint` must be the push service URL the browser gave.")
        }
        let allowed = allowedHosts.contains { entry in
            entry.hasPrefix(".") ? host.hasSuffix(entry) : host == entry
        }
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
        guard allowed, scheme == "https" || (scheme == "http" && loopback) else {
            throw Problem(type: "push-endpoint-not-allowed", title: "That push service is not allowed", status: 422,
                          detail: "Waymark sends push notifications only to the browsers' push services (\(host) is not one).")
        }
        return text
    }
}

extension NotificationDraft.Kind {
    /// How a person choosing what to be told about reads the kind.
    var pushLabel: String {
        switch self {
        case .holdAsking: "Someone parked on a spot you hold"
        case .holdMoved: "Your hold moved to another spot"
        case .holdExpired: "Your hold ended"
        case .lotAlmostFull: "A lot you watch is almost full"
        case .lotFull: "A lot you watch is full"
        case .spaceFreed: "A booked space was freed in a lot you watch"
        case .bookingCancelled: "A lot closed on dates you booked: your booking was cancelled"
        case .planUnreachable: "An event in your plan cannot be reached in time"
        case .trailSuggestions: "Trails to try, every Thursday"
        case .friendRequest: "Someone asks to be your friend"
        case .friendAccepted: "Someone accepted your friend request"
        case .message: "New messages from friends"
        case .timeToLeave: "Time to leave for an event"
        }
    }
}
