import Foundation
import Logging

/// Delivers new notifications to their person's open streams (PRK-15): the notifications
/// table tailed by a `LogTail`, a topic per person.
typealias NotificationHub = LogTail<NotificationLog>

extension NotificationHub {
    /// Notifications a subscriber may fall behind by before it is cut off.
    static let notificationBuffer = 500

    convenience init(store: SQLStore, pollInterval: Duration, logger: Logger,
                     observe: @escaping @Sendable ([NotificationRow]) -> Void = { _ in }) {
        self.init(NotificationLog(store: store), name: "notifications", pollInterval: pollInterval, readLimit: 1_000,
                  subscriberBuffer: Self.notificationBuffer, logger: logger, observe: observe)
    }
}

struct NotificationLog: TailedLog {
    let store: SQLStore

    func newest() async throws -> Int64 { try await NotificationStore.lastSeq(sql: store.sql) }
    func rows(after: Int64, limit: Int) async throws -> [NotificationRow] { try await NotificationStore.after(after, limit: limit, sql: store.sql) }
    func lastId(of row: NotificationRow) -> Int64 { row.seq }
    func topic(of row: NotificationRow) -> String { row.userId }
    func frames(of row: NotificationRow) -> [LiveFrame] {
        [LiveFrame(id: row.seq, bytes: NotificationMapping.frame(seq: row.seq, NotificationMapping.notification(row)))]
    }
}
