import Foundation
import Testing
@testable import WaymarkCore

@Suite("A venue ready to answer: routes from places, people and positions (WAY-4, WAY-5)")
struct VenueMapTests {
    static let professor = StaffMember(name: "Ngozi Okafor", title: "Professor", department: "Marketing",
                                       building: "Jack H. Brown Hall", room: "JB-202")
    static let lost = StaffMember(name: "Tuan Au", building: "Jack H. Brown Hall", room: "JB-999")

    func map(elevator: Bool = true, secondBuilding: Bool = false) -> VenueMap {
        VenueMap(archive: IMDFTestVenue.archive(IMDFTestVenue.hall(elevator: elevator, secondBuilding: secondBuilding)),
                 staff: [Self.professor, Self.lost], campus: "test")
    }

    @Test("WAY-4 to a person's office: the route ends in their room and names them")
    func toPerson() throws {
        let m = map()
        let r = try m.route(from: .place("room-101"), to: .place(Self.professor.id), stepFree: false)
        #expect(r.steps.last?.text == "Arrive at JB-202 (Ngozi Okafor), Level 2")
        #expect(m.search.search("okafor").first?.entry.id == Self.professor.id)
    }

    @Test("WAY-4 a person whose room is not on the plans is named as such, not guessed")
    func personOffMap() {
        #expect(throws: VenueMap.RouteError.notOnMap(Self.lost.id)) {
            try map().route(from: .place("room-101"), to: .place(Self.lost.id), stepFree: false)
        }
        #expect(throws: VenueMap.RouteError.unknownPlace("nowhere")) {
            try map().route(from: .place("nowhere"), to: .place("room-101"), stepFree: false)
        }
    }

    @Test("WAY-5 WAY-7 the nearest restroom from a position on the upper level is the one on that level")
    func nearestFromPosition() throws {
        let m = map()
        let here = Geo.offset(IMDFTestVenue.origin, east: 8, north: 2)
        let r = try m.route(from: .position(here, level: "level-1"), to: .nearest(.restroom), stepFree: false)
        #expect(r.path.nodes.last == m.graph.nodeByFeature["restroom-1"])
        #expect(r.steps.last?.text == "Arrive at Restroom, Level 2")
        #expect(r.steps.first?.path.first == here, "the line starts where the person stands")
        #expect(throws: VenueMap.RouteError.unknownLevel("level-9")) {
            try m.route(from: .position(here, level: "level-9"), to: .nearest(.restroom), stepFree: false)
        }
    }

    @Test("WAY-5 step-free: without an elevator the answer says no step-free route exists, and a plain route still does")
    func noStepFree() throws {
        let m = map(elevator: false)
        #expect(throws: VenueMap.RouteError.noStepFreeRoute) {
            try m.route(from: .place("room-101"), to: .place("room-202"), stepFree: true)
        }
        #expect(throws: VenueMap.RouteError.noneOfKind(.elevator)) {
            try m.route(from: .place("room-101"), to: .nearest(.elevator), stepFree: false)
        }
        #expect(try m.route(from: .place("room-101"), to: .place("room-202"), stepFree: false).isStepFree == false)
    }

    @Test("WAY-4 to a building: through its entrances; from outdoors: the nearest way in")
    func buildings() throws {
        let m = map(secondBuilding: true)
        let r = try m.route(from: .place("room-201"), to: .place("b-pl"), stepFree: true)
        #expect(r.steps.last?.text == "Arrive at John M. Pfau Library")
        let outside = Geo.offset(IMDFTestVenue.origin, east: 20, north: -30)
        let inn = try m.route(from: .position(outside, level: nil), to: .place("room-102"), stepFree: false)
        #expect(inn.path.nodes.contains(m.graph.nodeByFeature["door-entrance"]!))
        #expect(inn.steps.first?.kind == .outside)
        #expect(inn.steps.first?.text.hasPrefix("Walk ") == true && inn.steps.first?.text.hasSuffix(" outside to Jack H. Brown Hall") == true,
                "\(inn.steps.first?.text ?? "")")
        #expect(inn.steps.first?.path.first == outside, "drawn from where the person stands")
        #expect(inn.steps[1].text.hasPrefix("Enter Jack H. Brown Hall, Ground floor: walk "), "\(inn.steps[1].text)")
        #expect(abs(inn.metres - inn.steps.reduce(0) { $0 + $1.metres }) < 0.01, "the steps add up to the route")
    }

    @Test("WAY-4 WAY-7 the nearest bike racks are named as bike racks, not as the grounds they stand on")
    func amenityNamed() throws {
        let demo = DemoVenue.palmDesert
        let m = VenueMap(archive: IMDFArchive(manifest: [:], features: demo.features()), staff: [], campus: demo.venueId)
        let room = try #require(m.search.search("RG-101").first?.entry.id)
        let r = try m.route(from: .place(room), to: .nearest(.bikeParking), stepFree: true)
        #expect(r.steps.last?.text.hasPrefix("Arrive at Bike racks by ") == true, "\(r.steps.last?.text ?? "")")
    }
}
