import Foundation

/// A comma-separated file read as RFC 4180 and the GTFS reference write it: UTF-8 with or without
/// a byte-order mark, CRLF or LF line ends, quoted fields with doubled quotes and line breaks
/// inside, and a last line with or without its line end. The first record names the columns
/// (trimmed); blank lines are skipped. Every row knows the line of the file it starts on (the
/// header is line 1), so a problem can name it.
///
/// The file is read once over its bytes and kept as one buffer with the byte range of every field;
/// a field becomes a `String` only when it is asked for, which keeps a 500,000-row `stop_times.txt`
/// to a few arrays instead of millions of strings.
public struct CSVTable: Sendable {
    /// Why a file could not be read as CSV at all.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var rule: String
        public init(line: Int, _ rule: String) { self.line = line; self.rule = rule }
        public var description: String { "line \(line): \(rule)" }
    }

    /// The column names of the first record, with surrounding spaces removed.
    public let header: [String]
    private let bytes: [UInt8]
    /// Two entries per field, start and end in `bytes`; a start below zero (`-start - 1`) marks a
    /// quoted field whose doubled quotes still have to be undone.
    private let spans: [Int32]
    /// Row `r`'s fields are `rowStarts[r] ..< rowStarts[r + 1]` (field numbers, not bytes).
    private let rowStarts: [Int32]
    private let rowLines: [Int32]

    /// The number of rows after the header.
    public var count: Int { rowLines.count }
    public var isEmpty: Bool { rowLines.isEmpty }

    public init(_ data: Data) throws(Failure) {
        try self.init(bytes: [UInt8](data))
    }

    public init(_ text: String) throws(Failure) {
        try self.init(bytes: Array(text.utf8))
    }

    init(bytes input: [UInt8]) throws(Failure) {
        // Offsets are kept in 32 bits; a GTFS file past 2 GB is not something to read into memory.
        guard input.count < Int(Int32.max) else { throw Failure(line: 1, "the file is larger than 2 GB") }
        var spans: [Int32] = []
        var rowStarts: [Int32] = []
        var rowLines: [Int32] = []
        spans.reserveCapacity(input.count / 4)
        rowStarts.reserveCapacity(input.count / 40)
        rowLines.reserveCapacity(input.count / 40)
        let parsed: Result<Void, Failure> = input.withUnsafeBufferPointer { p in
            let n = p.count
            let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
            var i = (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) ? 3 : 0
            var line = 1
            while i < n {
                // A blank line is no record.
                if p[i] == lf || p[i] == cr {
                    i += (p[i] == cr && i + 1 < n && p[i + 1] == lf) ? 2 : 1
                    line += 1
                    continue
                }
                rowStarts.append(Int32(spans.count / 2))
                rowLines.append(Int32(line))
                while true {
                    if i < n && p[i] == quote {
                        let opened = line
                        i += 1
                        let start = i
                        var escaped = false
                        var end = -1
                        while i < n {
                            let c = p[i]
                            if c == quote {
                                if i + 1 < n && p[i + 1] == quote { escaped = true; i += 2; continue }
                                end = i
                                i += 1
                                break
                            }
                            if c < 0x80 {
                                if c == lf || (c == cr && !(i + 1 < n && p[i + 1] == lf)) { line += 1 }
                                i += 1
                            } else {
                                guard let next = Self.utf8Sequence(p, i) else { return .failure(Failure(line: line, "the file is not UTF-8 (byte \(i + 1))")) }
                                i = next
                            }
                        }
                        if end < 0 { return .failure(Failure(line: opened, "a quoted field opened here is never closed")) }
                        spans.append(escaped ? Int32(-start - 1) : Int32(start))
                        spans.append(Int32(end))
                        if i < n && p[i] == comma { i += 1; continue }
                        if i < n && p[i] != lf && p[i] != cr {
                            return .failure(Failure(line: line, "text follows the closing quote of a field; a quote inside a field is written as two quotes"))
                        }
                    } else {
                        // An unquoted field runs to the next comma or line end; a stray quote in it is kept as text.
                        let start = i
                        while i < n {
                            let c = p[i]
                            if c == comma || c == lf || c == cr { break }
                            if c < 0x80 { i += 1; continue }
                            guard let next = Self.utf8Sequence(p, i) else { return .failure(Failure(line: line, "the file is not UTF-8 (byte \(i + 1))")) }
                            i = next
                        }
                        spans.append(Int32(start))
                        spans.append(Int32(i))
                        if i < n && p[i] == comma { i += 1; continue }
                    }
                    // The record ends at a line end or the end of the file.
                    if i < n {
                        i += (p[i] == cr && i + 1 < n && p[i + 1] == lf) ? 2 : 1
                        line += 1
                    }
                    break
                }
            }
            return .success(())
        }
        if case .failure(let failure) = parsed { throw failure }
        rowStarts.append(Int32(spans.count / 2))

        self.bytes = input
        self.spans = spans
        if rowLines.isEmpty {
            // Not even a header: an empty table, which the caller reports in its own words.
            self.header = []
            self.rowStarts = [0]
            self.rowLines = []
            return
        }
        let headerFields = Int(rowStarts[1])
        var names: [String] = []
        for f in 0..<headerFields { names.append(Self.text(input, spans, f).trimmingCharacters(in: .whitespaces)) }
        self.header = names
        self.rowStarts = Array(rowStarts.dropFirst())
        self.rowLines = Array(rowLines.dropFirst())
    }

    /// The end of the valid UTF-8 sequence that starts at `i`, or nil (overlong forms, surrogates
    /// and code points past U+10FFFF are refused, as Unicode says).
    @inline(__always)
    private static func utf8Sequence(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let n = p.count, b = p[i]
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool { k < n && p[k] >= lo && p[k] <= hi }
        switch b {
        case 0xC2...0xDF: return cont(i + 1) ? i + 2 : nil
        case 0xE0: return cont(i + 1, 0xA0) && cont(i + 2) ? i + 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return cont(i + 1) && cont(i + 2) ? i + 3 : nil
        case 0xED: return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? i + 3 : nil
        case 0xF0: return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? i + 4 : nil
        case 0xF1...0xF3: return cont(i + 1) && cont(i + 2) && cont(i + 3) ? i + 4 : nil
        case 0xF4: return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? i + 4 : nil
        default: return nil
        }
    }

    private static func text(_ bytes: [UInt8], _ spans: [Int32], _ field: Int) -> String {
        let rawStart = Int(spans[2 * field]), end = Int(spans[2 * field + 1])
        if rawStart >= 0 { return String(decoding: bytes[rawStart..<end], as: UTF8.self) }
        // Undo the doubled quotes of a quoted field.
        let start = -rawStart - 1
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            out.append(bytes[i])
            i += bytes[i] == UInt8(ascii: "\"") ? 2 : 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The position of a column by its name (the first, if the header repeats it).
    public func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    /// The line of the file row `row` starts on (the header is line 1).
    public func line(_ row: Int) -> Int { Int(rowLines[row]) }

    /// How many fields row `row` has (a well-formed file has as many as the header).
    public func fieldCount(_ row: Int) -> Int { Int(rowStarts[row + 1] - rowStarts[row]) }

    /// Field `column` of row `row` as written (quotes undone, nothing trimmed); empty when the
    /// row is shorter.
    public func value(_ row: Int, _ column: Int) -> String {
        let first = Int(rowStarts[row])
        guard column >= 0, column < Int(rowStarts[row + 1]) - first else { return "" }
        return Self.text(bytes, spans, first + column)
    }

    /// Whether field `column` of row `row` is empty or only spaces, without making a string.
    public func isBlank(_ row: Int, _ column: Int) -> Bool {
        var blank = true
        withBytes(row, column) { b in blank = b.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        return blank
    }

    /// The raw bytes of a field, for readers that parse numbers and times without a `String`.
    /// A quoted field with doubled quotes comes with them undone.
    func withBytes<R>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let first = Int(rowStarts[row])
        guard column >= 0, column < Int(rowStarts[row + 1]) - first else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let field = first + column
        let rawStart = Int(spans[2 * field]), end = Int(spans[2 * field + 1])
        if rawStart < 0 {
            let unquoted = Array(Self.text(bytes, spans, field).utf8)
            return unquoted.withUnsafeBufferPointer(body)
        }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[rawStart..<end])) }
    }

    public subscript(row: Int) -> Row { Row(table: self, index: row) }

    /// Every row, each as an array of its fields; for small files and tests.
    public var rows: [[String]] { (0..<count).map { Array(self[$0]) } }

    /// One record: its fields in order, and by column name.
    public struct Row: RandomAccessCollection, Sendable {
        let table: CSVTable
        let index: Int
        public var startIndex: Int { 0 }
        public var endIndex: Int { table.fieldCount(index) }
        public subscript(position: Int) -> String { table.value(index, position) }
        /// The line of the file the row starts on.
        public var line: Int { table.line(index) }
        /// The field under the column named `name`: nil when there is no such column, empty when
        /// the row is shorter than the header.
        public subscript(name: String) -> String? { table.column(name).map { table.value(index, $0) } }
    }
}
