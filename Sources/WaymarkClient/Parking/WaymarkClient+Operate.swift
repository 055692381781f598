import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

public typealias SiteOperator = Components.Schemas.SiteOperator
public typealias OperatorChange = Components.Schemas.OperatorChange
public typealias SpotOpening = Components.Schemas.SpotOpening
public typealias LotClosureListing = Components.Schemas.LotClosure

/// What an operator of a site does (PRK-1): settings of its lots, spots closed and opened, who
/// else runs the site, and the record of every change. Another site's answer 403s.
extension WaymarkClient {
    /// The sites you run, by name.
    public func operatedSites() async throws -> [Components.Schemas.Site] {
        let output = try await call { try await client.listOperatedSites() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.sites
    }

    public func lot(lotId: String) async throws -> Components.Schemas.Lot {
        let output = try await call { try await client.getLot(path: .init(lotId: lotId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// A lot's settings as `LotSettings`, read from the site file's words by the same rules.
    public func lotSettings(lotId: String) async throws -> LotSettings {
        let output = try await call { try await client.getLotSettings(path: .init(lotId: lotId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let lot = try await self.lot(lotId: lotId)
        let read = SiteImport.lotSettings(try JSONEncoder().encode(try ok.body.json), capacity: lot.capacity, sitePermits: nil, source: "The server's settings")
        guard let settings = read.settings else { throw Self.unexpected }
        return settings
    }

    /// Replaces the lot's settings; answers the lot as drivers now see it.
    @discardableResult
    public func updateLotSettings(lotId: String, _ settings: LotSettings) async throws -> Components.Schemas.Lot {
        let body = try JSONDecoder().decode(Components.Schemas.LotSettings.self, from: SiteFileWriter.settings(settings))
        let output = try await call { try await client.updateLotSettings(path: .init(lotId: lotId), body: .json(body)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Replaces the permits a site issues, in the order drivers see them; answers the site as
    /// drivers now see it. A permit a lot's rules still require cannot be left out (409).
    @discardableResult
    public func setSitePermits(siteId: String, _ kinds: [PermitKind]) async throws -> Components.Schemas.Site {
        let body = Components.Schemas.SitePermitsInput(permits: kinds.map { .init(code: $0.code.rawValue, name: $0.name, colour: $0.colour) })
        let output = try await call { try await client.setSitePermits(path: .init(siteId: siteId), body: .json(body)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Closes a spot (`open: false`) or opens it again.
    @discardableResult
    public func setSpot(_ spotId: String, open: Bool) async throws -> SpotOpening {
        let output = try await call { try await client.setSpotOpening(path: .init(spotId: spotId), body: .json(.init(open: open))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// The dates a lot is closed on from now on; no sign-in needed.
    public func lotClosures(lotId: String) async throws -> [LotClosureListing] {
        let output = try await call { try await client.listLotClosures(path: .init(lotId: lotId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.closures
    }

    /// Closes the lot from `start` to `end` (whole minutes); answers the closure and how many
    /// bookings it cancelled and refunded.
    public func closeLot(lotId: String, from start: Date, to end: Date, reason: String) async throws -> (closure: LotClosureListing, cancelledBookings: Int) {
        let output = try await call {
            try await client.addLotClosure(path: .init(lotId: lotId), body: .json(.init(start: start, end: end, reason: reason)))
        }
        guard case .created(let created) = output else { throw Self.unexpected }
        let body = try created.body.json
        return (body.closure, body.cancelledBookings)
    }

    public func liftLotClosure(lotId: String, closureId: String) async throws {
        let output = try await call { try await client.liftLotClosure(path: .init(lotId: lotId, closureId: closureId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    public func siteOperators(siteId: String) async throws -> [SiteOperator] {
        let output = try await call { try await client.listSiteOperators(path: .init(siteId: siteId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.operators
    }

    /// By username or email address.
    @discardableResult
    public func grantSiteOperator(siteId: String, login: String) async throws -> SiteOperator {
        let output = try await call { try await client.grantSiteOperator(path: .init(siteId: siteId), body: .json(.init(login: login))) }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    public func revokeSiteOperator(siteId: String, userId: String) async throws {
        let output = try await call { try await client.revokeSiteOperator(path: .init(siteId: siteId, userId: userId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Newest first.
    public func operatorChanges(siteId: String, limit: Int? = nil) async throws -> [OperatorChange] {
        let output = try await call { try await client.listOperatorChanges(path: .init(siteId: siteId), query: .init(limit: limit)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.changes
    }
}
