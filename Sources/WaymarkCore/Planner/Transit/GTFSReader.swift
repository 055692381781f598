import Foundation

/// Reads a GTFS static feed into a `TransitFeed` and checks it against the GTFS reference (PLN-5).
///
/// Every problem names the file, the row (the line of the file, the header being line 1), the
/// field and the rule. An import replaces the old timetable at once, so a half-read feed is worse
/// than none: any error in the data the planner uses refuses the whole feed (`feed` is nil).
/// Warnings are for what the planner does not use or can read in a sensible way anyway (an
/// extended route type with no mode of its own, an in-seat transfer, a malformed entrance); they
/// come with a usable feed.
///
/// What is kept:
/// - `stops` holds the stops and platforms (`location_type` 0 or empty), where people board, and
///   the stations (type 1) that one of them names as its `parent_station`, so that reference
///   resolves; entrances, generic nodes and boarding areas (2, 3, 4) are checked lightly and left
///   out, as are stations no stop belongs to.
/// - `trips` are sorted by id and `stopTimes` by trip in that order, then by `stop_sequence`.
/// - Stop times without times between two timed ones get times by straight-line distance between
///   the stops (arrival and departure the same).
/// - A transfer naming a station applies to each of its stops and platforms, as the reference
///   says; a transfer between the stops themselves wins over one derived from a station.
/// - Unknown files and columns are ignored.
public enum GTFSReader {
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public enum Severity: String, Hashable, Sendable, Codable {
            /// The feed is refused.
            case error
            /// The feed is usable; something in it was read in a particular way or left out.
            case warning
        }

        public var severity: Severity
        public var file: String
        /// The line of the file the row starts on (the header is line 1); nil for the file as a whole.
        public var row: Int?
        public var field: String?
        public var rule: String

        public init(_ severity: Severity = .error, file: String, row: Int? = nil, field: String? = nil, rule: String) {
            self.severity = severity; self.file = file; self.row = row; self.field = field; self.rule = rule
        }

        /// "stop_times.txt row 14, arrival_time: '25:61:00' is not a time (H:MM:SS)".
        public var description: String {
            var text = file
            if let row { text += " row \(row)" }
            if let field { text += ", \(field)" }
            text += ": " + rule
            return severity == .warning ? "warning: " + text : text
        }
    }

    /// Reads a feed from its files by name ("stops.txt", …), as a zip or a folder holds them.
    public static func read(files: [String: Data]) -> (feed: TransitFeed?, problems: [Problem]) {
        var reading = Reading(files: files)
        let feed = reading.run()
        return (reading.errors == 0 ? feed : nil, reading.finishedProblems())
    }

    /// The mode a `route_type` is read as, and a warning when the reading is a guess.
    ///
    /// The basic types (0–7, 11, 12) map one to one. The extended types (Google's proposal, after
    /// the European TPEG hierarchical vehicle types) map by their hundreds: 100 railway, 300
    /// suburban railway → rail; 200 coach, 700 bus → bus; 400 urban railway, 500 metro, 600
    /// underground → metro, except 405 → monorail; 800 → trolleybus; 900 → tram; 1000 water
    /// transport, 1200 ferry → ferry; 1300 aerial lift → aerialLift; 1400 → funicular. 1100 air,
    /// 1500 taxi, 1600 self drive and 1700 miscellaneous have no mode here and are read as bus with
    /// a warning, since they still run to a timetable; a code the table does not define (say 118)
    /// is read by its hundred, with a warning. Anything else is no route type (nil).
    static func mode(routeType type: Int) -> (mode: TransitFeed.Mode, warning: String?)? {
        switch type {
        case 0: return (.tram, nil)
        case 1: return (.metro, nil)
        case 2: return (.rail, nil)
        case 3: return (.bus, nil)
        case 4: return (.ferry, nil)
        case 5: return (.cableTram, nil)
        case 6: return (.aerialLift, nil)
        case 7: return (.funicular, nil)
        case 11: return (.trolleybus, nil)
        case 12: return (.monorail, nil)
        case 100...1799: break
        default: return nil
        }
        if type == 405 { return (.monorail, nil) }
        let byHundred: [Int: TransitFeed.Mode] = [
            100: .rail, 200: .bus, 300: .rail, 400: .metro, 500: .metro, 600: .metro, 700: .bus, 800: .trolleybus,
            900: .tram, 1000: .ferry, 1200: .ferry, 1300: .aerialLift, 1400: .funicular,
        ]
        let hundred = type / 100 * 100
        guard let mode = byHundred[hundred] else {
            let kind = [1100: "air service", 1500: "taxi", 1600: "self drive", 1700: "miscellaneous service"][hundred] ?? "service"
            return (.bus, "route_type \(type) (\(kind)) has no mode of its own; read as bus")
        }
        if definedExtendedTypes.contains(where: { $0.contains(type) }) { return (mode, nil) }
        return (mode, "route_type \(type) is not a defined extended type; read as \(mode.rawValue) by its hundred")
    }

    /// The extended route types the proposal defines, in the hundreds that have a mode.
    private static let definedExtendedTypes: [ClosedRange<Int>] = [
        100...117, 200...209, 300...300, 400...405, 500...500, 600...600, 700...716, 800...800, 900...906,
        1000...1000, 1200...1200, 1300...1307, 1400...1400,
    ]
}

extension [GTFSReader.Problem] {
    /// "1. stops.txt row 4, stop_lat: …", one line per problem, numbered from 1.
    public var numbered: [String] { enumerated().map { "\($0.offset + 1). \($0.element)" } }
}
