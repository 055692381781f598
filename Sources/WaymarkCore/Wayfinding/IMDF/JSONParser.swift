import Foundation

/// A small JSON parser into `JSONValue` (RFC 8259). Foundation's parsers are either slow into
/// an enum (JSONDecoder) or round numbers differently on each platform (JSONSerialization);
/// this one reads numbers with Swift's correctly rounded `Double(_:)`, so a value read, written
/// and read again is the same value.
struct JSONParser {
    struct Failure: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at byte \(offset + 1)" }
    }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    static func parse(_ data: Data) throws(Failure) -> JSONValue {
        var p = JSONParser(data)
        // A byte-order mark is not JSON, but editors write one.
        if p.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        p.skipSpace()
        let v = try p.value()
        p.skipSpace()
        guard p.i == p.bytes.count else { throw p.fail("text after the JSON value") }
        return v
    }

    private func fail(_ message: String) -> Failure { Failure(message: message, offset: i) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard i < bytes.count else { throw fail("unexpected end of the text") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count else { throw fail("unexpected end of the text") }
        for k in w.indices where bytes[i + k] != w[k] { throw fail("unexpected character") }
        i += w.count
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= 512 else { throw fail("nested more than 512 deep") }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nest()
        i += 1
        var out: [String: JSONValue] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(out) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a quoted key") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
            i += 1
            skipSpace()
            out[key] = try value()
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of the text") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw fail("expected ',' or '}'")
        }
        depth -= 1
        return .object(out)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nest()
        i += 1
        var out: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(out) }
        while true {
            skipSpace()
            out.append(try value())
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of the text") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw fail("expected ',' or ']'")
        }
        depth -= 1
        return .array(out)
    }

    private mutating func number() throws(Failure) -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ i: inout Int, _ bytes: [UInt8]) -> Int {
            let s = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - s
        }
        let first = i
        guard digits(&i, bytes) > 0 else { throw fail("a number needs digits") }
        if bytes[first] == UInt8(ascii: "0"), i - first > 1 {
            throw Failure(message: "a number may not have a leading zero", offset: first + 1)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&i, bytes) > 0 else { throw fail("a number needs digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&i, bytes) > 0 else { throw fail("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw Failure(message: "number out of range", offset: start) }
        return d
    }

    private mutating func string() throws(Failure) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
            guard bytes[i] >= 0x20 else { throw fail("a control character inside a string") }
            i += 1
        }
        guard i < bytes.count else { throw fail("a string does not end") }
        if bytes[i] == UInt8(ascii: "\"") {
            i += 1
            return try utf8(bytes[start..<(i - 1)], at: start)
        }
        var out = [UInt8](bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; return try utf8(out[...], at: start) }
            guard b >= 0x20 else { throw fail("a control character inside a string") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            switch bytes[i] {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("a broken surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("a lone surrogate") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw fail("an unknown escape")
            }
            i += 1
        }
        throw fail("a string does not end")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 < bytes.count else { throw fail("a \\u escape needs four hex digits") }
        var v: UInt32 = 0
        for k in 1...4 {
            let c = bytes[i + k]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs four hex digits")
            }
            v = v << 4 | UInt32(d)
        }
        i += 4
        return v
    }

    private func utf8(_ slice: ArraySlice<UInt8>, at offset: Int) throws(Failure) -> String {
        guard let s = String(validating: slice, as: UTF8.self) else { throw Failure(message: "a string is not valid UTF-8", offset: offset) }
        return s
    }
}
