import Foundation
import Testing
@testable import WaymarkCore

@Suite("JSON for IMDF files (WAY-1)")
struct JSONParserTests {
    func parse(_ s: String) throws -> JSONValue { try JSONValue(parsing: Data(s.utf8)) }

    @Test("WAY-1 values, escapes, surrogate pairs and a byte-order mark read as JSON says")
    func values() throws {
        #expect(try parse(#"{"a":[1,-2.5e3,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00"}"#)
                == .object(["a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]), "b": .string("x\"\\/\né😀")]))
        #expect(try JSONValue(parsing: Data([0xEF, 0xBB, 0xBF] + Array(#" [ ] "#.utf8))) == .array([]))
    }

    @Test("WAY-1 a number reads back to the same value after writing (17 significant digits)")
    func numbers() throws {
        let v = try parse("[20.127011944975568, 9.957800800000001, 1e-7, 372022911]")
        let again = try JSONValue(parsing: JSONEncoder().encode(v))
        #expect(again == v)
    }

    @Test("WAY-1 broken text is refused with the place it breaks", arguments: [
        (#"{"a":1,}"#, "expected a quoted key at byte 8"),
        (#"[1 2]"#, "expected ',' or ']' at byte 4"),
        (#""abc"#, "a string does not end at byte 5"),
        (#"[01]"#, "a number may not have a leading zero at byte 3"),
        (#"{"a":tru}"#, "unexpected character at byte 6"),
        (#"[1] 2"#, "text after the JSON value at byte 5"),
        (String(repeating: "[", count: 600), "nested more than 512 deep at byte 513"),
    ])
    func broken(text: String, message: String) {
        #expect(throws: (any Error).self) { try parse(text) }
        do { _ = try parse(text) } catch { #expect(String(describing: error) == message) }
    }
}
