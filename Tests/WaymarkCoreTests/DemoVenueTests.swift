import Foundation
import Testing
@testable import WaymarkCore

@Suite("The CSUSB demo venues (WAY-1, WAY-3, WAY-5)")
struct DemoVenueTests {
    static let main: IMDFArchive = {
        let files = try! IMDFArchive(manifest: [:], features: DemoVenue.sanBernardino.features()).files()
        return IMDFReader().read(files: files).archive!
    }()

    @Test("WAY-1 the generated San Bernardino venue is valid IMDF: written and read back without a single problem")
    func valid() throws {
        let files = try IMDFArchive(manifest: [:], features: DemoVenue.sanBernardino.features()).files()
        let result = IMDFReader().read(files: files)
        #expect(result.problems.isEmpty, "\(result.problems.numbered.prefix(5))")
        let archive = try #require(result.archive)
        #expect(archive.features(.building).count == 45)
        #expect(archive.features(.occupant).count >= 15)
        let pl = try #require(archive.features(.building).first { $0.altName == "PL" })
        #expect(archive.features(.level).count { $0.references("building_ids") == [pl.id] } == 6, "the library's six floors")
        #expect(archive.features(.unit).contains { $0.name == "JB-102" })
        #expect(DemoVenue.sanBernardino.features() == DemoVenue.sanBernardino.features(), "the same features and ids every time")
        let desert = IMDFReader().read(files: try IMDFArchive(manifest: [:], features: DemoVenue.palmDesert.features()).files())
        #expect(desert.problems.isEmpty, "\(desert.problems.numbered.prefix(5))")
        #expect(desert.archive?.features(.building).count == 4)
    }

    @Test("WAY-5 every room of the campus can be reached from University Hall's entrance, step-free too")
    func everyRoomReachable() throws {
        let g = WalkGraphBuilder().build(Self.main)
        let start = try #require(g.units.first { $0.name == "UH-101" })
        // Everything reachable without stairs, steps or escalators, in one sweep.
        var seen = Set([start.node]), queue = [start.node]
        while let n = queue.popLast() {
            for e in g.edges(from: n) where e.mode.isStepFree && seen.insert(Int(e.target)).inserted { queue.append(Int(e.target)) }
        }
        let rooms = g.units.filter { $0.name != nil && $0.category != "nonpublic" }
        #expect(rooms.count > 1_000)
        let unreachable = rooms.filter { !seen.contains($0.node) }.map { $0.name ?? $0.id }
        #expect(unreachable.isEmpty, "\(unreachable.prefix(10))")
    }

    @Test("WAY-5 from a classroom in Jack Brown Hall to the library's fifth floor: out, across and up, each step said")
    func acrossCampus() throws {
        let g = WalkGraphBuilder().build(Self.main)
        let from = try #require(g.units.first { $0.name == "JB-102" })
        let to = try #require(g.units.first { $0.name == "PL-503" })
        let path = try #require(WalkRouter(graph: g).route(from: [.init(node: from.node)], to: [to.node], stepFree: true))
        let r = WalkRoute(path: path, graph: g)
        let kinds = r.steps.map(\.kind)
        #expect(kinds.first == .walk && kinds.last == .arrive)
        #expect(kinds.contains(.outside))
        #expect(r.steps.contains { $0.text == "Take the elevator up to Floor 5" }, "\(r.steps.map(\.text))")
        #expect(r.steps.contains { $0.text.hasSuffix("outside to John M. Pfau Library") }, "\(r.steps.map(\.text))")
        #expect(r.isStepFree)
    }

    @Test("WAY-3 the demo's places are found by room number, building, service and amenity")
    func search() throws {
        let index = PlaceSearch(PlaceSearch.Entry.places(of: Self.main, campus: "csusb-san-bernardino"))
        #expect(index.search("jb 102").first?.entry.title == "JB-102")
        #expect(index.search("pfua libary").first?.entry.title == "John M. Pfau Library")
        #expect(index.search("PL").first?.entry.title == "John M. Pfau Library")
        #expect(index.search("financial aid").first?.entry.kind == .service)
        #expect(index.search("pride center").first?.entry.title == "Pride Center")
        #expect(index.search("bike racks pfau").first?.entry.kind == .amenity)
        let deans = index.search("dean", limit: 20).filter { $0.entry.kind == .service }
        #expect(deans.count >= 5)
    }

    @Test("WAY-3 slips people make while walking: a short word missing a letter, one word past recognising, a word still being typed among thousands")
    func slips() throws {
        // Thousands of people whose names start like the words asked for, as in a large directory.
        let crowd = (0..<3_000).map { PlaceSearch.Entry(id: "p\($0)", kind: .person, title: "Dee Desmond\($0) Dest\($0)", campus: "csusb") }
        let index = PlaceSearch(PlaceSearch.Entry.places(of: Self.main, campus: "csusb") + crowd)
        #expect(index.search("siera hll").first?.entry.title == "Sierra Hall", "three letters, one left out")
        #expect(index.search("jck h bown hlal").first?.entry.title == "Jack H. Brown Hall")
        #expect(index.search("john m pfau lbrrry").first?.entry.title == "John M. Pfau Library", "one word past recognising")
        #expect(index.search("help de").first?.entry.title == "Library Help Desk", "the word being typed, among thousands that start alike")
        #expect(index.search("parking structure est", limit: 2).map(\.entry.title).sorted() == ["Parking Structure East", "Parking Structure West"])
        #expect(index.search("xqzv wjkq").isEmpty, "two words that match nothing find nothing")
    }
}
