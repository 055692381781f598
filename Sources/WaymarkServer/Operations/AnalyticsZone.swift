import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// The wall clock the operator analytics count days by (PRK-17): the time zone of the oldest
/// site, since a Waymark serves one campus or several in one region. UTC until a site exists.
/// Remembered once found: a site's zone does not change while the server runs.
final class AnalyticsZone: Sendable {
    private let store: SQLStore
    private let found = NIOLockedValueBox<TimeZone?>(nil)

    init(store: SQLStore) { self.store = store }

    func current() async throws -> TimeZone {
        if let zone = found.withLockedValue({ $0 }) { return zone }
        guard let row = try await store.sql.raw("SELECT time_zone FROM sites ORDER BY created_at, id LIMIT 1").first(),
              let zone = TimeZone(identifier: try row.decode(column: "time_zone", as: String.self))
        else { return TimeZone(identifier: "UTC")! }
        found.withLockedValue { $0 = zone }
        return zone
    }
}
