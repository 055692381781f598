import Foundation
import Logging
import WaymarkCore

/// What an import did: the feed's new version, its size and what was read in a particular way.
public struct TransitImportReport: Sendable {
    public var name: String
    public var version: Int
    public var stops: Int
    public var routes: Int
    public var trips: Int
    public var stopTimes: Int
    public var firstDay: String?
    public var lastDay: String?
    public var warnings: [String]
}

/// An import that did not happen, with every problem numbered.
public struct TransitImportFailure: Error, Sendable, CustomStringConvertible {
    public var summary: String
    public var problems: [String]
    public var description: String { ([summary] + problems).joined(separator: "\n") }
}

/// Reads, checks and stores a GTFS feed (PLN-5). The feed replaces the old one whole in one
/// transaction, so a refused or failed import leaves the timetable people use as it was.
struct TransitImporter: Sendable {
    let store: TransitStore
    let cache: TransitCache
    let now: @Sendable () -> Date
    let logger: Logger

    /// The tables the planner reads; anything else in the archive (shapes, fares…) is not kept.
    static let tables: Set<String> = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
                                      "calendar_dates.txt", "frequencies.txt", "transfers.txt", "feed_info.txt"]

    typealias Progress = @Sendable (_ stage: String, _ fraction: Double) -> Void

    func importFeed(files: [(name: String, data: Data)], progress: Progress = { _, _ in }) async throws -> TransitImportReport {
        var kept: [String: Data] = [:]
        for f in files where Self.tables.contains(f.name) {
            guard kept[f.name] == nil else {
                throw TransitImportFailure(summary: "The feed cannot be imported:", problems: ["1. \(f.name): the archive holds it twice."])
            }
            kept[f.name] = f.data
        }
        let megabytes = Double(kept.values.reduce(0) { $0 + $1.count }) / 1_048_576
        progress("Checking \(kept.count) tables (\(String(format: "%.1f", megabytes)) MB)", 0.05)
        let (read, problems) = GTFSReader.read(files: kept)
        let errors = problems.filter { $0.severity == .error }
        guard let feed = read else {
            // The errors first: they are why; the warnings after them would only have been noted.
            let listed = errors + problems.filter { $0.severity == .warning }
            throw TransitImportFailure(summary: "The feed has \(errors.count) error\(errors.count == 1 ? "" : "s") and was not imported; the timetable stays as it was:",
                                       problems: listed.numbered)
        }
        guard let zone = feed.agencies.first?.timeZone, TimeZone(identifier: zone) != nil else {
            throw TransitImportFailure(summary: "The feed cannot be imported:", problems: ["1. agency.txt: no agency gives a time zone."])
        }
        let days = feed.calendars.flatMap { [$0.start, $0.end] } + feed.calendarDates.filter(\.added).map(\.date)
        let row = TransitFeedRow(
            id: TransitStore.feedId, name: feed.agencies.map(\.name).joined(separator: ", "), version: 0, timeZone: zone,
            stops: feed.stops.count, routes: feed.routes.count, trips: feed.trips.count, stopTimes: feed.stopTimes.count,
            firstDay: days.min()?.description, lastDay: days.max()?.description,
            warnings: problems.filter { $0.severity == .warning }.map(\.description), importedAt: now())
        progress("Storing \(feed.stopTimes.count) stop times", 0.6)
        let version = try await store.replace(row, files: kept)
        await cache.install(version: version, feed)
        progress("Done", 1)
        logger.info("imported transit feed", metadata: ["version": .stringConvertible(version), "stops": .stringConvertible(feed.stops.count),
                                                        "trips": .stringConvertible(feed.trips.count), "warnings": .stringConvertible(row.warnings.count)])
        return TransitImportReport(name: row.name, version: version, stops: row.stops, routes: row.routes, trips: row.trips,
                                   stopTimes: row.stopTimes, firstDay: row.firstDay, lastDay: row.lastDay, warnings: row.warnings)
    }
}
