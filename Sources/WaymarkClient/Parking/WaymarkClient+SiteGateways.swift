import Foundation
import OpenAPIRuntime
import WaymarkAPI

public typealias SiteGateway = Components.Schemas.SiteGateway

/// The gateways an operator makes for their site (PRK-1). A secret is in the answer that made
/// it and nowhere else; keep it for the gateway's configuration.
extension WaymarkClient {
    /// Active ones first, each with its last report for the site.
    public func siteGateways(siteId: String) async throws -> [SiteGateway] {
        let output = try await call { try await client.listSiteGateways(path: .init(siteId: siteId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.gateways
    }

    public func addSiteGateway(siteId: String, name: String) async throws -> (gateway: SiteGateway, secret: String) {
        let output = try await call { try await client.addSiteGateway(path: .init(siteId: siteId), body: .json(.init(name: name))) }
        guard case .created(let created) = output else { throw Self.unexpected }
        let body = try created.body.json
        return (body.gateway, body.secret)
    }

    /// The old secret stops working at once.
    public func replaceSiteGatewaySecret(siteId: String, gatewayId: String) async throws -> (gateway: SiteGateway, secret: String) {
        let output = try await call { try await client.replaceSiteGatewaySecret(path: .init(siteId: siteId, gatewayId: gatewayId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.gateway, body.secret)
    }

    public func revokeSiteGateway(siteId: String, gatewayId: String) async throws {
        let output = try await call { try await client.revokeSiteGateway(path: .init(siteId: siteId, gatewayId: gatewayId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }
}
