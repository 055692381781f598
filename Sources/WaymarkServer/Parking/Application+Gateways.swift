import Foundation
import Vapor

public struct GatewayListing: Sendable {
    public var name: String
    /// The code of the site it reports for; nil when it may report for any.
    public var siteCode: String?
    public var createdAt: Date
    public var revoked: Bool
}

/// Gateway administration for the command line and tests.
extension Application {
    /// Creates a gateway for the site with code `siteCode` (nil: any site), or replaces the
    /// secret of the active one with that name there, and returns its secret.
    public func createGateway(name: String, siteCode: String? = nil) async throws -> String {
        let s = waymark
        return try await s.parking.gateways.create(name: name, siteId: try await siteId(code: siteCode), now: s.now()).secret
    }

    public func revokeGateway(name: String, siteCode: String? = nil) async throws -> Bool {
        let s = waymark
        return try await s.parking.gateways.revoke(name: name, siteId: try await siteId(code: siteCode), now: s.now())
    }

    public func listGateways() async throws -> [GatewayListing] {
        let codes = Dictionary(uniqueKeysWithValues: try await waymark.parking.queries.sites().map { ($0.id, $0.code) })
        return try await waymark.parking.gateways.list().map {
            GatewayListing(name: $0.name, siteCode: $0.siteId.flatMap { codes[$0] }, createdAt: Date(millis: $0.createdAt), revoked: $0.revokedAt != nil)
        }
    }

    private func siteId(code: String?) async throws -> String? {
        guard let code else { return nil }
        guard let site = try await waymark.parking.queries.site(code: code) else {
            throw GatewayCommandError.unknownSite(code)
        }
        return site.id
    }
}

public enum GatewayCommandError: Error, CustomStringConvertible {
    case unknownSite(String)

    public var description: String {
        switch self {
        case .unknownSite(let code): "No site has the code '\(code)'; 'waymark import site' prints the codes it adds."
        }
    }
}
