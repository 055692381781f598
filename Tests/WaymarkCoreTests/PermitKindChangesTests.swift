import Foundation
import Testing
@testable import WaymarkCore

@Suite("Parking: editing a site's permits (PRK-1)")
struct PermitKindChangesTests {
    static let green = PermitKind(code: Permit(rawValue: "green")!, name: "Green", colour: "#2e7d32")
    static let yellow = PermitKind(code: Permit(rawValue: "yellow")!, name: "Yellow", colour: "#f9a825")
    static let black = PermitKind(code: Permit(rawValue: "black")!, name: "Black", colour: "#212121")

    @Test("PRK-1 what an edit of the permits changed, in one sentence for the record")
    func summary() {
        let evening = PermitKind(code: Permit(rawValue: "evening")!, name: "Evening", colour: "#223344")
        var renamed = Self.green
        renamed.name = "Green Zone"
        var recoloured = Self.black
        recoloured.colour = "#000000"
        let changes = PermitKindChanges(from: [Self.green, Self.yellow, Self.black], to: [renamed, recoloured, evening])
        #expect(changes.added == [evening])
        #expect(changes.removed == [Self.yellow])
        #expect(changes.edited.count == 2)
        #expect(!changes.reordered)
        #expect(changes.summary == "Added Evening; renamed Green to Green Zone; gave Black a new colour; removed Yellow")

        let moved = PermitKindChanges(from: [Self.green, Self.yellow], to: [Self.yellow, Self.green])
        #expect(moved.reordered && !moved.isEmpty)
        #expect(moved.summary == "Put them in a new order")
        #expect(PermitKindChanges(from: [Self.green], to: [Self.green]).isEmpty)
        #expect(PermitKindChanges(from: [Self.green], to: [Self.green]).summary == "")
        // Removing one keeps the others' order: not a reordering.
        #expect(!PermitKindChanges(from: [Self.green, Self.yellow, Self.black], to: [Self.green, Self.black]).reordered)
    }

    @Test("PRK-1 permits an operator sends are checked by a site file's rules, each problem naming the entry")
    func read() throws {
        let good = SiteImport.permitKinds(Data(##"[{"code": "resident", "name": "Resident"}, {"code": "green", "name": "Green", "colour": "#2E7D32"}]"##.utf8), source: "The permits")
        #expect(good.problems.isEmpty)
        #expect(good.kinds == [PermitKind(code: Permit(rawValue: "resident")!, name: "Resident", colour: SiteImport.defaultPermitColour),
                               PermitKind(code: Permit(rawValue: "green")!, name: "Green", colour: "#2e7d32")])

        let bad = SiteImport.permitKinds(Data(##"[{"code": "handicap", "name": "Placard"}, {"code": "green", "name": "Green"}, {"code": "green", "name": "Again"}, {"code": "x", "name": "", "colour": "red"}]"##.utf8),
                                         source: "The permits")
        #expect(bad.kinds == nil)
        let rules = bad.problems.map(\.rule).joined(separator: "\n")
        #expect(rules.contains("disabled parking placard"))
        #expect(rules.contains("listed twice"))
        #expect(rules.contains("\"colour\" must be a colour"))
        #expect(rules.contains("\"name\""))
        #expect(SiteImport.permitKinds(Data("{".utf8), source: "The permits").problems.first?.rule.contains("is not JSON") == true)
    }
}
