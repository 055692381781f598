import Foundation
import OpenAPIRuntime
import WaymarkAPI

/// Scavenger hunts (TRL-10): an easy or moderate trail's focal points, each ticked when the
/// hiker finds it; progress is kept per person and trail. Hard trails and trails without focal
/// points have none (404 `no-scavenger-hunt`).
extension WaymarkClient {
    public typealias ScavengerHunt = Components.Schemas.ScavengerHunt

    public func scavengerHunt(trailId: String) async throws -> ScavengerHunt {
        let output = try await call { try await client.getMyScavengerHunt(path: .init(trailId: trailId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Ticks a focal point as found, or unticks it; answers the hunt as it is now.
    @discardableResult
    public func markScavengerFind(trailId: String, pointId: String, found: Bool) async throws -> ScavengerHunt {
        let output = try await call {
            try await client.markScavengerFind(path: .init(trailId: trailId, pointId: pointId), body: .json(.init(found: found)))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }
}
