import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func listOperatedSites(_ input: Operations.ListOperatedSites.Input) async throws -> Operations.ListOperatedSites.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(.init(sites: try await services.parking.siteOperators.sites(of: me.userId).map { try ParkingMapping.site($0) }))))
    }

    func listSiteOperators(_ input: Operations.ListSiteOperators.Input) async throws -> Operations.ListSiteOperators.Output {
        let me = try RequestContext.requirePrincipal()
        let operators = services.parking.siteOperators
        try await operators.require(me, siteId: input.path.siteId)
        return .ok(.init(body: .json(.init(operators: try await operators.list(siteId: input.path.siteId).map(OperateMapping.operatorListing)))))
    }

    func grantSiteOperator(_ input: Operations.GrantSiteOperator.Input) async throws -> Operations.GrantSiteOperator.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let operators = services.parking.siteOperators
        try await operators.require(me, siteId: input.path.siteId)
        guard !body.login.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem.badRequest("login is a username or an email address, without control characters.")
        }
        guard let granted = try await operators.grant(siteId: input.path.siteId, login: body.login, by: me.userId, now: services.now()) else {
            throw Problem(type: "account-not-found", title: "No such account", status: 404,
                          detail: "No account has the username or email address '\(body.login)'; ask them to register first.")
        }
        return .created(.init(body: .json(OperateMapping.operatorListing(granted))))
    }

    func revokeSiteOperator(_ input: Operations.RevokeSiteOperator.Input) async throws -> Operations.RevokeSiteOperator.Output {
        let me = try RequestContext.requirePrincipal()
        let operators = services.parking.siteOperators
        try await operators.require(me, siteId: input.path.siteId)
        guard try await operators.revoke(siteId: input.path.siteId, userId: input.path.userId, by: me.userId, now: services.now()) else {
            throw Problem.notFound("operator of this site")
        }
        return .noContent(.init())
    }

    func listOperatorChanges(_ input: Operations.ListOperatorChanges.Input) async throws -> Operations.ListOperatorChanges.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.parking.siteOperators.require(me, siteId: input.path.siteId)
        let limit = input.query.limit ?? 100
        guard (1...500).contains(limit) else { throw Problem.badRequest("limit must be 1 to 500.") }
        let changes = try await OperatorChanges.list(siteId: input.path.siteId, limit: limit, sql: services.store.sql)
        return .ok(.init(body: .json(.init(changes: changes.map(OperateMapping.change)))))
    }

    func getLotSettings(_ input: Operations.GetLotSettings.Input) async throws -> Operations.GetLotSettings.Output {
        let me = try RequestContext.requirePrincipal()
        let (_, settings) = try await services.parking.operate.settings(me, lotId: input.path.lotId)
        let body = try JSONDecoder().decode(Components.Schemas.LotSettings.self, from: SiteFileWriter.settings(settings))
        return .ok(.init(body: .json(body)))
    }

    func updateLotSettings(_ input: Operations.UpdateLotSettings.Input) async throws -> Operations.UpdateLotSettings.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let lot = try await services.parking.operate.updateSettings(me, lotId: input.path.lotId, json: try JSONEncoder().encode(body))
        return .ok(.init(body: .json(try ParkingMapping.lot(lot, rating: try await services.parking.reviews.summary(lotId: lot.id)))))
    }

    func setSitePermits(_ input: Operations.SetSitePermits.Input) async throws -> Operations.SetSitePermits.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let site = try await services.parking.operate.setPermits(me, siteId: input.path.siteId, json: try JSONEncoder().encode(body.permits))
        return .ok(.init(body: .json(try ParkingMapping.site(site))))
    }

    func setSpotOpening(_ input: Operations.SetSpotOpening.Input) async throws -> Operations.SetSpotOpening.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let done = try await services.parking.operate.setOpen(me, spotId: input.path.spotId, open: body.open)
        return .ok(.init(body: .json(.init(spotId: done.spotId, state: .init(rawValue: String(done.state.rawValue)) ?? .u, lot: done.lot))))
    }

    func listLotClosures(_ input: Operations.ListLotClosures.Input) async throws -> Operations.ListLotClosures.Output {
        let closures = try await services.parking.operate.closures(lotId: input.path.lotId)
        return .ok(.init(body: .json(.init(closures: closures.map(OperateMapping.closure)))))
    }

    func addLotClosure(_ input: Operations.AddLotClosure.Input) async throws -> Operations.AddLotClosure.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let added = try await services.parking.operate.addClosure(me, lotId: input.path.lotId, range: BookingRange(start: body.start, end: body.end),
                                                                  reason: body.reason)
        return .created(.init(body: .json(.init(closure: OperateMapping.closure(added.closure), cancelledBookings: added.cancelledBookings))))
    }

    func liftLotClosure(_ input: Operations.LiftLotClosure.Input) async throws -> Operations.LiftLotClosure.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.parking.operate.liftClosure(me, lotId: input.path.lotId, closureId: input.path.closureId)
        return .noContent(.init())
    }
}

enum OperateMapping {
    static func closure(_ c: LotClosure) -> Components.Schemas.LotClosure {
        .init(id: c.id, lotId: c.lotId, start: c.range.start, end: c.range.end, reason: c.reason)
    }

    static func operatorListing(_ o: SiteOperators.Listing) -> Components.Schemas.SiteOperator {
        .init(userId: o.userId, name: o.name, grantedAt: o.grantedAt, grantedBy: o.grantedBy)
    }

    static func change(_ c: OperatorChanges.Listed) -> Components.Schemas.OperatorChange {
        .init(id: c.id, at: c.at, lotId: c.lotId, lotName: c.lotName, by: c.by,
              action: .init(rawValue: c.action.rawValue) ?? .lotSettings, summary: c.summary)
    }
}
