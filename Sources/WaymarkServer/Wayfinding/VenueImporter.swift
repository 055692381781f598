import Foundation
import Logging
import WaymarkCore

/// What an import did: the venue, its new version, and what was repaired or left out.
public struct VenueImportReport: Sendable {
    public var venueId: String
    public var name: String
    public var version: Int
    public var features: Int
    public var problems: [IMDFProblem]
}

/// An import that did not happen, with every problem numbered.
public struct VenueImportFailure: Error, Sendable, CustomStringConvertible {
    public var summary: String
    public var problems: [String]
    public var description: String { ([summary] + problems).joined(separator: "\n") }
}

/// What a directory import did.
public struct DirectoryImportReport: Sendable {
    public var venueId: String
    public var version: Int
    public var people: Int
    public var unplaced: [String]
}

/// Reads, checks and stores venues and directories. A venue is replaced whole in one
/// transaction, so a failed import leaves the previous one as it was.
struct VenueImporter: Sendable {
    let venues: VenueStore
    let cache: VenueCache
    let now: @Sendable () -> Date
    let logger: Logger

    /// Stages and how far along the whole import is (0…1), for a progress bar.
    typealias Progress = @Sendable (_ stage: String, _ fraction: Double) -> Void

    func importVenue(files: [(name: String, data: Data)], strict: Bool, siteId: String? = nil,
                     progress: Progress = { _, _ in }) async throws -> VenueImportReport {
        progress("Checking \(files.count) files", 0.05)
        let result = IMDFReader().read(files: files)
        guard let archive = result.archive, let venue = archive.venue else {
            throw VenueImportFailure(summary: "The archive cannot be imported:", problems: result.problems.numbered)
        }
        if strict, !result.problems.isEmpty {
            throw VenueImportFailure(summary: "The archive has \(result.problems.count) problem\(result.problems.count == 1 ? "" : "s") and a strict import refuses any:",
                                     problems: result.problems.numbered)
        }
        progress("Building the walkable graph", 0.35)
        let staff = try await venues.staff(venue.id)
        let map = VenueMap(archive: archive, staff: staff, campus: venue.id)
        progress("Writing the archive", 0.75)
        let normalized = try archive.files()
        let outline = venue.geometry?.coordinates ?? []
        let everything = archive.features(.footprint).flatMap { $0.geometry?.coordinates ?? [] } + outline
        guard let bounds = BoundingBox(outline.isEmpty ? everything : outline) else {
            throw VenueImportFailure(summary: "The archive cannot be imported:",
                                     problems: ["1. venue.geojson, \(venue.id): the venue has no geometry and no building has a footprint."])
        }
        let center = venue.displayPoint ?? Coordinate(latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2)
        let features = IMDFFeatureType.allCases.reduce(0) { $0 + archive.features($1).count }
        let row = VenueRow(id: venue.id, name: venue.name ?? venue.altName ?? "Venue", siteId: siteId, version: 0, center: center,
                           bounds: bounds, buildings: archive.features(.building).count, people: staff.count,
                           warnings: result.problems.numbered, importedAt: now())
        progress("Storing \(features) features", 0.85)
        let version = try await venues.replaceVenue(row, files: normalized)
        await cache.install(venue.id, version: version, map)
        progress("Done", 1)
        logger.info("imported venue", metadata: ["venue": .string(venue.id), "version": .stringConvertible(version),
                                                 "features": .stringConvertible(features), "problems": .stringConvertible(result.problems.count)])
        return VenueImportReport(venueId: venue.id, name: row.name, version: version, features: features, problems: result.problems)
    }

    /// Replaces the venue's directory; people are matched to the rooms of its plans.
    func importDirectory(venueId: String, staff: [StaffMember]) async throws -> DirectoryImportReport? {
        guard let row = try await venues.venue(venueId) else { return nil }
        // The plans are the same: only the directory's part of the map is built again.
        let map = try await cache.map(for: row).with(staff: staff)
        guard let version = try await venues.replaceStaff(venueId, staff) else { return nil }
        await cache.install(venueId, version: version, map)
        let unplaced = staff.filter { map.office(of: $0.id) == nil }.map { "\($0.name): \($0.building) \($0.room)" }
        return DirectoryImportReport(venueId: venueId, version: version, people: staff.count, unplaced: unplaced)
    }
}
