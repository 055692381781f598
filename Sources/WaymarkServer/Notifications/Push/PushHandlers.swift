import Foundation
import OpenAPIRuntime
import WaymarkAPI

extension APIHandler {
    func getPushKey(_ input: Operations.GetPushKey.Input) async throws -> Operations.GetPushKey.Output {
        .ok(.init(body: .json(.init(publicKey: try services.notifications.push.publicKey()))))
    }

    func listPushSubscriptions(_ input: Operations.ListPushSubscriptions.Input) async throws -> Operations.ListPushSubscriptions.Output {
        let me = try RequestContext.requirePrincipal()
        let rows = try await services.notifications.push.list(me)
        return .ok(.init(body: .json(.init(subscriptions: rows.map(PushMapping.subscription)))))
    }

    func createPushSubscription(_ input: Operations.CreatePushSubscription.Input) async throws -> Operations.CreatePushSubscription.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let (row, created) = try await services.notifications.push.subscribe(
            me, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, expirationTime: body.expirationTime)
        let json = PushMapping.subscription(row)
        return created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
    }

    func deletePushSubscription(_ input: Operations.DeletePushSubscription.Input) async throws -> Operations.DeletePushSubscription.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.subscriptionId) != nil else { throw Problem.notFound("push subscription") }
        try await services.notifications.push.remove(me, id: input.path.subscriptionId.lowercased())
        return .noContent(.init())
    }

    func getPushPreferences(_ input: Operations.GetPushPreferences.Input) async throws -> Operations.GetPushPreferences.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(PushMapping.preferences(try await services.notifications.push.preferences(me)))))
    }

    func setPushPreferences(_ input: Operations.SetPushPreferences.Input) async throws -> Operations.SetPushPreferences.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        guard body.kinds.count <= 50 else { throw Problem.badRequest("At most 50 changes at once (there are only a few kinds).") }
        // The contract's enum: a kind the server does not know is refused before this.
        let changes = body.kinds.compactMap { change in
            NotificationDraft.Kind(rawValue: change.kind.rawValue).map { PushSubscriptionService.Preference(kind: $0, enabled: change.enabled) }
        }
        return .ok(.init(body: .json(PushMapping.preferences(try await services.notifications.push.setPreferences(me, changes)))))
    }
}

enum PushMapping {
    static func subscription(_ row: PushSubscriptionRow) -> Components.Schemas.PushSubscription {
        .init(id: row.id, endpoint: row.endpoint, createdAt: Date(millis: row.createdAt),
              expiresAt: row.expiresAt.map(Date.init(millis:)), lastDeliveredAt: row.lastSuccessAt.map(Date.init(millis:)))
    }

    static func preferences(_ list: [PushSubscriptionService.Preference]) -> Components.Schemas.PushPreferences {
        .init(kinds: list.map {
            .init(kind: Components.Schemas.NotificationKind(rawValue: $0.kind.rawValue) ?? .lotFull,
                  label: $0.kind.pushLabel, enabled: $0.enabled)
        })
    }
}
