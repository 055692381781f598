import Foundation
import Testing
@testable import WaymarkCore

/// TRL-1: elevation gain without the noise, an effort grade for trails without one, lengths and steps.
@Suite("Trails: elevation and effort (TRL-1)")
struct TrailMeasuresTests {
    /// Points every `step` metres due north from a start in the San Bernardino foothills, with
    /// elevations from `height(metres along)`.
    static func track(metres: Double, step: Double = 10, _ height: (Double) -> Double) -> [GPXDocument.Point] {
        let start = Coordinate(latitude: 34.2, longitude: -117.2)
        return stride(from: 0.0, through: metres, by: step).map { d in
            GPXDocument.Point(coordinate: Geo.offset(start, east: 0, north: d), elevation: height(d))
        }
    }

    static func naiveGain(_ points: [GPXDocument.Point]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + max(0, $1.1.elevation! - $1.0.elevation!) }
    }

    @Test("TRL-1: three 200 m hills with ±4 m of receiver noise gain 600 m, not the noisy sum")
    func trl1GainIgnoresNoise() {
        var rng = SplitMix64(seed: 20)
        let points = Self.track(metres: 6_000) { d in
            800 + 100 * (1 - cos(d / 2_000 * 2 * .pi)) + Double.random(in: -4...4, using: &rng)
        }
        let measures = TrailMeasures(points)
        #expect(abs(measures.gain - 600) < 18, "gain \(measures.gain)")
        #expect(abs(measures.loss - 600) < 18, "loss \(measures.loss)")
        #expect(Self.naiveGain(points) > 900, "the noisy sum is what careless apps show")
    }

    @Test("TRL-1: a receiver's 0 m point on a flat trail is a spike, not 500 m of climbing")
    func trl1Spike() {
        let points = Self.track(metres: 2_000) { d in d == 1_000 ? 0 : 500 + (d / 2_000) * 3 }
        let profile = ElevationProfile(points)
        #expect(profile.spikes == 1)
        #expect(profile.gain < 5 && profile.loss < 5)
        #expect(profile.lowest! > 499)
    }

    @Test("TRL-1: a real alpine out-and-back climbs its 443 m range, less than the sum of every step")
    func trl1RealTrack() throws {
        let doc = try GPXDocument.read(TrailsGPXTests.fixture("Mojstrovka.gpx"))
        let points = doc.tracks[0].points
        let measures = TrailMeasures(points)
        #expect(measures.gain > 430 && measures.gain < Self.naiveGain(points), "gain \(measures.gain)")
        #expect(measures.loss > 390 && measures.loss < measures.gain, "ends 29 m above its start: loss \(measures.loss)")
        #expect(measures.highest! > 2_040 && measures.highest! <= 2_057.4)
        #expect(measures.slopeMetres > measures.metres)
    }

    @Test("TRL-1: a lakeside track's receiver noise is mostly not counted as climbing")
    func trl1RealNoisyTrack() throws {
        let doc = try GPXDocument.read(TrailsGPXTests.fixture("cerknicko-jezero.gpx"))
        let points = doc.tracks.flatMap(\.points)
        let measures = TrailMeasures(points)
        #expect(measures.gain < Self.naiveGain(points) * 0.8, "gain \(measures.gain) of a noisy \(Self.naiveGain(points))")
        #expect(measures.gain >= (measures.highest! - measures.lowest!) * 0.5)
    }

    @Test("TRL-1: 1,000 ft of climbing over 5 miles rates 100, moderate; the tiers' edges")
    func trl1Effort() {
        let miles5 = 5 * 1_609.344
        let points = Self.track(metres: miles5, step: 20) { d in 300 + d / miles5 * 304.8 }
        let measures = TrailMeasures(points)
        #expect(abs(measures.effortRating - 100) < 1.5, "rating \(measures.effortRating)")
        #expect(measures.difficulty == .moderate)
        let flat = TrailMeasures(Self.track(metres: 3_000) { _ in 100 })
        #expect(flat.effortRating == 0 && flat.difficulty == .easy)
        let steep = TrailMeasures(Self.track(metres: 8_000, step: 20) { d in 1_500 + d / 8 })  // 1,000 m up in 8 km
        #expect(steep.effortRating > 150 && steep.difficulty == .hard)
        #expect(abs(steep.averageGrade - 12.5) < 0.5 && abs(steep.steepestGrade - 12.5) < 0.5)
    }

    @Test("TRL-1: steps follow the walker's height; 1 km on the flat is about 1,400 steps")
    func trl1Steps() {
        let km = TrailMeasures(Self.track(metres: 1_000) { _ in 100 })
        #expect(abs(km.steps() - 1_421) <= 2)
        #expect(km.steps(heightCentimetres: 190) < km.steps(heightCentimetres: 150))
        #expect(abs(km.metres - 1_000) < 0.5 && abs(km.slopeMetres - 1_000) < 0.5)
    }
}
