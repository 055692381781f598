import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import WaymarkCore

/// Notes that an account was active on a site-local day (PRK-17: the share of active users who
/// reserve). At most one write per account and day: the accounts already written today are
/// remembered in memory, so the other requests of the day cost a set lookup. Several server
/// processes may each write the same row once; the primary key makes that harmless.
final class ActivityRecorder: Sendable {
    private struct Today {
        var day = ""
        var seen = Set<String>()
    }

    private let store: SQLStore
    private let zone: AnalyticsZone
    private let logger: Logger
    private let today = NIOLockedValueBox(Today())

    init(store: SQLStore, zone: AnalyticsZone, logger: Logger) {
        self.store = store
        self.zone = zone
        self.logger = logger
    }

    /// Never throws: a request must not fail because its activity could not be noted.
    func record(userId: String, at now: Date) async {
        do {
            let day = LocalDay(containing: now, timeZone: try await zone.current()).description
            let isNew = today.withLockedValue { t in
                // A new day forgets yesterday's accounts, which bounds the set.
                if t.day != day { t = Today(day: day) }
                return t.seen.insert(userId).inserted
            }
            guard isNew else { return }
            do {
                try await store.write { sql in
                    try await sql.raw("""
                        INSERT INTO user_activity_days (user_id, day) VALUES (\(bind: userId), \(bind: day))
                        ON CONFLICT (user_id, day) DO NOTHING
                        """).run()
                }
            } catch {
                today.withLockedValue { t in if t.day == day { t.seen.remove(userId) } }
                throw error
            }
        } catch {
            logger.warning("Could not note today's activity of an account", metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
