import Foundation
import WaymarkCore

/// Loads the demo timetable (Milan's metro, trams and buses around the Politecnico, generated)
/// once, through the same importer an operator's feed goes through. It runs from a month
/// before the day it is loaded to a year after.
struct TransitDemo: Sendable {
    let transit: TransitServices
    let now: @Sendable () -> Date

    func loadIfMissing() async throws {
        guard try await transit.store.current() == nil else { return }
        let zone = TimeZone(identifier: "Europe/Rome")!
        let from = ServiceDay(containing: now().addingTimeInterval(-31 * 86400), timeZone: zone).date
        let to = ServiceDay(containing: now().addingTimeInterval(366 * 86400), timeZone: zone).date
        let files = MilanTransit.files(validFrom: from, validTo: to).sorted { $0.key < $1.key }.map { (name: $0.key, data: $0.value) }
        _ = try await transit.importer.importFeed(files: files)
    }
}
