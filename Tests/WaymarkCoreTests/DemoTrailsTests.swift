import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WaymarkCore

/// The demo's trails are plausible: real places, the length and climb each was drawn to, every
/// screen of the trail page filled (TRL-1), and focal points only where a hunt is allowed (TRL-10).
@Suite struct DemoTrailsTests {
    let trails = DemoTrails.all()

    @Test func trl1DemoTrailsLieAroundTheTwoRegionsWithUniqueIds() {
        #expect(trails.count >= 30)
        #expect(Set(trails.map(\.id)).count == trails.count)
        let fullerton = Coordinate(latitude: 33.8823, longitude: -117.8851), sanBernardino = Coordinate(latitude: 34.1820, longitude: -117.3230)
        for t in trails {
            let near = min(Geo.distance(t.trailhead, fullerton), Geo.distance(t.trailhead, sanBernardino))
            #expect(near < 60_000, "\(t.name) is \(Int(near / 1000)) km from both regions")
            let far = t.path.map { Geo.distance($0.coordinate, t.trailhead) }.max() ?? 0
            #expect(far < 15_000, "\(t.name) wanders \(Int(far)) m from its trailhead")
        }
    }

    @Test func trl1DemoPathsHaveTheirDrawnLengthAndClimb() {
        for spec in DemoTrails.specs {
            let m = spec.trail.measures
            let km = m.metres / 1000
            #expect(abs(km - spec.kilometres) / spec.kilometres < 0.05, "\(spec.name): \(km) km, drawn for \(spec.kilometres)")
            let climb = abs(spec.climb)
            #expect(m.gain >= 0.85 * climb && m.gain <= 1.5 * climb + 40, "\(spec.name): gain \(Int(m.gain)) m for a climb of \(Int(climb))")
            if spec.shape != .pointToPoint {
                #expect(Geo.distance(spec.trail.walked.first!.coordinate, spec.trail.walked.last!.coordinate) < 30, "\(spec.name) does not come back")
            }
        }
    }

    @Test func trl1EveryTierAndEveryScreenIsFilled() {
        #expect(Set(trails.map(\.difficulty)) == Set(TrailDifficulty.allCases))
        for t in trails {
            #expect(!t.contacts.isEmpty && !t.guidelines.isEmpty && !t.amenities.isEmpty && !t.info.seasonalHours.isEmpty, "\(t.name)")
            #expect(Set(t.guidelines.map(\.kind)) == Set(SafetyGuideline.Kind.allCases), "\(t.name)")
            #expect(t.guidelines.filter { $0.kind == .predator }.allSatisfy { $0.warningSigns != nil })
            #expect(t.pictureId != nil && t.points.allSatisfy { $0.pictureId != nil && $0.position != nil })
        }
        #expect(trails.contains { $0.huntingAlert != nil } && trails.contains { $0.accessible })
        #expect(trails.contains { $0.points.contains { $0.kind == .waterfall } } && trails.contains { $0.points.contains { $0.kind == .scenicOverlook } })
    }

    @Test func trl10FocalPointsOnlyOnEasyAndModerateTrails() {
        let hunts = trails.filter { $0.points.contains(where: \.focalPoint) }
        #expect(hunts.count >= 10)
        for t in hunts { #expect(t.difficulty != .hard, "\(t.name) is hard but has a scavenger hunt") }
    }

    @Test func trl1DemoPicturesAreDrawnForEveryId() throws {
        let pictures = DemoTrails.pictures()
        #expect(Set(pictures.map(\.id)).count == pictures.count)
        var wanted = Set(trails.compactMap(\.pictureId))
        for t in trails { wanted.formUnion(t.guidelines.compactMap(\.pictureId)); wanted.formUnion(t.points.compactMap(\.pictureId)) }
        #expect(Set(pictures.map(\.id)) == wanted)
        for p in pictures.prefix(40) {
            let svg = DemoTrailArt.svg(p.subject, title: p.title)
            let parser = XMLParser(data: Data(svg.utf8))
            #expect(parser.parse(), "\(p.id) is not well-formed SVG")
        }
    }
}
