import Foundation
import WaymarkCore

/// Each venue's `VenueMap` for the version its row names. Building one (the walkable graph, its
/// landmarks, the search index) takes a while on a large venue, so one is built once per
/// version and every request asking meanwhile waits for that one build.
actor VenueCache {
    let venues: VenueStore
    private var ready: [String: (version: Int, map: VenueMap)] = [:]
    private var building: [String: (version: Int, task: Task<VenueMap, any Error>)] = [:]

    init(venues: VenueStore) { self.venues = venues }

    func map(for row: VenueRow) async throws -> VenueMap {
        if let r = ready[row.id], r.version >= row.version { return r.map }
        if let b = building[row.id], b.version == row.version { return try await b.task.value }
        let task = Task.detached { [venues] in try await Self.load(row, venues) }
        building[row.id] = (row.version, task)
        let result = await task.result
        if building[row.id]?.version == row.version { building[row.id] = nil }
        let map = try result.get()
        install(row.id, version: row.version, map)
        return map
    }

    private static func load(_ row: VenueRow, _ venues: VenueStore) async throws -> VenueMap {
        let files = try await venues.files(row.id)
        let staff = try await venues.staff(row.id)
        guard let archive = IMDFReader().read(files: files).archive else {
            throw Problem(type: "venue-unreadable", title: "The venue's stored data cannot be read", status: 503,
                          detail: "Import the venue again with `waymark import imdf`.")
        }
        return VenueMap(archive: archive, staff: staff, campus: row.id)
    }

    /// An importer that has just built the map gives it here, so the first request finds it.
    func install(_ id: String, version: Int, _ map: VenueMap) {
        if (ready[id]?.version ?? .min) <= version { ready[id] = (version, map) }
    }
}
