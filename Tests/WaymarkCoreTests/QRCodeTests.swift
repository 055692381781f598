import Foundation
import Testing
import WaymarkCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// PLN-9: QR codes for tickets, made in WaymarkCore: the published examples byte for byte, then
/// a real reader (zbarimg, Debian's zbar-tools) decodes what we draw, for every version and level.
@Suite("QR codes (PLN-9)")
struct QRCodeTests {
    static let ticketTexts = [
        "K7Q2XD",
        "WAYMARK-TICKET:K7Q2XD;ATM Milano;2026-11-27T09:20+01:00",
        "Piazza Leonardo da Vinci – Milano ✓",
    ]

    @Test("PLN-9: the published HELLO WORLD 1-Q and ISO 01234567 1-M examples give their codewords exactly")
    func pln9PublishedExamples() throws {
        let hello = try QRCode(text: "HELLO WORLD", correction: .quartile)
        #expect(hello.version == 1 && hello.size == 21 && hello.mode == .alphanumeric)
        #expect(hello.codewords == [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236,
                                    168, 72, 22, 82, 217, 54, 156, 0, 46, 15, 180, 122, 16])
        let digits = try QRCode(text: "01234567", correction: .medium)
        #expect(digits.version == 1 && digits.mode == .numeric)
        #expect(digits.codewords == [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17,
                                     165, 36, 212, 193, 237, 54, 199, 135, 44, 85])
    }

    @Test("PLN-9: Reed–Solomon over GF(256) (0x11D) gives the published error-correction codewords")
    func pln9ReedSolomon() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236]
        #expect(QRCode.errorCorrection(for: data, count: 13) == [168, 72, 22, 82, 217, 54, 156, 0, 46, 15, 180, 122, 16])
        // A codeword sequence with its own check appended divides evenly: its check is all zero.
        let whole = data + QRCode.errorCorrection(for: data, count: 13)
        #expect(QRCode.errorCorrection(for: whole, count: 13) == Array(repeating: 0, count: 13))
    }

    @Test("PLN-9: format bits (BCH, XOR 0x5412) and version bits (BCH) match the standard's tables")
    func pln9FormatAndVersionBits() {
        #expect(QRCode.formatBits(correction: .medium, mask: 0) == 0b101010000010010)
        #expect(QRCode.formatBits(correction: .low, mask: 0) == 0b111011111000100)
        #expect(QRCode.formatBits(correction: .quartile, mask: 0) == 0b011010101011111)
        #expect(QRCode.formatBits(correction: .high, mask: 0) == 0b001011010001001)
        let all = QRCode.Correction.allCases.flatMap { level in (0..<8).map { QRCode.formatBits(correction: level, mask: $0) } }
        #expect(Set(all).count == 32 && all.allSatisfy { $0 > 0 && $0 < 1 << 15 })
        #expect(QRCode.versionBits(version: 7) == 0b000111110010010100)
        #expect(QRCode.versionBits(version: 8) == 0b001000010110111100)
        #expect(QRCode.versionBits(version: 40) == 0b101000110001101001)
    }

    @Test("PLN-9: capacities match the published ones (versions 1, 7, 10, 40; all modes and levels)")
    func pln9Capacities() {
        let levels = QRCode.Correction.allCases
        func capacities(_ version: Int, _ mode: QRCode.Mode) -> [Int] {
            levels.map { QRCode.capacity(version: version, correction: $0, mode: mode) }
        }
        #expect(capacities(1, .numeric) == [41, 34, 27, 17])
        #expect(capacities(1, .alphanumeric) == [25, 20, 16, 10])
        #expect(capacities(1, .byte) == [17, 14, 11, 7])
        #expect(capacities(7, .byte) == [154, 122, 86, 64])
        #expect(capacities(10, .byte) == [271, 213, 151, 119])
        #expect(capacities(40, .numeric) == [7089, 5596, 3993, 3057])
        #expect(capacities(40, .alphanumeric) == [4296, 3391, 2420, 1852])
        #expect(capacities(40, .byte) == [2953, 2331, 1663, 1273])
    }

    @Test("PLN-9: the densest mode the text allows and the smallest version; too long a text says how long may be")
    func pln9ModeVersionAndLimit() throws {
        let ticket = try QRCode(text: "K7Q2XD")
        #expect(ticket.mode == .alphanumeric && ticket.version == 1 && ticket.correction == .medium)
        #expect(try QRCode(text: "2026112709").mode == .numeric)
        #expect(try QRCode(text: "k7q2xd").mode == .byte)
        #expect(try QRCode(text: "Milano ✓").mode == .byte)
        #expect(try QRCode(text: String(repeating: "a", count: 2953), correction: .low).version == 40)
        #expect(throws: QRCode.Failure.tooLong(length: 2954, maximum: 2953, mode: .byte, correction: .low)) {
            try QRCode(text: String(repeating: "a", count: 2954), correction: .low)
        }
        #expect(throws: QRCode.Failure.tooLong(length: 3058, maximum: 3057, mode: .numeric, correction: .high)) {
            try QRCode(text: String(repeating: "7", count: 3058), correction: .high)
        }
        #expect(throws: QRCode.Failure.invalidMask(8)) { try QRCode(text: "K7Q2XD", correction: .low, mask: 8) }
        #expect(!ticket.isDark(x: -1, y: 0) && !ticket.isDark(x: 0, y: ticket.size) && ticket.isDark(x: 0, y: 0))
        #expect(ticket.modules.count == ticket.size * ticket.size)
    }

    @Test("PLN-9: ticket texts decode with a real reader at every correction level", .zbar,
          arguments: QRCodeTests.ticketTexts, QRCode.Correction.allCases)
    func pln9TicketTextsDecode(text: String, correction: QRCode.Correction) throws {
        let code = try QRCode(text: text, correction: correction)
        #expect(try Zbar.decodeText(code) == text)
    }

    /// For each version, a text exactly as long as the version holds at one level, and one
    /// character more. Level, mode and mask turn with the version; a fixed mask spares the
    /// search for the best one, which other tests cover.
    @Test("PLN-9: a text at the limit of each version 1–40 picks that version and decodes; one more character picks the next",
          .zbar, arguments: 1...40)
    func pln9VersionBoundaries(version: Int) throws {
        let correction = QRCode.Correction.allCases[(version - 1) % 4]
        let mode: QRCode.Mode = version % 5 == 0 ? .numeric : version % 5 == 3 ? .alphanumeric : .byte
        let length = QRCode.capacity(version: version, correction: correction, mode: mode)
        var random = SplitMix64(seed: UInt64(version))
        let alphabet: [Character] = switch mode {
        case .numeric: Array("0123456789")
        case .alphanumeric: Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        case .byte: Array("abcdefghijklmnopqrstuvwxyz0123456789;=?&/ -")
        }
        let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
        let code = try QRCode(text: text, correction: correction, mask: version % 8)
        #expect(code.version == version && code.mode == mode && code.size == 17 + 4 * version)
        #expect(try Zbar.decodeBytes(code, moduleSize: version > 20 ? 2 : 4) == Data(text.utf8))
        // The step up is one rule at every version, so it is checked where symbols are cheap to
        // build, across 26→27 and at the top.
        if version == 40 {
            #expect(throws: QRCode.Failure.self) { try QRCode(text: text + "7", correction: correction) }
        } else if version <= 12 || [26, 39].contains(version) {
            #expect(try QRCode(text: text + "7", correction: correction, mask: 0).version == version + 1)
        }
    }

    @Test("PLN-9: every one of the eight masks decodes", .zbar, arguments: 0..<8)
    func pln9EveryMaskDecodes(mask: Int) throws {
        let text = "WAYMARK-TICKET:K7Q2XD;ATM Milano;2026-11-27T09:20+01:00"
        let code = try QRCode(text: text, correction: .quartile, mask: mask)
        #expect(code.mask == mask)
        #expect(try Zbar.decodeText(code) == text)
    }

    @Test("PLN-9: the chosen mask is the one with the lowest penalty, so the same text always gives the same symbol")
    func pln9MaskIsStable() throws {
        let text = "WAYMARK-TICKET:K7Q2XD;ATM Milano;2026-11-27T09:20+01:00"
        let best = try QRCode(text: text, correction: .quartile)
        #expect(try QRCode(text: text, correction: .quartile) == best)
        #expect(try QRCode(text: text, correction: .quartile, mask: best.mask) == best)
    }

    @Test("PLN-9: the SVG is well-formed XML whose one path draws exactly the dark modules, with a label for screen readers")
    func pln9SVG() throws {
        let code = try QRCode(text: "WAYMARK-TICKET:K7Q2XD;ATM Milano;2026-11-27T09:20+01:00", correction: .medium)
        let label = #"Ticket K7Q2XD – "ATM" <Milano> & co"#
        let svg = code.svg(moduleSize: 5, quietZone: 4, label: label)
        let reader = SVGReader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "SVG does not parse: \(String(describing: parser.parserError))")
        #expect(reader.elements.map(\.name) == ["svg", "rect", "path"])
        let side = code.size + 8
        let root = reader.elements[0].attributes
        #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root["viewBox"] == "0 0 \(side) \(side)")
        #expect(root["width"] == "\(side * 5)" && root["height"] == "\(side * 5)")
        #expect(root["role"] == "img" && root["aria-label"] == label && root["shape-rendering"] == "crispEdges")
        #expect(reader.elements[1].attributes["fill"] == "#fff")

        // Each run is "M<x> <y>h<n>v1h-<n>z": fill every module it covers, once.
        var drawn = Array(repeating: false, count: side * side)
        let d = try #require(reader.elements[2].attributes["d"])
        for run in d.split(separator: "z") {
            let parts = run.dropFirst().split(separator: "h")
            let origin = parts[0].split(separator: " ").compactMap { Int($0) }
            let length = try #require(Int(parts[1].dropLast(2)))
            #expect(origin.count == 2 && parts[1].hasSuffix("v1") && parts[2] == "-\(length)")
            for x in origin[0]..<origin[0] + length {
                #expect(!drawn[origin[1] * side + x], "module drawn twice")
                drawn[origin[1] * side + x] = true
            }
        }
        let expected = (0..<side * side).map { code.isDark(x: $0 % side - 4, y: $0 / side - 4) }
        #expect(drawn == expected)
        #expect(drawn.filter { $0 }.count == code.modules.filter { $0 }.count)
        #expect(code.svg().contains(#"aria-label="QR code""#))
    }

    @Test("PLN-9: the PGM is a P5 image of the symbol with its quiet zone")
    func pln9PGM() throws {
        let code = try QRCode(text: "K7Q2XD")
        let image = code.pgm(moduleSize: 2, quietZone: 1)
        let side = (code.size + 2) * 2
        let header = Data("P5\n\(side) \(side)\n255\n".utf8)
        #expect(image.prefix(header.count) == header && image.count == header.count + side * side)
        let pixels = Array(image.dropFirst(header.count))
        #expect(pixels[0] == 255 && pixels[side * 2 + 2] == 0 && pixels[side * 3 + 3] == 0)
    }

    @Test("PLN-9: random texts of random lengths (ASCII and Unicode, seeded) decode to the same bytes", .zbar)
    func pln9RandomTextsDecode() throws {
        var random = SplitMix64(seed: 0x9_2026)
        let pool: [Character] = (0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) } + Array("àéèìòùßÄÖÜ–—€✓→日本語🚆🎟️")
        for _ in 0..<40 {
            let length = Int.random(in: 1...180, using: &random)
            let text = String((0..<length).map { _ in pool.randomElement(using: &random)! })
            let correction = QRCode.Correction.allCases.randomElement(using: &random)!
            let code = try QRCode(text: text, correction: correction)
            #expect(try Zbar.decodeBytes(code) == Data(text.utf8), "\(correction) v\(code.version): \(text)")
        }
    }
}

/// The elements of a parsed document, in order, with their attributes.
private final class SVGReader: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements.append((elementName, attributeDict))
    }
}

/// zbarimg, the reader of Debian's zbar-tools. CI installs it, so there a missing zbarimg fails
/// the tests; elsewhere they are skipped, and say why.
private enum Zbar {
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return directories.map { "\($0)/zbarimg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let inCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    struct Missing: Error, CustomStringConvertible {
        var description: String { "zbarimg is not installed: apt-get install zbar-tools" }
    }

    /// What zbar reads, as text (its own guess of the character set), without the newline it adds.
    static func decodeText(_ code: QRCode, moduleSize: Int = 4) throws -> String? {
        guard let output = try run(code, moduleSize: moduleSize, binary: false) else { return nil }
        let text = String(decoding: output, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// The bytes zbar reads, as they are in the symbol.
    static func decodeBytes(_ code: QRCode, moduleSize: Int = 4) throws -> Data? {
        try run(code, moduleSize: moduleSize, binary: true)
    }

    /// zbar's output for the code drawn as a PGM, or nil when it finds no code.
    private static func run(_ code: QRCode, moduleSize: Int, binary: Bool) throws -> Data? {
        guard let path else { throw Missing() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pln9-\(UUID().uuidString).pgm")
        try code.pgm(moduleSize: moduleSize).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--raw", "-q"] + (binary ? ["-Sbinary"] : []) + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }
}

private extension Trait where Self == ConditionTrait {
    /// Runs where zbarimg is installed, and always in CI, where a missing zbarimg is a failure.
    static var zbar: Self {
        .enabled(if: Zbar.path != nil || Zbar.inCI, "zbarimg (Debian zbar-tools) is not installed; outside CI these tests are skipped")
    }
}
