import Foundation
import Logging
import Vapor
import WaymarkCore

/// The Wayfinding area: venues from IMDF, their staff directories, maps, search and routes.
struct WayfindingServices: Sendable {
    let venues: VenueStore
    let cache: VenueCache
    let importer: VenueImporter
    let logger: Logger

    init(_ env: WaymarkEnvironment) {
        venues = VenueStore(store: env.store)
        cache = VenueCache(venues: venues)
        importer = VenueImporter(venues: venues, cache: cache, now: env.now, logger: env.logger)
        logger = env.logger
    }

    /// The venue's row and its map at that version; nil when there is no such venue.
    func venue(_ id: String) async throws -> (row: VenueRow, map: VenueMap)? {
        guard let row = try await venues.venue(id) else { return nil }
        return (row, try await map(row))
    }

    func map(_ row: VenueRow) async throws -> VenueMap { try await cache.map(for: row) }

    /// Builds every venue's map in the background, so that the first person to search does not wait.
    func start(_ background: BackgroundTasks, jobs: Bool) {
        guard jobs else { return }
        background.start {
            do {
                for row in try await venues.list() { _ = try await map(row) }
            } catch {
                logger.warning("venue maps were not built ahead", metadata: ["error": "\(error)"])
            }
        }
    }
}

extension WayfindingServices {
    /// The area's operations that need a signed-in person (`UserAuthMiddleware`).
    static let signedInOperations: Set<String> = [
        "importVenue",
        "replaceDirectory",
    ]
}
