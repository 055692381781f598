import Foundation
import OpenAPIRuntime
import Vapor

func routes(_ app: Application, services: WaymarkServices, config: WaymarkConfiguration) throws {
    let transport = CollectingTransport(routes: app)
    try APIHandler(services: services).registerHandlers(
        on: transport,
        serverURL: URL(string: "/")!,
        configuration: .waymark,
        middlewares: [
            MetricsMiddleware(latencies: services.latencies),
            RawHeaderMiddleware(),
            BodyLimitMiddleware(maxBytes: config.maxBodyBytes),
            GatewayAuthMiddleware(keys: services.gateways, now: services.now),
            UserAuthMiddleware(sessions: services.sessions, activity: services.activity, now: services.now),
            GatewayBodyMiddleware(maxBytes: config.maxBodyBytes),
            OptionalNullMiddleware(maxBytes: config.maxBodyBytes),
            OccupancyResponseMiddleware(live: services.live, queries: services.parking, json: OccupancyJSON(), now: services.now),
        ])
}
