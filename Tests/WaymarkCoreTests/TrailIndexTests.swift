import Foundation
import Testing
@testable import WaymarkCore

/// The nearest-trail index (TRL-2) gives exactly what a scan of every trailhead gives.
@Suite struct TrailIndexTests {
    static func entries(_ n: Int, seed: UInt64) -> [TrailIndex.Entry] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { i in
            // Most in Southern California, some anywhere, a few on the date line and near a pole.
            let c: Coordinate
            switch i % 10 {
            case 0: c = Coordinate(latitude: .random(in: -80...80, using: &rng), longitude: .random(in: -180...180, using: &rng))
            case 1: c = Coordinate(latitude: .random(in: 60...70, using: &rng), longitude: .random(in: 179...180, using: &rng))
            default: c = Coordinate(latitude: .random(in: 33.5...34.5, using: &rng), longitude: .random(in: -118.2 ... -116.8, using: &rng))
            }
            let kinds = PointOfInterest.Kind.allCases.filter { _ in Bool.random(using: &rng) }
            return TrailIndex.Entry(id: String(format: "t%05d", i), trailhead: c, south: c.latitude - 0.01, west: c.longitude - 0.01,
                                    north: c.latitude + 0.01, east: c.longitude + 0.01,
                                    difficulty: TrailDifficulty.allCases.randomElement(using: &rng)!, features: Set(kinds))
        }
    }

    @Test func trl2NearestIsWhatAScanOfEveryTrailheadGives() {
        let entries = Self.entries(3_000, seed: 42)
        let index = TrailIndex(entries)
        var rng = SplitMix64(seed: 7)
        for round in 0..<200 {
            let p = round % 7 == 0
                ? Coordinate(latitude: (round % 2 == 0 ? 1 : -1) * .random(in: 55...89.9, using: &rng), longitude: .random(in: -180...180, using: &rng))
                : round % 3 == 0
                ? Coordinate(latitude: .random(in: -85...85, using: &rng), longitude: .random(in: -180...180, using: &rng))
                : Coordinate(latitude: .random(in: 33.4...34.6, using: &rng), longitude: .random(in: -118.3 ... -116.7, using: &rng))
            let limit = [1, 5, 20, 100][round % 4]
            let filter = round % 5 == 0 ? TrailIndex.Filter(difficulties: [.easy], features: [.waterfall]) : TrailIndex.Filter()
            let got = index.nearest(to: p, limit: limit, filter: filter).map(\.entry.id)
            var scanned: [(id: String, metres: Double)] = []
            for e in entries where filter.admits(e) { scanned.append((e.id, Geo.distance(p, e.trailhead))) }
            scanned.sort { a, b in a.metres != b.metres ? a.metres < b.metres : a.id < b.id }
            let want: [String] = scanned.prefix(limit).map(\.id)
            #expect(got == want, "round \(round) at \(p)")
        }
    }

    @Test func trl2WithinAViewNearestTheCentreFirst() {
        let entries = Self.entries(2_000, seed: 3)
        let index = TrailIndex(entries)
        let found = index.within(south: 33.8, west: -118.0, north: 34.0, east: -117.7, limit: 20)
        #expect(found.count == 20)
        let centre = Coordinate(latitude: 33.9, longitude: -117.85)
        let distances = found.map { Geo.distance(centre, $0.trailhead) }
        #expect(distances == distances.sorted())
        #expect(found.allSatisfy { $0.north >= 33.8 && $0.south <= 34.0 && $0.east >= -118.0 && $0.west <= -117.7 })
        // Across the date line.
        let wrapped = index.within(south: 60, west: 179.5, north: 70, east: -179.5, limit: 500)
        #expect(!wrapped.isEmpty && wrapped.allSatisfy { $0.east >= 179.5 || $0.west <= -179.5 })
        #expect(TrailIndex([]).nearest(to: centre, limit: 5).isEmpty)
    }

    @Test func trl2TownsOfTheGazetteerByTheirFirstLetters() {
        #expect(TrailTowns.match("redl")?.name == "Redlands")
        #expect(TrailTowns.match("  SAN BERN")?.name == "San Bernardino")
        #expect(TrailTowns.match("big bear")?.name == "Big Bear City", "a tie on length goes by name")
        #expect(TrailTowns.match("re") == nil, "three letters at least")
        #expect(TrailTowns.match("Springfield") == nil)
    }
}
