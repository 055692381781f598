import Foundation
import Logging
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
    /// Counts the map images handed out (PRK-20); nil when the server does not proxy them.
    let mapUsage: MapUsage?

    init(_ env: WaymarkEnvironment, accounts: AccountsServices, openAPIDocument: String) {
        let config = env.configuration
        let zone = AnalyticsZone(store: env.store)
        operators = Operators(store: env.store, queries: accounts.queries)
        latencies = OperationLatencies()
        analytics = OperatorAnalyticsService(store: env.store, zone: zone, latencies: latencies, now: env.now)
        activity = ActivityRecorder(store: env.store, zone: zone, logger: env.logger)
        databaseKind = config.database.kind
        self.openAPIDocument = openAPIDocument
        mapUsage = config.proxiesTiles ? MapUsage(store: env.store, zone: zone, tileDailyLimit: config.mapTileDailyLimit) : nil
        // Counted images come through this server; an empty template (no base map) stays empty.
        let proxied = { (template: String, style: String) in config.proxiesTiles && !template.isEmpty ? TileProxyRoute.clientTemplate(style) : template }
        clientConfig = .init(version: WaymarkVersion.current, tileURLTemplate: proxied(config.tileURLTemplate, "default"),
                             tileAttribution: config.tileAttribution, tileMaxZoom: config.tileMaxZoom,
                             satelliteTileURLTemplate: config.satelliteTileURLTemplate.isEmpty ? nil : proxied(config.satelliteTileURLTemplate, "satellite"),
                             satelliteTileAttribution: config.satelliteTileURLTemplate.isEmpty ? nil : config.satelliteTileAttribution,
                             satelliteTileMaxZoom: config.satelliteTileURLTemplate.isEmpty ? nil : config.satelliteTileMaxZoom,
                             mapUsageCounted: config.proxiesTiles ? true : nil)
    }
}

extension OperationsServices {
    /// Writes the map usage counted in memory every few seconds, when it is counted.
    func start(_ background: BackgroundTasks, logger: Logger) {
        guard let mapUsage else { return }
        background.start { await mapUsage.run(logger: logger) }
    }

    /// The area's operations that need a signed-in person (`UserAuthMiddleware`).
    static let signedInOperations: Set<String> = [
        "getOperatorAnalytics",
    ]
}
