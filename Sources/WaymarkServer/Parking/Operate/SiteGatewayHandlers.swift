import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func listSiteGateways(_ input: Operations.ListSiteGateways.Input) async throws -> Operations.ListSiteGateways.Output {
        let me = try RequestContext.requirePrincipal()
        // Counts wait in memory for a few seconds; the last report shown is the one just made.
        try await services.parking.traffic.flush()
        let gateways = try await services.parking.siteGateways.list(me, siteId: input.path.siteId)
        return .ok(.init(body: .json(.init(gateways: gateways.map(Self.siteGateway)))))
    }

    func addSiteGateway(_ input: Operations.AddSiteGateway.Input) async throws -> Operations.AddSiteGateway.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let made = try await services.parking.siteGateways.add(me, siteId: input.path.siteId, name: body.name)
        return .created(.init(body: .json(.init(gateway: Self.siteGateway(made.gateway), secret: made.secret))))
    }

    func revokeSiteGateway(_ input: Operations.RevokeSiteGateway.Input) async throws -> Operations.RevokeSiteGateway.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.parking.siteGateways.revoke(me, siteId: input.path.siteId, gatewayId: input.path.gatewayId)
        return .noContent(.init())
    }

    func replaceSiteGatewaySecret(_ input: Operations.ReplaceSiteGatewaySecret.Input) async throws -> Operations.ReplaceSiteGatewaySecret.Output {
        let me = try RequestContext.requirePrincipal()
        let made = try await services.parking.siteGateways.replaceSecret(me, siteId: input.path.siteId, gatewayId: input.path.gatewayId)
        return .ok(.init(body: .json(.init(gateway: Self.siteGateway(made.gateway), secret: made.secret))))
    }

    static func siteGateway(_ g: SiteGateways.Listed) -> Components.Schemas.SiteGateway {
        .init(id: g.id, name: g.name, createdAt: g.createdAt, revokedAt: g.revokedAt, lastReportAt: g.lastReportAt)
    }
}
