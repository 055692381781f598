import Foundation

/// The content-line layer of RFC 5545 (section 3.1): bytes to unfolded lines, lines to
/// name/parameters/value, and BEGIN/END lines to a tree. It knows nothing of events; the
/// reader of a calendar decides what the properties mean.
public enum ICalendarContent {
    /// Bounds against hostile or runaway files. A real calendar of a few thousand events is a
    /// few hundred kilobytes; these leave ample room while keeping work and memory small.
    public struct Limits: Hashable, Sendable {
        public var maximumBytes: Int
        public var maximumLines: Int
        public var maximumDepth: Int

        public init(maximumBytes: Int = 2 * 1_024 * 1_024, maximumLines: Int = 20_000, maximumDepth: Int = 10) {
            self.maximumBytes = maximumBytes
            self.maximumLines = maximumLines
            self.maximumDepth = maximumDepth
        }

        public static let standard = Limits()
    }

    /// One logical line: unfolded, with the number of the physical line it began on.
    struct Line {
        var number: Int
        var bytes: [UInt8]
    }

    /// Parses a whole file. Throws when the file is not UTF-8, is over a limit, or its
    /// BEGIN/END lines do not nest; lines that are not content lines are passed over and listed.
    public static func parse(_ data: Data, limits: Limits = .standard) throws -> ICalendarDocument {
        guard data.count <= limits.maximumBytes else {
            throw ICalendarError(line: nil, String(format: "The file is %.1f MB; ", Double(data.count) / 1_048_576)
                                 + "calendar files of at most \(megabytes(limits.maximumBytes)) can be read.")
        }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let bad = firstInvalidUTF8(bytes) {
            let line = bytes[..<bad].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ICalendarError(line: line, String(format: "The file is not UTF-8 text (byte 0x%02X); save it as UTF-8 and try again.", bytes[bad]))
        }
        let lines = try unfold(bytes, limits: limits)
        return try tree(lines, limits: limits)
    }

    /// The unfolded lines of a UTF-8 text: CRLF or LF (or, in a file with no LF at all, CR)
    /// ends a line, and a line starting with a space or tab continues the one before.
    static func unfold(_ bytes: [UInt8], limits: Limits) throws -> [Line] {
        let separator: UInt8 = bytes.contains(0x0A) || !bytes.contains(0x0D) ? 0x0A : 0x0D
        var out: [Line] = []
        var number = 0
        var start = 0
        while start < bytes.count {
            number += 1
            if number > limits.maximumLines {
                throw ICalendarError(line: nil, "The file has more than \(CalendarWords.number(limits.maximumLines)) lines; split it into smaller calendars.")
            }
            var end = bytes[start...].firstIndex(of: separator) ?? bytes.count
            let next = end + 1
            if separator == 0x0A, end > start, bytes[end - 1] == 0x0D { end -= 1 }
            let physical = bytes[start..<end]
            start = next
            if let first = physical.first, first == 0x20 || first == 0x09, !out.isEmpty {
                out[out.count - 1].bytes.append(contentsOf: physical.dropFirst())
            } else {
                out.append(Line(number: number, bytes: Array(physical)))
            }
        }
        return out
    }

    /// Builds the component tree from unfolded lines.
    static func tree(_ lines: [Line], limits: Limits) throws -> ICalendarDocument {
        var top: [ICalendarComponent] = []
        var stack: [ICalendarComponent] = []
        var ignored: [ICalendarDocument.IgnoredLine] = []
        for line in lines {
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard let property = property(line.bytes, line: line.number) else {
                let reason = line.bytes.first == 0x20 || line.bytes.first == 0x09
                    ? "A continued line with nothing before it was left out."
                    : "Not a content line (NAME:value); it was left out."
                ignored.append(.init(line: line.number, reason: reason))
                continue
            }
            switch property.name {
            case "BEGIN":
                let name = try componentName(property)
                guard stack.count < limits.maximumDepth else {
                    throw ICalendarError(line: line.number, "Components are nested more than \(limits.maximumDepth) deep.")
                }
                stack.append(ICalendarComponent(name: name, line: line.number))
            case "END":
                let name = try componentName(property)
                guard let open = stack.popLast() else {
                    throw ICalendarError(line: line.number, "END:\(name) has no BEGIN:\(name) before it.")
                }
                guard open.name == name else {
                    throw ICalendarError(line: line.number, "END:\(name) closes a \(open.name).")
                }
                if stack.isEmpty { top.append(open) } else { stack[stack.count - 1].components.append(open) }
            default:
                if stack.isEmpty {
                    ignored.append(.init(line: line.number, reason: "\(property.name) is outside any component; it was left out."))
                } else {
                    stack[stack.count - 1].properties.append(property)
                }
            }
        }
        if let open = stack.first {
            let last = stack.last!
            throw ICalendarError(line: last.line, "BEGIN:\(last.name) is never closed: the file ends first\(open.name == last.name ? "" : " (inside the \(open.name) begun on line \(open.line))").")
        }
        return ICalendarDocument(components: top, ignored: ignored)
    }

    private static func componentName(_ property: ICalendarProperty) throws -> String {
        let name = property.value.trimmingCharacters(in: .whitespaces).uppercased()
        guard !name.isEmpty, name.utf8.allSatisfy({ isNameByte($0) }) else {
            let shown = property.value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
            throw ICalendarError(line: property.line, "“\(shown.prefix(40))” is not a component name.")
        }
        return name
    }

    /// Splits one unfolded line into name, parameters and value; nil if it is not a content
    /// line. Quoted parameter values may hold `,` `;` and `:`; empty parameters are passed over.
    public static func property(_ text: String, line: Int = 0) -> ICalendarProperty? {
        property(Array(text.utf8), line: line)
    }

    static func property(_ b: [UInt8], line: Int) -> ICalendarProperty? {
        var i = 0
        while i < b.count, b[i] != 0x3B, b[i] != 0x3A { i += 1 }  // ; :
        guard i < b.count, let name = normalisedName(b[0..<i]) else { return nil }
        var parameters: [ICalendarParameter] = []
        while b[i] == 0x3B {
            i += 1
            let nameStart = i
            while i < b.count, b[i] != 0x3D, b[i] != 0x3B, b[i] != 0x3A { i += 1 }  // = ; :
            guard i < b.count else { return nil }
            let parameterName = normalisedName(b[nameStart..<i])
            guard b[i] == 0x3D else { continue }  // a name without a value, or an empty parameter
            var values: [String] = []
            repeat {
                i += 1
                if i < b.count, b[i] == 0x22 {
                    let from = i + 1
                    guard let close = b[from...].firstIndex(of: 0x22) else { return nil }
                    values.append(decodeCarets(String(decoding: b[from..<close], as: UTF8.self)))
                    i = close + 1
                    // Text after a closing quote up to the next delimiter is not allowed; skip it.
                    while i < b.count, b[i] != 0x2C, b[i] != 0x3B, b[i] != 0x3A { i += 1 }
                } else {
                    let from = i
                    while i < b.count, b[i] != 0x2C, b[i] != 0x3B, b[i] != 0x3A { i += 1 }
                    let text = String(decoding: b[from..<i], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    values.append(decodeCarets(text))
                }
                guard i < b.count else { return nil }
            } while b[i] == 0x2C
            if let parameterName { parameters.append(ICalendarParameter(name: parameterName, values: values)) }
        }
        let value = String(decoding: b[(i + 1)...], as: UTF8.self)
        return ICalendarProperty(name: name, parameters: parameters, value: value, line: line,
                                 raw: String(decoding: b, as: UTF8.self))
    }

    /// Upper-cased, whitespace removed; nil unless letters, digits, `-` and `_` remain.
    private static func normalisedName(_ bytes: ArraySlice<UInt8>) -> String? {
        let kept = bytes.filter { $0 != 0x20 && $0 != 0x09 }
        guard !kept.isEmpty, kept.allSatisfy(isNameByte) else { return nil }
        return String(decoding: kept, as: UTF8.self).uppercased()
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x2D || c == 0x5F
    }

    /// RFC 6868: `^n` is a newline, `^'` a double quote, `^^` a caret; any other caret stays.
    static func decodeCarets(_ text: String) -> String {
        guard text.contains("^") else { return text }
        var out = ""
        var it = text.makeIterator()
        while let c = it.next() {
            guard c == "^" else { out.append(c); continue }
            guard let n = it.next() else { out.append(c); break }
            switch n {
            case "n", "N": out.append("\n")
            case "'": out.append("\"")
            case "^": out.append("^")
            default: out.append(c); out.append(n)
            }
        }
        return out
    }

    /// The index of the first byte that breaks UTF-8 (overlong forms, surrogates and code
    /// points past U+10FFFF included), or nil when all of it is valid.
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= b.count else { return i }
            guard (low...high).contains(b[i + 1]) else { return i }
            for k in 2..<max(2, length) where !(0x80...0xBF).contains(b[i + k]) { return i }
            i += length
        }
        return nil
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576).replacingOccurrences(of: ".0 MB", with: " MB")
    }
}
