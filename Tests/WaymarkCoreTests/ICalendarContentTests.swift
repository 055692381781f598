import Foundation
import Testing
import WaymarkCore

/// PLN-10: the content-line layer — unfolding, parameters, nesting, limits against hostile
/// files, TEXT escaping and folding — and that no input, however broken, crashes the reader.
@Suite("iCalendar content lines (PLN-10)")
struct ICalendarContentTests {
    @Test("PLN-10: a BOM, CRLF or LF line ends and folded lines (space or tab) are read as one")
    func pln10Unfolding() throws {
        let text = "\u{FEFF}BEGIN:VCALENDAR\r\nX-A:one\r\n  two\nX-B:th\n\tree\r\nEND:VCALENDAR"
        let doc = try ICalendarContent.parse(Data(text.utf8))
        let calendar = try #require(doc.components.first)
        #expect(calendar.name == "VCALENDAR" && doc.components.count == 1)
        #expect(calendar.properties.map(\.value) == ["one two", "three"])
        #expect(calendar.properties.map(\.line) == [2, 4])
        #expect(calendar.properties[0].raw == "X-A:one two")
        // Old Mac files end lines with CR alone.
        let mac = try ICalendarContent.parse(Data("BEGIN:VCALENDAR\rX-A:1\r END\rEND:VCALENDAR\r".utf8))
        #expect(mac.components.first?.properties.map(\.value) == ["1END"])
    }

    @Test("PLN-10: parameters: quoted values holding , ; and :, several values, RFC 6868 carets, stray whitespace")
    func pln10Parameters() throws {
        let p = try #require(ICalendarContent.property(
            "attendee;Delegated-To=\"mailto:a@x.org\",\"mailto:b@x.org\";CN=\"Doe, Jane; PhD: \"\"\";X-Q=^'Babe^' ^^ ^n;;EMPTY=:mailto:jd@x.org"))
        #expect(p.name == "ATTENDEE" && p.value == "mailto:jd@x.org")
        #expect(p.parameters.map(\.name) == ["DELEGATED-TO", "CN", "X-Q", "EMPTY"])
        #expect(p.parameters[0].values == ["mailto:a@x.org", "mailto:b@x.org"])
        #expect(p.parameter("cn") == "Doe, Jane; PhD: ")
        #expect(p.parameter("X-Q") == "\"Babe\" ^ \n")
        let spaced = try #require(ICalendarContent.property("REFRESH - INTERVAL; VALUE = DURATION:PT48H"))
        #expect(spaced.name == "REFRESH-INTERVAL" && spaced.parameter("VALUE") == "DURATION" && spaced.value == "PT48H")
        #expect(ICalendarContent.property("SUMMARY;CN=\"unterminated:value") == nil)
        #expect(ICalendarContent.property("X-APPLE-RADIUS=49.9") == nil)
        #expect(ICalendarContent.property("SUMMARY:a:b:c")?.value == "a:b:c")
        #expect(ICalendarProperty.contentLine(name: "X", parameters: [.init(name: "CN", values: ["a,b", "say \"hi\""])], value: "v")
                == "X;CN=\"a,b\",say ^'hi^':v")
    }

    @Test("PLN-10: BEGIN and END must nest; a mismatch says the line and what it closes")
    func pln10Nesting() {
        func parse(_ lines: String...) throws { _ = try ICalendarContent.parse(Data(lines.joined(separator: "\r\n").utf8)) }
        #expect(throws: ICalendarError(line: 4, "END:VEVENT closes a VTODO.")) {
            try parse("BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:x", "END:VEVENT", "END:VCALENDAR")
        }
        #expect(throws: ICalendarError(line: 1, "END:VEVENT has no BEGIN:VEVENT before it.")) { try parse("END:VEVENT") }
        #expect(throws: ICalendarError(line: 2, "BEGIN:VEVENT is never closed: the file ends first (inside the VCALENDAR begun on line 1).")) {
            try parse("BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:x")
        }
        #expect(throws: ICalendarError(line: 1, "“V EVENT?” is not a component name.")) { try parse("BEGIN:V EVENT\u{1}", "END:V EVENT") }
        #expect((try? ICalendarContent.parse(Data("begin:vcalendar\nEnd:VCalendar\n".utf8)))?.components.first?.name == "VCALENDAR")
    }

    @Test("PLN-10: limits: size, line count and nesting depth are refused with a reason, never exhausted")
    func pln10Limits() throws {
        let big = Data(repeating: 0x41, count: 2 * 1_024 * 1_024 + 1)
        #expect(throws: ICalendarError(line: nil, "The file is 2.0 MB; calendar files of at most 2 MB can be read.")) {
            try CalendarImport.read(big, defaultZone: ICal.rome, now: ICal.now)
        }
        let manyLines = Data(String(repeating: "X:1\n", count: 20_001).utf8)
        #expect(throws: ICalendarError(line: nil, "The file has more than 20,000 lines; split it into smaller calendars.")) {
            try ICalendarContent.parse(manyLines)
        }
        func nested(_ depth: Int) -> Data {
            Data(((0..<depth).map { "BEGIN:X\($0)" } + (0..<depth).reversed().map { "END:X\($0)" }).joined(separator: "\n").utf8)
        }
        _ = try ICalendarContent.parse(nested(10))
        #expect(throws: ICalendarError(line: 11, "Components are nested more than 10 deep.")) { try ICalendarContent.parse(nested(11)) }
        // One huge line within the size limit: read in time, the title shortened.
        let huge = ICal.calendar("BEGIN:VEVENT", "UID:h", "SUMMARY:" + String(repeating: "ab ", count: 600_000),
                                 "DTSTART:20261201T090000Z", "DURATION:PT1H", "END:VEVENT")
        let clock = ContinuousClock.now
        let r = try ICal.read(huge)
        #expect(r.events.first?.title.count == 200)
        #expect(ContinuousClock.now - clock < .seconds(5))
    }

    @Test("PLN-10: text that is not UTF-8 is refused with its line, not misread")
    func pln10InvalidUTF8() {
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Caf".utf8)
        bytes.append(0xE9)  // Latin-1 "é"
        bytes += Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        #expect(throws: ICalendarError(line: 3, "The file is not UTF-8 text (byte 0xE9); save it as UTF-8 and try again.")) {
            try CalendarImport.read(Data(bytes), defaultZone: ICal.rome, now: ICal.now)
        }
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            #expect(throws: ICalendarError.self) { try ICalendarContent.parse(Data(Array("X:".utf8) + bad)) }
        }
    }

    @Test("PLN-10: TEXT escaping of backslash, semicolon, comma and newline reads back the same")
    func pln10Escaping() {
        let text = "Lunch; with Ana, Bo\\Co\nsecond line\r\nthird"
        let escaped = ICalendarText.escaped(text)
        #expect(escaped == "Lunch\\; with Ana\\, Bo\\\\Co\\nsecond line\\nthird")
        #expect(ICalendarText.unescaped(escaped) == "Lunch; with Ana, Bo\\Co\nsecond line\nthird")
        #expect(ICalendarText.unescaped("a\\Nb\\,c\\;d\\\\e\\\"f\\") == "a\nb,c;d\\e\"f\\")
        #expect(ICalendarText.escaped("bell\u{7}tab\t") == "belltab\t")
        #expect(ICalendarText.splitList("a\\,b,c,,d") == ["a\\,b", "c", "", "d"])
    }

    @Test("PLN-10: a long Unicode line is folded at 75 octets without splitting a character, and unfolds back")
    func pln10Folding() throws {
        let base = "SUMMARY:" + String(repeating: "Caffè ☕️ 東京 😀 Zürich ", count: 12)
        for shift in 0..<8 {
            let line = String(repeating: "x", count: shift) + base
            let folded = ICalendarText.fold(line)
            let physical = folded.components(separatedBy: "\r\n")
            #expect(physical.count > 1)
            for (i, part) in physical.enumerated() {
                #expect(part.utf8.count <= 75)
                #expect(String(validating: Array(part.utf8), as: UTF8.self) != nil)
                // Continued after a space, and never with an accent or variation selector cut off its letter.
                if i > 0 { #expect(part.utf8.first == 0x20 && part.unicodeScalars.dropFirst().first?.properties.isGraphemeExtend != true) }
            }
            let doc = try ICalendarContent.parse(Data(("BEGIN:X\r\n" + folded + "\r\nEND:X\r\n").utf8))
            #expect(doc.components[0].properties[0].raw == line)
        }
        #expect(ICalendarText.fold("SHORT:line") == "SHORT:line")
        // A letter with its accents stays whole; one longer than a line is split between scalars.
        let accented = "X:" + String(repeating: "e\u{301}", count: 40)
        #expect(ICalendarText.fold(accented).components(separatedBy: "\r\n").allSatisfy { $0.unicodeScalars.first != "\u{301}" && $0.utf8.count <= 75 })
        let zalgo = "X:a" + String(repeating: "\u{301}", count: 60)
        #expect(ICalendarText.fold(zalgo).components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }

    @Test("PLN-10: random bytes and mangled calendars never crash the reader: it returns or throws ICalendarError")
    func pln10RandomInput() throws {
        // WaymarkCore's seeded generator: the same inputs on every run.
        var random = SplitMix64(seed: 20_261_127)
        func below(_ rng: inout SplitMix64, _ n: Int) -> Int { n <= 0 ? 0 : Int(rng.next() % UInt64(n)) }
        let valid = Array(ICal.calendar(
            "BEGIN:VTIMEZONE", "TZID:Custom", "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000",
            "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
            "BEGIN:VEVENT", "UID:a", "SUMMARY:A\\, b", "DTSTART;TZID=Custom:20261201T090000", "DTEND;TZID=Custom:20261201T100000",
            "RRULE:FREQ=MONTHLY;BYDAY=-1FR;BYSETPOS=1;UNTIL=20281231T000000Z", "EXDATE:20261225T080000Z", "RDATE;VALUE=PERIOD:20261203T100000Z/PT1H",
            "BEGIN:VALARM", "TRIGGER:-PT5M", "END:VALARM", "END:VEVENT",
            "BEGIN:VEVENT", "UID:a", "RECURRENCE-ID;TZID=Custom:20261225T090000", "DTSTART;VALUE=DATE:20261226", "END:VEVENT").utf8)
        let alphabet = Array("BEGIN:END:VEVENT;=,\"\\:TZID=RRULE:FREQ=DAILY;COUNT=0123456789TZ\r\n \t-+P".utf8)
        let clock = ContinuousClock.now
        for round in 0..<600 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0: bytes = (0..<below(&random, 400)).map { _ in UInt8(below(&random, 256)) }
            case 1: bytes = (0..<below(&random, 600)).map { _ in alphabet[below(&random, alphabet.count)] }
            default:
                bytes = valid
                for _ in 0..<(1 + below(&random, 8)) {
                    let i = below(&random, bytes.count)
                    switch below(&random, 4) {
                    case 0: bytes[i] = alphabet[below(&random, alphabet.count)]
                    case 1: bytes.remove(at: i)
                    case 2: bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + below(&random, 40))], at: i)
                    default: bytes[i] = UInt8(below(&random, 256))
                    }
                }
            }
            do {
                let r = try CalendarImport.read(Data(bytes), defaultZone: ICal.rome, now: ICal.now)
                // What was read can always be written and read again.
                _ = try CalendarImport.read(Data(CalendarExport.write(name: "x", events: r.events, now: ICal.now).utf8),
                                            defaultZone: ICal.rome, now: ICal.now)
            } catch is ICalendarError {
            }
        }
        #expect(ContinuousClock.now - clock < .seconds(60))
    }
}
