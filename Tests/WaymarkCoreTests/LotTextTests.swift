import Testing
@testable import WaymarkCore

@Suite("Finding a lot by name or address (PRK-14)")
struct LotTextTests {
    static let nutwood = (name: "Nutwood Parking Structure", code: "NPS", address: "2101 Nutwood Ave, Fullerton, CA 92831")
    static let lotA = (name: "Lot A", code: "A", address: "800 N State College Blvd, Fullerton, CA 92831")

    static func score(_ q: String, _ lot: (name: String, code: String, address: String)) -> Double? {
        LotText.score(q, name: lot.name, code: lot.code, address: lot.address)
    }

    @Test("PRK-14 a lot is found by its name, its code, the start of a word being typed, its street, and a typing slip; a word that matches nothing leaves it out")
    func matching() {
        for q in ["Nutwood", "nutwood parking structure", "NPS", "nutw", "Nutwood Ave", "2101 nutwood", "nutwod", "NUTWOOD structure"] {
            #expect(Self.score(q, Self.nutwood) != nil, "\(q)")
        }
        for q in ["library", "nutwood library", "nu lot", "zz", "  ", "—"] {
            #expect(Self.score(q, Self.nutwood) == nil, "\(q)")
        }
        #expect(Self.score("state college", Self.lotA) != nil, "by its street")
        #expect(Self.score("lot a", Self.lotA) != nil && Self.score("a", Self.lotA) != nil)
        #expect(Self.score("lot b", Self.lotA) == nil, "not the b of Blvd")
        #expect(Self.score("928", Self.lotA) != nil, "a postcode being typed")
    }

    @Test("PRK-14 the name beats the address, a whole word beats its start, and naming the whole lot beats naming part of a longer one")
    func ranking() throws {
        let byName = try #require(Self.score("nutwood", Self.nutwood))
        let byStreet = try #require(LotText.score("nutwood", name: "Lot E", code: "E", address: "Nutwood Ave"))
        #expect(byName > byStreet)
        #expect(try #require(Self.score("nutwood", Self.nutwood)) > (try #require(Self.score("nutwo", Self.nutwood))))
        #expect(try #require(Self.score("nutwod", Self.nutwood)) < (try #require(Self.score("nutwo", Self.nutwood))), "a slip counts less than a start")
        let whole = try #require(LotText.score("lot a", name: "Lot A", code: "A", address: nil))
        let part = try #require(LotText.score("lot a", name: "Lot A South Overflow", code: "AS", address: nil))
        #expect(whole > part)
    }

    @Test("PRK-14 the words are checked: one letter or digit at least, at most 200 characters")
    func validation() {
        #expect(throws: LotFilter.Invalid.textInvalid) { var f = LotFilter(); f.text = " - "; try f.validate() }
        #expect(throws: LotFilter.Invalid.textInvalid) { var f = LotFilter(); f.text = String(repeating: "a", count: 201); try f.validate() }
        var f = LotFilter()
        f.text = "nutwood"
        #expect(throws: Never.self) { try f.validate() }
    }
}
