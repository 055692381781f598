import Foundation
import WaymarkCore

/// Loads the demo venues (CSUSB San Bernardino and Palm Desert, with their directories) once,
/// through the same importer an operator's archive goes through.
struct WayfindingDemo: Sendable {
    let wayfinding: WayfindingServices
    var venues: [DemoVenue] = [.sanBernardino, .palmDesert]

    func loadIfMissing() async throws {
        for demo in venues where try await wayfinding.venues.venue(demo.venueId) == nil {
            let features = demo.features()
            let archive = IMDFArchive(manifest: ["version": .string("1.0.0"), "language": .string("en"),
                                                 "generated_by": .string("Waymark demo")], features: features)
            let report = try await wayfinding.importer.importVenue(files: try archive.files(), strict: true)
            let staff = DemoDirectory.staff(for: demo, features: features)
            _ = try await wayfinding.importer.importDirectory(venueId: report.venueId, staff: staff)
            wayfinding.logger.info("loaded demo venue", metadata: ["venue": .string(report.name), "features": .stringConvertible(report.features),
                                                                   "people": .stringConvertible(staff.count)])
        }
    }
}
