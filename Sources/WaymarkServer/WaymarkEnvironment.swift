import Foundation
import Logging

/// What every area's services are made from: the database and its writer lane, the clock,
/// the logger, the ways out (mail, payments, push) and the configuration. Made once in `configure`;
/// tests make it with their own clock and configuration.
struct WaymarkEnvironment: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date
    let logger: Logger
    /// Nil when no SMTP host is configured: what needs mail answers 503.
    let mailer: (any Mailer)?
    /// Nil until a payment provider is configured: top-ups answer 503.
    let payments: (any PaymentProvider)?
    /// The card processor, when its keys are configured: top-ups are then paid by card and
    /// credited when its webhook says so (`CardTopUpService`).
    let card: (any CardProcessor)?
    /// The browsers' push services (PRK-22).
    let push: any PushTransport
    let configuration: WaymarkConfiguration

    /// How often a live tail reads its table when nothing local pokes it: other instances'
    /// commits reach this one within this time.
    var livePollInterval: Duration { store.isPostgres ? .milliseconds(100) : .milliseconds(500) }
}
