import Foundation
import Logging
import SQLKit
import WaymarkCore

/// The weekly suggestion (TRL-7; Trailz 3.2.3.1): on Thursday mornings, each person who has
/// starred a trail is told of three trails near their favourites that they have neither starred
/// nor been suggested before, in the inbox and by Web Push. A row per person and ISO week makes
/// the database send it once, however many servers run the job.
struct TrailSuggestions: Sendable {
    let store: SQLStore
    let catalogue: TrailCatalogue
    let now: @Sendable () -> Date
    let timeZone: TimeZone
    let logger: Logger

    static let perWeek = 3
    /// Sent from this hour on Thursdays, in `timeZone`.
    static let hour = 9

    /// The ISO week (`2026-W48`) when it is Thursday at or after nine, else nil.
    func dueWeek(_ at: Date) -> String? {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.weekday, .hour, .yearForWeekOfYear, .weekOfYear], from: at)
        guard c.weekday == 5, (c.hour ?? 0) >= Self.hour, let year = c.yearForWeekOfYear, let week = c.weekOfYear else { return nil }
        return String(format: "%04d-W%02d", year, week)
    }

    /// Sends this week's suggestions that are due and not sent yet; how many people were told.
    @discardableResult
    func run() async throws -> Int {
        let at = now()
        guard let week = dueWeek(at) else { return 0 }
        let snapshot = try await catalogue.current()
        let people = try await store.sql.raw("""
            SELECT f.user_id, f.trail_id FROM trail_favourites f
            WHERE NOT EXISTS (SELECT 1 FROM trail_suggestions s WHERE s.user_id = f.user_id AND s.week = \(bind: week))
            ORDER BY f.user_id
            """).all().map { (try $0.decode(column: "user_id", as: String.self), try $0.decode(column: "trail_id", as: String.self)) }
        var favourites: [String: [String]] = [:]
        for (user, trail) in people { favourites[user, default: []].append(trail) }
        var told = 0
        for (user, starred) in favourites.sorted(by: { $0.key < $1.key }) {
            let heads = starred.compactMap { snapshot.rows[$0]?.trailhead }
            guard !heads.isEmpty else { continue }
            let centre = Coordinate(latitude: heads.map(\.latitude).reduce(0, +) / Double(heads.count),
                                    longitude: heads.map(\.longitude).reduce(0, +) / Double(heads.count))
            let before = Set(try await store.sql.raw("SELECT trail_ids FROM trail_suggestions WHERE user_id = \(bind: user)").all()
                .flatMap { try $0.decode(column: "trail_ids", as: String.self).split(separator: ",").map(String.init) })
            let skip = before.union(starred)
            let picks = snapshot.index.nearest(to: centre, limit: skip.count + Self.perWeek)
                .map(\.entry.id).filter { !skip.contains($0) }.prefix(Self.perWeek)
            let rows = picks.compactMap { snapshot.rows[$0] }
            guard !rows.isEmpty else { continue }
            let names = rows.map(\.name)
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
            let draft = NotificationDraft(userId: user, kind: .trailSuggestions,
                                          title: names.count == 1 ? "A trail to try this week" : "\(names.count) trails to try this week",
                                          body: "Near the trails you starred: \(list). Open Trails to see them.")
            let sent = try await store.write { sql -> Bool in
                // The database decides: another server may have sent this week's already.
                guard try await sql.raw("""
                    INSERT INTO trail_suggestions (user_id, week, trail_ids, created_at)
                    VALUES (\(bind: user), \(bind: week), \(bind: picks.joined(separator: ",")), \(bind: at.millis))
                    ON CONFLICT (user_id, week) DO NOTHING RETURNING user_id
                    """).first() != nil else { return false }
                try await Notifier.post([draft], at: at, within: sql)
                return true
            }
            if sent { told += 1 }
        }
        return told
    }
}
