import Testing
@testable import WaymarkCore

@Suite("Staff directory: people and their offices (WAY-3, WAY-6)")
struct StaffDirectoryTests {
    @Test("WAY-6 the demo directory has a few hundred people, each in an office that exists on the plans")
    func demo() throws {
        let staff = DemoDirectory.staff(for: .sanBernardino)
        #expect(staff.count >= 300 && staff.count <= 600, "\(staff.count)")
        let rooms = RoomIndex(DemoVenueTests.main)
        let lost = staff.filter { rooms.unit(of: $0) == nil }
        #expect(lost.isEmpty, "\(lost.prefix(3))")
        #expect(Set(staff.map(\.id)).count == Set(staff.map { "\($0.name)|\($0.building)|\($0.room)" }).count, "ids follow name and office")
        #expect(DemoDirectory.staff(for: .sanBernardino) == staff, "the same people every run")
    }

    @Test("WAY-6 a room written with or without its building code and punctuation is the same room",
          arguments: ["JB-102", "JB 102", "jb102", "102"])
    func roomSpellings(room: String) throws {
        let member = StaffMember(name: "Ada Lovelace", building: "JB", room: room)
        #expect(RoomIndex(DemoVenueTests.main).unit(of: member)?.name == "JB-102")
    }

    @Test("WAY-6 a room that is not on the plans is not guessed")
    func unknownRoom() {
        let rooms = RoomIndex(DemoVenueTests.main)
        #expect(rooms.unit(building: "JB", room: "JB-999") == nil)
        #expect(rooms.unit(building: "ZZ", room: "102") == nil)
    }

    @Test("WAY-3 people are found by first or last name, with their title, department and room to tell them apart")
    func search() throws {
        let staff = DemoDirectory.staff(for: .sanBernardino)
        let index = PlaceSearch(PlaceSearch.Entry.people(staff, campus: "csusb-san-bernardino"))
        let someone = try #require(staff.first)
        let parts = someone.name.split(separator: " ").map(String.init)
        #expect(index.search(parts[0], limit: 100).contains { $0.entry.id == someone.id })
        #expect(index.search(parts[1], limit: 100).contains { $0.entry.id == someone.id })
        let hit = try #require(index.search(someone.name, limit: 50).first { $0.entry.id == someone.id })
        #expect(hit.entry.subtitle?.contains(someone.room) == true)
        #expect(hit.entry.kind == .person)
    }
}
