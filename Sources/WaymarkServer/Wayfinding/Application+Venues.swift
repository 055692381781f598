import Foundation
import Vapor
import WaymarkCore

/// Venue and directory administration (WAY-1, WAY-6) for the command line and tests.
extension Application {
    /// Loads or replaces the venue an IMDF archive describes. Throws `VenueImportFailure` with
    /// numbered problems when it cannot.
    public func importVenue(files: [(name: String, data: Data)], strict: Bool, siteId: String? = nil,
                            progress: @escaping @Sendable (_ stage: String, _ fraction: Double) -> Void = { _, _ in }) async throws -> VenueImportReport {
        let s = waymark
        var site: String?
        if let siteId {
            guard let row = try await s.store.sql.raw("SELECT id FROM sites WHERE id = \(bind: siteId) OR code = \(bind: siteId)").first() else {
                throw VenueImportFailure(summary: "No parking site has the id or code '\(siteId)'.", problems: [])
            }
            site = try row.decode(column: "id", as: String.self)
        }
        return try await s.wayfinding.importer.importVenue(files: files, strict: strict, siteId: site, progress: progress)
    }

    /// Replaces a venue's directory; nil when there is no such venue.
    public func importDirectory(venueId: String, staff: [StaffMember]) async throws -> DirectoryImportReport? {
        try await waymark.wayfinding.importer.importDirectory(venueId: venueId, staff: staff)
    }

    /// The venue's archive as stored, and when it was imported; nil when there is no such venue.
    public func exportVenue(id: String) async throws -> (files: [(name: String, data: Data)], importedAt: Date)? {
        let venues = waymark.wayfinding.venues
        guard let row = try await venues.venue(id) else { return nil }
        return (try await venues.files(id), row.importedAt)
    }

    public func listVenues() async throws -> [(id: String, name: String, version: Int, buildings: Int, people: Int)] {
        try await waymark.wayfinding.venues.list().map { ($0.id, $0.name, $0.version, $0.buildings, $0.people) }
    }
}
