import SQLKit

/// Many rows passed to one statement as a single JSON array bound once, and unpacked by the
/// database (`jsonb_each` in SQLite, which hands out each element parsed once;
/// `jsonb_array_elements` in PostgreSQL). The ingest path
/// writes thousands of rows a second: as a `VALUES` list every value was a bind of its own,
/// each encoded through the generic bind machinery and every statement text new to the
/// database, which together cost more CPU than SQLite's own work on the rows (profiled).
struct JSONRows {
    private var bytes: [UInt8] = [UInt8(ascii: "[")]
    private(set) var count = 0

    enum Value {
        case text(String)
        case int(Int64)
        case null
    }

    /// `bytes`: the expected size of the whole array, so that it is not copied as it grows.
    init(reservingBytes bytes: Int = 0) { self.bytes.reserveCapacity(bytes + 2) }

    mutating func append(_ values: Value...) {
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            switch value {
            case .text(let s): Self.appendQuoted(s, to: &bytes)
            case .int(let n): bytes.append(contentsOf: String(n).utf8)
            case .null: bytes.append(contentsOf: "null".utf8)
            }
        }
        bytes.append(UInt8(ascii: "]"))
        count += 1
    }

    /// The array as text, to be bound once.
    var json: String { String(decoding: bytes + [UInt8(ascii: "]")], as: UTF8.self) }

    /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped.
    /// Copied in runs between the bytes that need escaping: a payload is mostly such runs.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var start = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                // Byte by byte: an array literal here would allocate for every escape.
                out.append(UInt8(ascii: "\\"))
                if b < 0x20 {
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hexDigits[Int(b >> 4)])
                    out.append(hexDigits[Int(b & 0x0f)])
                } else {
                    out.append(b)
                }
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A subquery of one row per element with the given columns, and `n`, the element's
    /// position (order by it where order matters). `columns` name the positions; `bigint`
    /// marks those PostgreSQL must cast from text (SQLite keeps JSON integers as integers).
    func table(_ columns: [(name: String, bigint: Bool)], isPostgres: Bool) -> SQLQueryString {
        let list: String
        if isPostgres {
            list = columns.enumerated().map { i, c in c.bigint ? "(e->>\(i))::bigint AS \(c.name)" : "e->>\(i) AS \(c.name)" }
                .joined(separator: ", ")
            // The LIMIT (never reached) tells the planner how many rows come: it assumes 100 for
            // any set-returning function, and against a table of ten thousand spots that made
            // a scan of the whole table look cheaper than a few dozen index lookups (measured:
            // an ingest commit's read of 32 spots 0.80 ms that way, 0.19 ms with the index).
            return "(SELECT \(unsafeRaw: list), n FROM jsonb_array_elements(\(bind: json)::jsonb) WITH ORDINALITY AS t(e, n) LIMIT \(literal: count))"
        }
        list = columns.enumerated().map { i, c in "value->>\(i) AS \(c.name)" }.joined(separator: ", ")
        return "(SELECT \(unsafeRaw: list), key AS n FROM jsonb_each(\(bind: json)))"
    }
}
