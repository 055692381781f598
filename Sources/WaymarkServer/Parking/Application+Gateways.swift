import Foundation
import Vapor

public struct GatewayListing: Sendable {
    public var name: String
    public var createdAt: Date
    public var revoked: Bool
}

/// Gateway administration for the command line and tests.
extension Application {
    /// Creates a gateway (replacing the secret of one with that name) and returns its secret.
    public func createGateway(name: String) async throws -> String {
        let s = waymark
        return try await s.parking.gateways.create(name: name, now: s.now()).secret
    }

    public func revokeGateway(name: String) async throws -> Bool {
        let s = waymark
        return try await s.parking.gateways.revoke(name: name, now: s.now())
    }

    public func listGateways() async throws -> [GatewayListing] {
        try await waymark.parking.gateways.list().map {
            GatewayListing(name: $0.name, createdAt: Date(millis: $0.createdAt), revoked: $0.revokedAt != nil)
        }
    }
}
