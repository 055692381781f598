import Foundation

/// Reading an iCalendar file (RFC 5545) into Waymark's events (PLN-10). The file as a whole is
/// refused only when it is not iCalendar at all; any event Waymark cannot keep is skipped with a
/// reason a person can read, and everything done on their behalf (a zone inferred, a monthly
/// repeat added one occurrence at a time) is said in `notes`.
public struct CalendarImport: Hashable, Sendable {
    /// An event (or to-do, journal entry, …) that was not imported, and why.
    public struct Skip: Hashable, Sendable {
        /// The line of its BEGIN.
        public var line: Int
        public var uid: String?
        public var title: String?
        /// Plain English: "Lasts 3 days; Waymark's events last at most 24 hours."
        public var reason: String

        public init(line: Int, uid: String?, title: String?, reason: String) {
            self.line = line
            self.uid = uid
            self.title = title
            self.reason = reason
        }
    }

    /// X-WR-CALNAME (or RFC 7986's NAME) of the first calendar that has one.
    public var calendarName: String?
    public var events: [CalendarEvent]
    public var skipped: [Skip]
    /// Things done that are worth saying, in plain English.
    public var notes: [String]

    /// At most this many events come from one file: a user holds 2,000 events at most, and a
    /// hostile file must not make millions of expanded occurrences.
    public static let maximumEvents = 5_000
    /// A repeat Waymark cannot keep as a weekly one is added one occurrence at a time, up to
    /// this many (the latest ones) and up to `expansionYears` after now.
    public static let maximumExpanded = 500
    public static let expansionYears = 2
    /// An event with a time but no end (or an end equal to its start) takes no time by RFC 5545,
    /// but a Waymark event needs its start before its end and the planner needs a block to plan
    /// travel around: such an event is given 30 minutes, the shortest slot calendar apps show,
    /// and a note says so.
    public static let untimedMinutes = 30
    public static let titleLimit = 200
    public static let descriptionLimit = 2_000
    public static let locationLimit = 200
    public static let untitled = "Untitled event"

    public init(calendarName: String? = nil, events: [CalendarEvent] = [], skipped: [Skip] = [], notes: [String] = []) {
        self.calendarName = calendarName
        self.events = events
        self.skipped = skipped
        self.notes = notes
    }

    /// Reads a file. Times without a zone (floating) and all-day events are placed in
    /// `defaultZone`; repeats that must be expanded are expanded up to `now` plus two years.
    /// Throws `ICalendarError` only when the file as a whole cannot be read.
    public static func read(_ data: Data, defaultZone: TimeZone, now: Date) throws -> CalendarImport {
        var reader = CalendarReader(defaultZone: defaultZone, now: now)
        return try reader.read(data)
    }
}

/// The state of one import: zones worked out, notes said once, events made so far.
struct CalendarReader {
    let defaultZone: TimeZone
    let now: Date
    var resolver = ZoneResolver(vtimezones: [])
    var result = CalendarImport()
    /// Notes that are said once however often they apply, in the order they first did.
    var onceNotes: [String] = []
    var produced = 0

    init(defaultZone: TimeZone, now: Date) {
        self.defaultZone = defaultZone
        self.now = now
    }

    static let eventLike: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VAVAILABILITY"]

    mutating func read(_ data: Data) throws -> CalendarImport {
        if data.isEmpty { throw ICalendarError(line: nil, "The file is empty.") }
        let document = try ICalendarContent.parse(data)
        var calendars = document.components.filter { $0.name == "VCALENDAR" }
        let bare = calendars.isEmpty
        let loose = document.components.filter { Self.eventLike.contains($0.name) || $0.name == "VTIMEZONE" }
        if bare {
            guard loose.contains(where: { Self.eventLike.contains($0.name) }) else {
                throw ICalendarError(line: document.components.first?.line, "The file has no VCALENDAR, so it is not an iCalendar calendar.")
            }
            calendars = [ICalendarComponent(name: "VCALENDAR", components: loose, line: 1)]
            say("The file has no VCALENDAR around its events; they were read all the same.")
        }
        let looseLines = Set(loose.map(\.line))
        let strays = document.components.filter { bare ? !looseLines.contains($0.line) : $0.name != "VCALENDAR" }
        for c in strays.prefix(10) { say("Line \(c.line): a \(c.name) outside the calendar was left out.") }
        if strays.count > 10 { say("\(CalendarWords.number(strays.count - 10)) more components outside the calendar were left out.") }
        noteIgnoredLines(document.ignored)

        result.calendarName = calendars.lazy.compactMap { c in
            (c.property("X-WR-CALNAME") ?? c.property("NAME")).map { ICalendarText.unescaped($0.value).trimmingCharacters(in: .whitespacesAndNewlines) }
        }.first { !$0.isEmpty }
        resolver = ZoneResolver(vtimezones: calendars.flatMap { $0.components.filter { $0.name == "VTIMEZONE" } })

        var read: [ReadEvent] = []
        var leftOut: [String: Int] = [:]
        for calendar in calendars {
            for c in calendar.components {
                switch c.name {
                case "VEVENT":
                    switch readEvent(c) {
                    case .success(let e): read.append(e)
                    case .failure(let failure): result.skipped.append(failure.skip)
                    }
                case "VTODO": skipComponent(c, "A to-do, not an event.")
                case "VJOURNAL": skipComponent(c, "A journal entry, not an event.")
                case "VFREEBUSY": skipComponent(c, "Free and busy times, not an event.")
                case "VAVAILABILITY": skipComponent(c, "Times someone is available, not an event.")
                case "VTIMEZONE": break
                default: leftOut[c.name, default: 0] += 1
                }
            }
        }
        for (name, n) in leftOut.sorted(by: { $0.key < $1.key }) {
            say("Left out \(n == 1 ? "a" : CalendarWords.number(n)) \(name) component\(n == 1 ? "" : "s"), which Waymark does not read.")
        }
        assemble(read)
        result.notes = onceNotes + result.notes
        makeUIDsUnique()
        return result
    }

    /// Says a note once, however many events it applies to.
    mutating func say(_ note: String) {
        if !onceNotes.contains(note) { onceNotes.append(note) }
    }

    private mutating func noteIgnoredLines(_ ignored: [ICalendarDocument.IgnoredLine]) {
        for line in ignored.prefix(10) { say("Line \(line.line): \(line.reason)") }
        if ignored.count > 10 { say("\(CalendarWords.number(ignored.count - 10)) more lines that were not content lines were left out.") }
    }

    private mutating func skipComponent(_ c: ICalendarComponent, _ reason: String) {
        let title = c.property("SUMMARY").map { ICalendarText.unescaped($0.value).trimmingCharacters(in: .whitespacesAndNewlines) }
        result.skipped.append(.init(line: c.line, uid: c.property("UID")?.value.trimmingCharacters(in: .whitespaces),
                                    title: title?.isEmpty == false ? title : nil, reason: reason))
    }

    /// Generated UIDs (`<uid>#…`) can meet a UID the file already has: a suffix keeps each
    /// event's UID its own, so an export and a re-import find the same events.
    private mutating func makeUIDsUnique() {
        var seen: Set<String> = []
        for i in result.events.indices {
            var uid = result.events[i].uid
            var n = 2
            while seen.contains(uid) {
                uid = "\(result.events[i].uid)-\(n)"
                n += 1
            }
            seen.insert(uid)
            result.events[i].uid = uid
        }
    }
}
