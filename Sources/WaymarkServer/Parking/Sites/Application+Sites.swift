import Foundation
import Vapor

/// Parking sites from files, for the command line and tests (PRK-1).
extension Application {
    /// Adds the site of a GeoJSON file, or updates the site with its code in place; spots may
    /// also come from a CSV inventory. Throws `SiteImportFailure` with every problem when refused.
    public func importSite(geoJSON: Data, file: String, spotsCSV: Data? = nil, csvFile: String? = nil,
                           progress: @escaping @Sendable (_ stage: String, _ fraction: Double) -> Void = { _, _ in }) async throws -> SiteImportReport {
        let s = waymark
        return try await SiteImporter(store: s.store, sensorIndex: s.parking.sensorIndex, now: s.now, logger: s.logger)
            .importSite(geoJSON: geoJSON, file: file, spotsCSV: spotsCSV, csvFile: csvFile, progress: progress)
    }
}
