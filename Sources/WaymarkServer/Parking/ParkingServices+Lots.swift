import Foundation
import WaymarkAPI
import WaymarkCore

extension ParkingServices {
    struct FoundLot: Sendable {
        var row: LotRow
        var rating: RatingSummary
        /// From the point the search named, in metres.
        var distance: Double?
        /// How well the words typed match it, when words were typed.
        var textScore: Double? = nil
    }

    /// The site's lots that pass the filters (PRK-14), nearest first when a point is given;
    /// nil when there is no such site.
    func lots(siteId: String, matching query: Operations.ListLots.Input.Query, now: Date) async throws -> [FoundLot]? {
        guard let site = try await queries.site(id: siteId) else { return nil }
        guard let zone = TimeZone(identifier: site.timeZone) else { throw Problem.internalError }
        let filter = try LotSearch.filter(query, timeZone: zone, sitePermits: try site.permitKinds(), now: now)
        let ratings = try await reviews.summaries(siteId: siteId)
        // Read only when asked: it counts spots, which the other filters never need.
        let accessible = filter.accessibleFreeNow ? try await queries.freeSpots(siteId: siteId, category: .handicap) : [:]
        var found: [FoundLot] = []
        for row in try await queries.lots(siteId: siteId) {
            let rating = ratings[row.id] ?? RatingSummary()
            let candidate = try LotSearch.candidate(row, rating: rating, accessibleFree: accessible[row.id] ?? 0)
            guard filter.matches(candidate) else { continue }
            found.append(FoundLot(row: row, rating: rating, distance: filter.distance(to: candidate), textScore: filter.textScore(of: candidate)))
        }
        // Near a point, nearest first; otherwise words typed put the best match first.
        if filter.near != nil {
            found.sort { ($0.distance ?? 0) < ($1.distance ?? 0) }
        } else if filter.text != nil {
            found.sort { ($0.textScore ?? 0, -$0.row.position) > ($1.textScore ?? 0, -$1.row.position) }
        }
        return found
    }

    /// How full the lot usually is through a weekday (PRK-6), from its half-hourly snapshots;
    /// the site-local today when no weekday is given. Nil when there is no such lot.
    func typicalOccupancy(lotId: String, weekday asked: Int?, now: Date) async throws -> Components.Schemas.TypicalOccupancy? {
        guard let lot = try await queries.lot(id: lotId), let site = try await queries.site(id: lot.siteId) else { return nil }
        guard let zone = TimeZone(identifier: site.timeZone) else { throw Problem.internalError }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let weekday = asked ?? calendar.component(.weekday, from: now)
        guard (1...7).contains(weekday) else { throw Problem.badRequest("weekday must be 1 (Sunday) to 7 (Saturday).") }
        let snapshots = try await queries.snapshots(lotId: lotId, since: now.addingTimeInterval(-HalfHourSlots.retention - 86_400))
        let halfHours = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: weekday, timeZone: zone, now: now)
        return .init(lotId: lotId, weekday: weekday, timeZone: site.timeZone, halfHours: halfHours,
                     hours: TypicalOccupancy.hourlyProfile(halfHours))
    }
}
