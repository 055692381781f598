import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func createHold(_ input: Operations.CreateHold.Input) async throws -> Operations.CreateHold.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: body.spotId) != nil else { throw Problem.notFound("spot") }
        let hold = try await services.parking.holds.create(me, spotId: body.spotId.lowercased())
        return .created(.init(body: .json(HoldMapping.hold(hold))))
    }

    func listHolds(_ input: Operations.ListHolds.Input) async throws -> Operations.ListHolds.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(.init(holds: try await services.parking.holds.list(me).map(HoldMapping.hold)))))
    }

    func getHold(_ input: Operations.GetHold.Input) async throws -> Operations.GetHold.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.holdId) != nil else { throw Problem.notFound("hold") }
        return .ok(.init(body: .json(HoldMapping.hold(try await services.parking.holds.get(me, id: input.path.holdId.lowercased())))))
    }

    func cancelHold(_ input: Operations.CancelHold.Input) async throws -> Operations.CancelHold.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.holdId) != nil else { throw Problem.notFound("hold") }
        return .ok(.init(body: .json(HoldMapping.hold(try await services.parking.holds.cancel(me, id: input.path.holdId.lowercased())))))
    }

    func answerHold(_ input: Operations.AnswerHold.Input) async throws -> Operations.AnswerHold.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.holdId) != nil else { throw Problem.notFound("hold") }
        let result = try await services.parking.holds.answer(me, id: input.path.holdId.lowercased(), wasMe: body.wasMe)
        // The sensor saw the car and its driver says it is theirs: that is an arrival (PRK-12).
        let checkedIn = body.wasMe ? try await services.parking.bookings.checkInArrival(userId: me.userId, lotId: result.answered.lotId) : nil
        return .ok(.init(body: .json(.init(answered: HoldMapping.hold(result.answered), next: result.next.map(HoldMapping.hold),
                                           checkedIn: checkedIn.map(BookingMapping.booking)))))
    }
}

enum HoldMapping {
    static func hold(_ h: HoldRow) -> Components.Schemas.Hold {
        let status: Components.Schemas.Hold.StatusPayload = switch h.status {
        case .active: .active
        case .asking: .asking
        case .ended: .ended
        }
        return .init(
            id: h.id, spotId: h.spotId, lotId: h.lotId, siteId: h.siteId, ordinal: h.ordinal, label: h.label, level: h.level,
            spotCenter: .init(latitude: h.center.latitude, longitude: h.center.longitude),
            lotCode: h.lotCode, lotName: h.lotName,
            createdAt: Date(millis: h.createdAt), expiresAt: Date(millis: h.expiresAt), status: status,
            outcome: h.outcome.flatMap(Components.Schemas.Hold.OutcomePayload.init(rawValue:)),
            endedAt: h.endedAt.map(Date.init(millis:)), askedAt: h.askedAt.map(Date.init(millis:)),
            movedTo: h.movedTo, permitWarning: h.permitWarning,
            directions: .init(appleMaps: MapsLinks.appleMaps(to: h.center), googleMaps: MapsLinks.googleMaps(to: h.center)))
    }
}
