import Foundation
import WaymarkCore

/// Where an event can be held, by name (PLN-2): the demo gazetteer, every venue's buildings and
/// every parking lot, read fresh so that an import shows at once.
struct PlannerPlaces: Sendable {
    let gazetteer: [GazetteerPlace]
    let parking: ParkingQueries
    let wayfinding: WayfindingServices

    func search(_ query: String, limit: Int) async throws -> [GazetteerPlace] {
        guard query.count <= 200 else { throw Problem.badRequest("`q` has 1 to 200 characters.") }
        guard (1...50).contains(limit) else { throw Problem.badRequest("`limit` is 1 to 50.") }
        guard !Gazetteer.words(query).isEmpty else { throw Problem.badRequest("Type a word of the place's name.") }
        var places = gazetteer
        for site in try await parking.sites() {
            for lot in try await parking.lots(siteId: site.id) {
                places.append(GazetteerPlace(name: lot.name, kind: .lot, detail: site.name, latitude: lot.entranceLat, longitude: lot.entranceLon))
            }
        }
        for row in try await wayfinding.venues.list() {
            let map = try await wayfinding.map(row)
            for b in map.archive.features(.building) {
                guard let name = b.name, let p = b.displayPoint else { continue }
                places.append(GazetteerPlace(name: name, kind: .building, detail: row.name, latitude: p.latitude, longitude: p.longitude))
            }
        }
        return Gazetteer.search(query, in: places, limit: limit)
    }
}
