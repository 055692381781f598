import Foundation
import OpenAPIRuntime
import SQLKit
import WaymarkAPI

extension APIHandler {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok, version: WaymarkVersion.current))))
    }

    func getReady(_ input: Operations.GetReady.Input) async throws -> Operations.GetReady.Output {
        do {
            _ = try await services.store.sql.raw("SELECT 1 AS one").first()
        } catch {
            throw Problem.unavailable("The database does not answer.")
        }
        return .ok(.init(body: .json(.init(
            status: .ok, version: WaymarkVersion.current, database: .init(rawValue: services.operations.databaseKind)))))
    }

    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        ServerMetrics.setLiveSubscribers(services.parking.live.subscriberCount)
        return .ok(.init(body: .plainText(HTTPBody(ServerMetrics.exposition()))))
    }

    func getClientConfig(_ input: Operations.GetClientConfig.Input) async throws -> Operations.GetClientConfig.Output {
        var config = services.operations.clientConfig
        if let usage = services.operations.mapUsage, usage.tileDailyLimit != nil {
            config.mapImagesPaused = try await usage.isSpent(at: services.now())
        }
        return .ok(.init(body: .json(config)))
    }

    func getOpenAPIDocument(_ input: Operations.GetOpenAPIDocument.Input) async throws -> Operations.GetOpenAPIDocument.Output {
        .ok(.init(body: .yaml(HTTPBody(services.operations.openAPIDocument))))
    }
}

public enum WaymarkVersion {
    public static let current = "0.1.0"
}
