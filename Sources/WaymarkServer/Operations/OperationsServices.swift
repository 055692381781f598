import Foundation
import WaymarkAPI

/// The Operations area: operators and their analytics, request latencies, and what the server
/// tells about itself (its contract, its database, the settings a client needs).
struct OperationsServices: Sendable {
    let operators: Operators
    let analytics: OperatorAnalyticsService
    let activity: ActivityRecorder
    let latencies: OperationLatencies
    let databaseKind: String
    let openAPIDocument: String
    let clientConfig: Components.Schemas.ClientConfig

    init(_ env: WaymarkEnvironment, accounts: AccountsServices, openAPIDocument: String) {
        let config = env.configuration
        let zone = AnalyticsZone(store: env.store)
        operators = Operators(store: env.store, queries: accounts.queries)
        latencies = OperationLatencies()
        analytics = OperatorAnalyticsService(store: env.store, zone: zone, latencies: latencies, now: env.now)
        activity = ActivityRecorder(store: env.store, zone: zone, logger: env.logger)
        databaseKind = config.database.kind
        self.openAPIDocument = openAPIDocument
        clientConfig = .init(version: WaymarkVersion.current, tileURLTemplate: config.tileURLTemplate,
                             tileAttribution: config.tileAttribution, tileMaxZoom: config.tileMaxZoom,
                             satelliteTileURLTemplate: config.satelliteTileURLTemplate.isEmpty ? nil : config.satelliteTileURLTemplate,
                             satelliteTileAttribution: config.satelliteTileURLTemplate.isEmpty ? nil : config.satelliteTileAttribution,
                             satelliteTileMaxZoom: config.satelliteTileURLTemplate.isEmpty ? nil : config.satelliteTileMaxZoom)
    }
}

extension OperationsServices {
    /// The area's operations that need a signed-in person (`UserAuthMiddleware`).
    static let signedInOperations: Set<String> = [
        "getOperatorAnalytics",
    ]
}
