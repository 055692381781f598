import Foundation
import OpenAPIRuntime
import WaymarkAPI

public typealias WaymarkNotification = Components.Schemas.Notification
public typealias LotWatch = Components.Schemas.LotWatch

/// The inbox and watched lots (PRK-15): "almost full" and "full" for lots you watch, a booked
/// space freed by a no-show, and what happens to your holds. Needs a session (a device identity
/// will do).
extension WaymarkClient {
    public struct NotificationPage: Sendable {
        public var notifications: [WaymarkNotification]
        public var unreadCount: Int
        /// Pass as `before` for the next page; nil on the last.
        public var nextBefore: Int64?
    }

    /// Newest first.
    public func notifications(before: Int64? = nil, limit: Int? = nil) async throws -> NotificationPage {
        let output = try await call { try await client.listNotifications(query: .init(before: before, limit: limit)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let list = try ok.body.json
        return NotificationPage(notifications: list.notifications, unreadCount: list.unreadCount, nextBefore: list.nextBefore)
    }

    @discardableResult
    public func markNotificationRead(id: String) async throws -> WaymarkNotification {
        let output = try await call { try await client.markNotificationRead(path: .init(notificationId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func markAllNotificationsRead() async throws {
        let output = try await call { try await client.markAllNotificationsRead() }
        guard case .noContent = output else { throw Self.unexpected }
    }

    public func deleteNotification(id: String) async throws {
        let output = try await call { try await client.deleteNotification(path: .init(notificationId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    public func watches() async throws -> [LotWatch] {
        let output = try await call { try await client.listWatches() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.watches
    }

    @discardableResult
    public func watch(lotId: String) async throws -> LotWatch {
        let output = try await call { try await client.watchLot(path: .init(lotId: lotId)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func unwatch(lotId: String) async throws {
        let output = try await call { try await client.unwatchLot(path: .init(lotId: lotId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Your new notifications as they are made. Reconnects by itself after a dropped connection
    /// and gets the ones made meanwhile, so none is missed or repeated. Finishes with
    /// `WaymarkClientError` when the session is not valid; ends when the consuming task is
    /// cancelled.
    ///
    /// `sequence`: start after this notification instead of at the moment the stream connects,
    /// e.g. after the newest one of an inbox just shown, so that nothing made in between is lost.
    public func liveNotifications(after sequence: Int64? = nil, reconnectDelay: Duration = .seconds(1)) -> AsyncThrowingStream<WaymarkNotification, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last: Int64? = sequence
                while !Task.isCancelled {
                    do {
                        let output = try await streamingClient.streamNotifications(headers: .init(lastEventID: last.map(String.init)))
                        switch output {
                        case .ok(let ok):
                            for try await event in try ok.body.textEventStream.asDecodedServerSentEvents() {
                                guard event.event == "notification", let data = event.data else { continue }
                                let notification = try Self.liveDecoder.decode(WaymarkNotification.self, from: Data(data.utf8))
                                continuation.yield(notification)
                                last = notification.sequence
                            }
                        case .unauthorized(let u):
                            continuation.finish(throwing: WaymarkClientError.from(try u.body.applicationProblemJson))
                            return
                        case .badRequest(let b):
                            continuation.finish(throwing: WaymarkClientError.from(try b.body.applicationProblemJson))
                            return
                        case .undocumented:
                            break
                        }
                    } catch is CancellationError {
                        break
                    } catch let error as ClientError where error.underlyingError is WaymarkClientError {
                        // Refused (the session ended): retrying cannot help.
                        continuation.finish(throwing: error.underlyingError)
                        return
                    } catch {
                        // Dropped connection or server restart: try again after a pause.
                    }
                    try? await Task.sleep(for: reconnectDelay)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
