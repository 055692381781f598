import Foundation
import OpenAPIRuntime
import WaymarkAPI

extension APIHandler {
    func listNotifications(_ input: Operations.ListNotifications.Input) async throws -> Operations.ListNotifications.Output {
        let me = try RequestContext.requirePrincipal()
        let page = try await services.notifications.inbox.list(me, before: input.query.before, limit: input.query.limit ?? 50)
        return .ok(.init(body: .json(.init(notifications: page.rows.map(NotificationMapping.notification),
                                           unreadCount: page.unreadCount, nextBefore: page.nextBefore))))
    }

    func markNotificationRead(_ input: Operations.MarkNotificationRead.Input) async throws -> Operations.MarkNotificationRead.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.notificationId) != nil else { throw Problem.notFound("notification") }
        let row = try await services.notifications.inbox.markRead(me, id: input.path.notificationId.lowercased())
        return .ok(.init(body: .json(NotificationMapping.notification(row))))
    }

    func markAllNotificationsRead(_ input: Operations.MarkAllNotificationsRead.Input) async throws -> Operations.MarkAllNotificationsRead.Output {
        try await services.notifications.inbox.markAllRead(try RequestContext.requirePrincipal())
        return .noContent(.init())
    }

    func deleteNotification(_ input: Operations.DeleteNotification.Input) async throws -> Operations.DeleteNotification.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.notificationId) != nil else { throw Problem.notFound("notification") }
        try await services.notifications.inbox.delete(me, id: input.path.notificationId.lowercased())
        return .noContent(.init())
    }

    func listWatches(_ input: Operations.ListWatches.Input) async throws -> Operations.ListWatches.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(.init(watches: try await services.notifications.watches.list(me).map(NotificationMapping.watch)))))
    }

    func watchLot(_ input: Operations.WatchLot.Input) async throws -> Operations.WatchLot.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.lotId) != nil else { throw Problem.notFound("lot") }
        return .ok(.init(body: .json(NotificationMapping.watch(try await services.notifications.watches.watch(me, lotId: input.path.lotId.lowercased())))))
    }

    func unwatchLot(_ input: Operations.UnwatchLot.Input) async throws -> Operations.UnwatchLot.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.lotId) != nil else { throw Problem.notFound("lot") }
        try await services.notifications.watches.unwatch(me, lotId: input.path.lotId.lowercased())
        return .noContent(.init())
    }

    /// New notifications as Server-Sent Events. The stream starts at Last-Event-ID, or for a
    /// fresh stream at the newest notification in the table, read before subscribing. Then,
    /// as `streamSiteLive` does: subscribe, replay from the table up to the subscription's
    /// cursor, and pass on what the hub delivers after it. Together they cover every
    /// notification after the start exactly once. (Reading the start after subscribing would
    /// lose one made in between: it would count as already seen.)
    func streamNotifications(_ input: Operations.StreamNotifications.Input) async throws -> Operations.StreamNotifications.Output {
        let me = try RequestContext.requirePrincipal()
        let resumeFrom = input.headers.lastEventID.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
        let inbox = services.notifications.inbox, store = services.store
        let start = if let resumeFrom { resumeFrom } else { try await NotificationStore.lastSeq(sql: store.sql) }
        let (cursor, frames) = services.notifications.hub.subscribe(topic: me.userId)
        // The hub may be behind the start (it has not polled yet): what the client has seen,
        // or what was made before a fresh stream opened, is not sent again.
        let body = EventStream.body(frames: frames, buffer: NotificationHub.notificationBuffer, skipThrough: start) {
            guard start < cursor, let missed = try? await inbox.after(me, seq: start) else { return [] }
            return missed.filter { $0.seq <= cursor }.map { NotificationMapping.frame(seq: $0.seq, NotificationMapping.notification($0)) }
        }
        return .ok(.init(body: .textEventStream(body)))
    }
}

enum NotificationMapping {
    static func notification(_ n: NotificationRow) -> Components.Schemas.Notification {
        .init(id: n.id, sequence: n.seq,
              kind: Components.Schemas.NotificationKind(rawValue: n.kind) ?? .lotFull,
              title: n.title, body: n.body, lotId: n.lotId, bookingId: n.bookingId, holdId: n.holdId, planDay: n.planDay, threadId: n.threadId, eventId: n.eventId,
              createdAt: Date(millis: n.createdAt), read: n.readAt != nil, readAt: n.readAt.map(Date.init(millis:)))
    }

    static func watch(_ w: WatchService.WatchRow) -> Components.Schemas.LotWatch {
        .init(lotId: w.lotId, siteId: w.siteId, code: w.code, name: w.name, createdAt: Date(millis: w.createdAt))
    }

    static func frame(seq: Int64, _ n: Components.Schemas.Notification) -> [UInt8] {
        let json = (try? LiveEncoding.encode(n)) ?? "{}"
        return Array("id: \(seq)\nevent: notification\ndata: \(json)\n\n".utf8)
    }
}
