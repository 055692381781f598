import Foundation
import Testing
import WaymarkCore

@Suite("Forum post rules")
struct ForumPostRulesTests {
    let trail = DemoTrails.all().first { $0.id == "heart-rock" }!

    @Test("TRL-5 a post is trimmed text of 1–1,000 characters without control characters, pinned within 5 km of the path")
    func trl5Rules() throws {
        let nearEnd = Geo.offset(trail.path.last!.coordinate, east: 4_000, north: 0)
        #expect(try ForumPostRules.validated(text: "  Shade by the rock \n", pin: nearEnd, trail: trail) == "Shade by the rock")
        // Distance counts from the nearest point of the path, not the trailhead.
        let farFromEnd = Geo.offset(trail.path.last!.coordinate, east: 20_000, north: 0)
        #expect(throws: ForumPostRules.Violation.self) { try ForumPostRules.validated(text: "x", pin: farFromEnd, trail: trail) }
        #expect(ForumPostRules.distanceFromPath(trail.trailhead, trail) == 0)
        #expect(throws: ForumPostRules.Violation.textEmpty) { try ForumPostRules.validated(text: " \n\t", pin: trail.trailhead, trail: trail) }
        // 1,000 flags are 1,000 characters people see, though 2,000 code points.
        let flags = String(repeating: "🇺🇸", count: 1000)
        #expect(try ForumPostRules.validated(text: flags, pin: trail.trailhead, trail: trail) == flags)
        #expect(throws: ForumPostRules.Violation.textTooLong(length: 1001)) {
            try ForumPostRules.validated(text: flags + "!", pin: trail.trailhead, trail: trail)
        }
        #expect(throws: ForumPostRules.Violation.textHasControlCharacters) {
            try ForumPostRules.validated(text: "a\u{0}b", pin: trail.trailhead, trail: trail)
        }
        #expect(throws: ForumPostRules.Violation.pinInvalid) {
            try ForumPostRules.validated(text: "a", pin: Coordinate(latitude: .nan, longitude: 0), trail: trail)
        }
    }
}
