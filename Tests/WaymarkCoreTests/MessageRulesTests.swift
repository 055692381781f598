import Foundation
import Testing
import WaymarkCore

@Suite("Message rules")
struct MessageRulesTests {
    @Test("TRL-8 a message is trimmed text of 1–2,000 characters as people count them, with line breaks but no other control characters")
    func trl8Text() throws {
        #expect(try MessageRules.text("  See you at 8\nat the gate \n") == "See you at 8\nat the gate")
        #expect(throws: MessageRules.Violation.empty) { try MessageRules.text(" \n\t ") }
        let hearts = String(repeating: "❤️", count: 2000)
        #expect(try MessageRules.text(hearts) == hearts)
        #expect(throws: MessageRules.Violation.tooLong(length: 2001, limit: 2000)) { try MessageRules.text(hearts + "!") }
        #expect(throws: MessageRules.Violation.controlCharacters) { try MessageRules.text("ring\u{7}") }
        #expect(throws: MessageRules.Violation.controlCharacters) { try MessageRules.text("a\u{2028}b") }
    }

    @Test("TRL-8 a group's name is one trimmed line of 1–80 characters")
    func trl8Title() throws {
        #expect(try MessageRules.title("  Saturday crew ") == "Saturday crew")
        #expect(throws: MessageRules.Violation.controlCharacters) { try MessageRules.title("two\nlines") }
        #expect(throws: MessageRules.Violation.tooLong(length: 81, limit: 80)) { try MessageRules.title(String(repeating: "a", count: 81)) }
        #expect(throws: MessageRules.Violation.empty) { try MessageRules.title("") }
    }
}
