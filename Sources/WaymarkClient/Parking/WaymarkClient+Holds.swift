import Foundation
import WaymarkAPI
import WaymarkCore

/// Soft holds (PRK-9, PRK-10). A refused hold throws `WaymarkClientError` with
/// `problemKind == "spot-not-free"`: someone else was first.
extension WaymarkClient {
    /// Holds a free spot for 10 minutes. Holding another spot ends an earlier hold.
    public func hold(spotId: String) async throws -> Components.Schemas.Hold {
        let output = try await call { try await client.createHold(body: .json(.init(spotId: spotId))) }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    /// The current hold first, then recent ended ones.
    public func holds() async throws -> [Components.Schemas.Hold] {
        let output = try await call { try await client.listHolds() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.holds
    }

    /// Poll this while driving (SpotMe 7.2 polls every 10 s): `asking` means someone parked on the spot.
    public func hold(id: String) async throws -> Components.Schemas.Hold {
        let output = try await call { try await client.getHold(path: .init(holdId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    @discardableResult
    public func cancelHold(id: String) async throws -> Components.Schemas.Hold {
        let output = try await call { try await client.cancelHold(path: .init(holdId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// "Was it you?" Yes ends the hold, and checks in your booking in that lot when its check-in
    /// is open (`checkedIn`, PRK-12); no returns the hold on the nearest spot you may use, if any.
    public func answerHold(id: String, wasMe: Bool) async throws
        -> (answered: Components.Schemas.Hold, next: Components.Schemas.Hold?, checkedIn: Booking?) {
        let output = try await call { try await client.answerHold(path: .init(holdId: id), body: .json(.init(wasMe: wasMe))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let result = try ok.body.json
        return (result.answered, result.next, result.checkedIn)
    }
}
