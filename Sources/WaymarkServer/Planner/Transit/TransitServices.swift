import Foundation
import Logging
import WaymarkCore

/// Public transport (PLN-5): the imported GTFS feed and journeys on it.
struct TransitServices: Sendable {
    let store: TransitStore
    let cache: TransitCache
    let importer: TransitImporter

    init(_ env: WaymarkEnvironment) {
        store = TransitStore(store: env.store)
        cache = TransitCache(store: store)
        importer = TransitImporter(store: store, cache: cache, now: env.now, logger: env.logger)
    }

    /// Journeys found on the day of `leaving`, in the feed's time zone.
    struct Plan: Sendable {
        var feed: TransitFeedRow
        var day: ServiceDay
        var from: Coordinate
        var to: Coordinate
        var journeys: [Journey]
    }

    /// The Pareto set of journeys (fewest rides first, earliest arrival last); nil when no
    /// timetable is loaded.
    func journeys(from: Coordinate, to: Coordinate, leaving: Date, maximumWalk: Double, maximumRides: Int) async throws -> Plan? {
        guard let row = try await store.current(), let zone = TimeZone(identifier: row.timeZone) else { return nil }
        let day = ServiceDay(containing: leaving, timeZone: zone)
        let timetable = try await cache.timetable(for: row, on: day.date)
        let query = JourneyQuery(from: from, to: to, departure: day.seconds(at: leaving), maximumWalk: maximumWalk, maximumRides: maximumRides)
        return Plan(feed: row, day: day, from: from, to: to, journeys: timetable.journeys(query))
    }

    /// Lays out today's timetable in the background, so that the first person to ask does not wait.
    func start(_ background: BackgroundTasks, jobs: Bool, now: @escaping @Sendable () -> Date, logger: Logger) {
        guard jobs else { return }
        background.start {
            do {
                guard let row = try await store.current(), let zone = TimeZone(identifier: row.timeZone) else { return }
                _ = try await cache.timetable(for: row, on: ServiceDay(containing: now(), timeZone: zone).date)
            } catch {
                logger.warning("the timetable was not laid out ahead", metadata: ["error": "\(error)"])
            }
        }
    }
}
