import Foundation
import Vapor
import WaymarkCore

/// The public-transport timetable (PLN-5) for the command line and tests.
extension Application {
    /// Loads or replaces the timetable from a GTFS feed's files. Throws `TransitImportFailure`
    /// with numbered problems when the feed is refused.
    public func importTransitFeed(files: [(name: String, data: Data)],
                                  progress: @escaping @Sendable (_ stage: String, _ fraction: Double) -> Void = { _, _ in }) async throws -> TransitImportReport {
        try await waymark.planner.transit.importer.importFeed(files: files, progress: progress)
    }
}
