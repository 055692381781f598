import Foundation
import Testing
@testable import WaymarkCore

@Suite("Walkable graph and routes across floors and buildings (WAY-5, WAY-7)")
struct WalkGraphTests {
    func graph(_ features: [IMDFFeature]) -> WalkGraph { WalkGraphBuilder().build(IMDFTestVenue.archive(features)) }

    func node(_ g: WalkGraph, _ feature: String) throws -> Int { try #require(g.nodeByFeature[feature], "\(feature)") }

    func route(_ g: WalkGraph, _ from: String, _ to: String, stepFree: Bool = false) throws -> WalkRoute? {
        let path = WalkRouter(graph: g).route(from: [.init(node: try node(g, from))], to: [try node(g, to)], stepFree: stepFree)
        return path.map { WalkRoute(path: $0, graph: g) }
    }

    @Test("WAY-5 stairs and the elevator are inferred from shafts that overlap on adjacent levels")
    func inferredVertical() throws {
        let g = graph(IMDFTestVenue.hall())
        let stairs0 = try node(g, "stairs-0"), stairs1 = try node(g, "stairs-1")
        #expect(g.edges(from: stairs0).contains { Int($0.target) == stairs1 && $0.mode == .stairs })
        let lift0 = try node(g, "elevator-0"), lift1 = try node(g, "elevator-1")
        #expect(g.edges(from: lift1).contains { Int($0.target) == lift0 && $0.mode == .elevator })
        #expect(!g.edges(from: stairs0).contains { Int($0.target) == lift1 }, "different shafts do not join")
    }

    @Test("WAY-5 a route to a room upstairs takes the nearer stairs and says so, with distance and time")
    func upstairs() throws {
        let r = try #require(try route(graph(IMDFTestVenue.hall()), "room-101", "room-202"))
        #expect(r.steps.map(\.kind) == [.walk, .stairs, .walk, .arrive])
        #expect(r.steps[1].text == "Take the stairs up to Level 2")
        #expect(r.steps.last?.text == "Arrive at JB-202, Level 2")
        #expect(!r.isStepFree)
        #expect(r.metres > 20 && r.metres < 60, "\(r.metres)")
        #expect(abs(r.seconds - r.path.edges.reduce(0) { $0 + Double($1.seconds) }) < 0.01)
    }

    @Test("WAY-5 the step-free option takes the elevator; without one it says there is no step-free route")
    func stepFree() throws {
        let r = try #require(try route(graph(IMDFTestVenue.hall()), "room-101", "room-202", stepFree: true))
        #expect(r.isStepFree)
        #expect(r.steps.map(\.kind) == [.walk, .elevator, .walk, .arrive])
        #expect(r.steps[0].text == "In Jack H. Brown Hall, Ground floor: walk 35 m to the elevator", "\(r.steps[0].text)")
        #expect(r.steps[1].text == "Take the elevator up to Level 2")
        let noLift = graph(IMDFTestVenue.hall(elevator: false))
        #expect(try route(noLift, "room-101", "room-202", stepFree: true) == nil)
        #expect(try route(noLift, "room-101", "room-202") != nil, "with steps allowed the stairs still go")
    }

    @Test("WAY-5 WAY-7 the nearest of many: the restroom on the person's own level, not the one upstairs")
    func nearest() throws {
        let g = graph(IMDFTestVenue.hall())
        let restrooms = Set(g.units.filter { IMDFCategories.isRestroom($0.category) }.map(\.node))
        #expect(restrooms.count == 2)
        let path = try #require(WalkRouter(graph: g).route(from: [.init(node: try node(g, "room-201"))], to: restrooms, stepFree: false))
        #expect(path.nodes.last == (try node(g, "restroom-1")))
        let down = try #require(WalkRouter(graph: g).route(from: [.init(node: try node(g, "room-101"))], to: restrooms, stepFree: false))
        #expect(down.nodes.last == (try node(g, "restroom-0")))
    }

    @Test("WAY-5 between buildings: down the stairs, out of the entrance and across campus, each a step")
    func outdoors() throws {
        let g = graph(IMDFTestVenue.hall(secondBuilding: true))
        let entrance = try node(g, "door-entrance")
        #expect(g.nodes[entrance].isEntrance, "the door on the ground floor's outline is an entrance")
        #expect(g.nodes[try node(g, "door-101")].isEntrance == false, "an inner door is not")
        let r = try #require(try route(g, "room-201", "b-pl"))
        #expect(r.steps.map(\.kind) == [.walk, .stairs, .walk, .outside, .arrive], "\(r.steps.map(\.text))")
        #expect(r.steps[2].text.hasSuffix("to the exit"))
        #expect(r.steps[3].text.hasPrefix("Leave Jack H. Brown Hall. Walk "))
        #expect(r.steps[3].text.hasSuffix(" outside to John M. Pfau Library"))
        #expect(r.steps.last?.text == "Arrive at John M. Pfau Library")
        #expect(r.steps[3].level == nil)
    }

    @Test("WAY-5 the landmark estimate never costs a route its optimum: every time equals a plain Dijkstra's, both ways")
    func optimal() throws {
        let archive = try #require(IMDFReader().read(files: try IMDFTestVenue.ulmFiles()).archive)
        let g = WalkGraphBuilder().build(archive)
        let router = WalkRouter(graph: g)
        let rooms = g.units.map(\.node)
        var seed: UInt64 = 7
        for _ in 0..<40 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            let a = rooms[Int(seed >> 33) % rooms.count]
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            let b = rooms[Int(seed >> 33) % rooms.count]
            let truth = WalkRouter.allDistances(g, from: a)[b]
            let found = router.route(from: [.init(node: a)], to: [b], stepFree: false)
            if truth.isFinite {
                let seconds = try #require(found?.seconds)
                #expect(abs(seconds - Double(truth)) <= 0.001 * Double(truth) + 0.01, "\(a) → \(b)")
            } else {
                #expect(found == nil)
            }
        }
    }

    @Test("WAY-5 WAY-7 the real Ulm export routes between rooms on different floors, and most rooms can be reached")
    func ulm() throws {
        let archive = try #require(IMDFReader().read(files: try IMDFTestVenue.ulmFiles()).archive)
        let g = WalkGraphBuilder().build(archive)
        let named = g.units.filter { $0.category == "room" && $0.name != nil }
        let from = try #require(named.first { $0.name == "O27/121" })
        let to = try #require(named.first { $0.name == "2001" })
        let router = WalkRouter(graph: g)
        let path = try #require(router.route(from: [.init(node: from.node)], to: [to.node], stepFree: false))
        let r = WalkRoute(path: path, graph: g)
        #expect(r.steps.contains { $0.kind == .stairs || $0.kind == .elevator }, "\(r.steps.map(\.text))")
        #expect(r.steps.last?.text == "Arrive at 2001, 2. OG")
        // Rooms reached from O27/121 with steps allowed. The export maps some rooms without the
        // corridor outside them; those cannot be reached, and are few.
        var reached = 0
        for u in named where router.route(from: [.init(node: from.node)], to: [u.node], stepFree: false) != nil { reached += 1 }
        #expect(Double(reached) >= 0.9 * Double(named.count), "\(reached) of \(named.count)")
    }
}
