import AsyncHTTPClient
import Foundation
import OpenAPIRuntime
import Vapor

func routes(_ app: Application, services: WaymarkServices, config: WaymarkConfiguration) throws {
    let metrics = RequestMetrics(latencies: services.operations.latencies)
    // The sensor gateways' hot path has a route of its own (PRK-2); the generated one is not registered.
    let gatewayEvents = GatewayEventsRoute(services: services, metrics: metrics, maxBytes: config.maxBodyBytes)
    gatewayEvents.register(on: app)
    // Map images through this server when they are counted (PRK-20): its own client, short
    // timeouts, no redirects followed; directions counted on their way to the maps app.
    if let usage = services.operations.mapUsage {
        let client = HTTPClient(eventLoopGroup: app.eventLoopGroup, configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10))))
        app.lifecycle.use(HTTPClientShutdown(client: client))
        TileProxyRoute(config: config, usage: usage, client: client, now: services.now).register(on: app)
        DirectionsRoute(usage: usage, now: services.now).register(on: app)
    }
    // The card processor's webhook (PRK-13), when card payments are on.
    if let card = services.accounts.cardTopUps { CardEventsRoute(service: card).register(on: app) }
    // An operator's venue archive may be far larger than any JSON body (WAY-1).
    let imports = ["importVenue": config.maxImportBytes]
    let transport = CollectingTransport(routes: app, servedElsewhere: [(GatewayEventsRoute.method, GatewayEventsRoute.path)],
                                        largeBodies: [(.put, "/v1/operator/venues", config.maxImportBytes)])
    try APIHandler(services: services).registerHandlers(
        on: transport,
        serverURL: URL(string: "/")!,
        configuration: .waymark,
        middlewares: [
            MetricsMiddleware(metrics: metrics),
            RawHeaderMiddleware(),
            ListQueryMiddleware(),
            BodyLimitMiddleware(maxBytes: config.maxBodyBytes, largeBodies: imports),
            GatewayAuthMiddleware(keys: services.parking.gateways, now: services.now),
            UserAuthMiddleware(sessions: services.accounts.sessions,
                               accountWasActive: { [activity = services.operations.activity] in await activity.record(userId: $0, at: $1) },
                               now: services.now),
            MetricsAccessMiddleware(token: config.metricsToken, sessions: services.accounts.sessions,
                                    operators: services.operations.operators, now: services.now),
            GatewayBodyMiddleware(maxBytes: config.maxBodyBytes),
            OptionalNullMiddleware(fields: APIHandler.optionalBodyFields, maxBytes: config.maxBodyBytes),
            OccupancyResponseMiddleware(live: services.parking.live, queries: services.parking.queries, json: OccupancyJSON(), now: services.now),
        ])
}
