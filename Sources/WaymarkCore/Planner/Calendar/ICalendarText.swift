import Foundation

/// TEXT values (RFC 5545, 3.3.11) and the shape of written lines (3.1): escaping, folding,
/// and quoting of parameter values.
public enum ICalendarText {
    /// A TEXT value as a person reads it: `\n` or `\N` is a newline; `\,` `\;` `\\` are the
    /// character itself. A backslash before anything else is dropped (some writers escape
    /// quotes and colons), and a lone backslash at the end is kept.
    public static func unescaped(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count)
        var it = value.makeIterator()
        while let c = it.next() {
            guard c == "\\" else { out.append(c); continue }
            guard let n = it.next() else { out.append(c); break }
            out.append(n == "n" || n == "N" ? "\n" : n)
        }
        return out
    }

    /// Text as a TEXT value: backslash, semicolon, comma and newline escaped; carriage
    /// returns and other control characters (which TEXT may not hold) left out, tabs kept.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The values of a TEXT list (CATEGORIES, or several EXDATEs on one line): split at commas
    /// that are not escaped. The parts stay escaped.
    public static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for c in value {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" { current.append(c); escaped = true; continue }
            if c == "," { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        return parts
    }

    /// A line folded so that no physical line is longer than 75 octets (CRLF not counted),
    /// continuation lines starting with a space. It breaks between characters as a person sees
    /// them where it can (so an accent or emoji variation stays with its letter), and never
    /// inside a UTF-8 sequence.
    public static func fold(_ line: String, width: Int = 75) -> String {
        guard line.utf8.count > width else { return line }
        var out = ""
        var used = 0
        var limit = width
        func append(_ piece: String, size: Int) {
            if used + size > limit {
                out += "\r\n "
                used = 0
                limit = width - 1
            }
            out += piece
            used += size
        }
        for character in line {
            let size = character.utf8.count
            if size <= width - 1 {
                append(String(character), size: size)
            } else {
                // A character longer than a line (a long run of combining marks): by scalars.
                for scalar in character.unicodeScalars { append(String(scalar), size: UTF8.width(scalar)) }
            }
        }
        return out
    }

    /// A parameter value, quoted when it holds `,` `;` or `:`; a double quote, which cannot be
    /// quoted, and control characters are encoded the RFC 6868 way.
    public static func parameterValue(_ value: String) -> String {
        var text = ""
        for c in value {
            switch c {
            case "^": text += "^^"
            case "\"": text += "^'"
            case "\n", "\r\n": text += "^n"
            default:
                if c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) { text.append(c) }
            }
        }
        return text.contains(where: { $0 == "," || $0 == ";" || $0 == ":" }) ? "\"\(text)\"" : text
    }
}
