import Testing
@testable import WaymarkCore

@Suite("One search box for rooms, buildings, people and services (WAY-3)")
struct PlaceSearchTests {
    static let main = "csusb-main", desert = "csusb-palm-desert"

    static let index = PlaceSearch([
        .init(id: "b-jb", kind: .building, title: "Jack H. Brown Hall", names: ["JB"], campus: main),
        .init(id: "b-pl", kind: .building, title: "John M. Pfau Library", names: ["PL"], campus: main),
        .init(id: "b-su", kind: .building, title: "Santos Manuel Student Union", names: ["SU"], campus: main),
        .init(id: "b-rg", kind: .building, title: "Rancho Mirage Student Center", names: ["RG"], campus: desert),
        .init(id: "r-jb102", kind: .room, title: "JB-102", subtitle: "Classroom · Jack H. Brown Hall", keywords: ["classroom"], campus: main),
        .init(id: "r-jb103", kind: .room, title: "JB-103", subtitle: "Office", keywords: ["office"], campus: main),
        .init(id: "r-jb1020", kind: .room, title: "JB-1020", subtitle: "Lab", keywords: ["laboratory"], campus: main),
        .init(id: "r-pl102", kind: .room, title: "PL-102", subtitle: "Group study", campus: main),
        .init(id: "r-rg102", kind: .room, title: "RG-102", campus: desert),
        .init(id: "p-1", kind: .person, title: "Ada Lovelace", subtitle: "Professor · Computer Science", keywords: ["Computer Science", "Professor"], campus: main),
        .init(id: "p-2", kind: .person, title: "Grace Hopper", subtitle: "Dean · College of Natural Sciences", keywords: ["Dean", "Natural Sciences"], campus: main),
        .init(id: "p-3", kind: .person, title: "José Núñez", subtitle: "Advisor", keywords: ["Advising"], campus: desert),
        .init(id: "s-1", kind: .service, title: "Office of the Dean, College of Education", keywords: ["dean", "deans"], campus: main),
        .init(id: "s-2", kind: .service, title: "Financial Aid", keywords: ["student services", "FAFSA"], campus: main),
    ])

    func top(_ q: String, campus: String? = nil) -> String? { Self.index.search(q, campus: campus).first?.entry.id }
    func ids(_ q: String, campus: String? = nil) -> [String] { Self.index.search(q, campus: campus).map(\.entry.id) }

    @Test("WAY-3 a room number in any spelling finds the room first", arguments: ["JB-102", "JB 102", "jb102", "Jb - 102", "jb-102 "])
    func roomNumber(query: String) {
        #expect(top(query) == "r-jb102")
    }

    @Test("WAY-3 a bare number finds every room with it, and never a different number by a typing slip")
    func bareNumber() {
        let found = Set(ids("102"))
        #expect(found.isSuperset(of: ["r-jb102", "r-pl102", "r-rg102"]))
        #expect(!found.contains("r-jb103"))
        #expect(ids("102", campus: Self.desert).first == "r-rg102")
        #expect(!ids("102", campus: Self.desert).contains("r-jb102"), "the campus filter keeps one campus")
    }

    @Test("WAY-3 buildings by name, by code and by part of a name as it is typed")
    func buildings() {
        #expect(top("library") == "b-pl")
        #expect(top("PL") == "b-pl")
        #expect(top("jack br") == "b-jb")
        #expect(top("student union") == "b-su")
    }

    @Test("WAY-3 typing slips are forgiven: swapped letters, a missing letter, an accent left out")
    func typos() {
        #expect(top("pfua libary") == "b-pl")
        #expect(top("lovelcae") == "p-1")
        #expect(top("jose nunez") == "p-3")
        #expect(top("hoper") == "p-2")
    }

    @Test("WAY-3 people by first or last name; offices and services by what they do")
    func peopleAndServices() {
        #expect(top("Ada") == "p-1")
        #expect(top("lovelace") == "p-1")
        #expect(Set(ids("dean").prefix(2)) == ["s-1", "p-2"])
        #expect(top("financial aid") == "s-2")
        #expect(top("student services") == "s-2")
    }

    @Test("WAY-3 a query that matches nothing finds nothing, and an empty one too")
    func nothing() {
        #expect(ids("zzzz qqq").isEmpty)
        #expect(ids("  - ").isEmpty)
    }

    @Test("WAY-3 words are letters and digits apart, accents folded")
    func words() {
        #expect(SearchText.words("JB-102") == ["jb", "102"])
        #expect(SearchText.words("jb102") == ["jb", "102"])
        #expect(SearchText.words("Südpool O27/121") == ["sudpool", "o", "27", "121"])
        #expect(EditDistance.within(Array("pfua".utf8), Array("pfau".utf8), limit: 1) == 1)
        #expect(EditDistance.within(Array("libary".utf8), Array("library".utf8), limit: 1) == 1)
        #expect(EditDistance.within(Array("office".utf8), Array("library".utf8), limit: 2) == nil)
    }
}
