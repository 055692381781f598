import Foundation

// MARK: - The reading

extension GTFSReader {
    /// One file's table with its columns by name, and field readers that trim spaces.
    struct Table {
        let name: String
        let csv: CSVTable
        let columns: [String: Int]

        var count: Int { csv.count }
        func line(_ row: Int) -> Int { csv.line(row) }
        func column(_ name: String) -> Int? { columns[name] }

        func text(_ row: Int, _ column: Int?) -> String {
            guard let column else { return "" }
            let value = csv.value(row, column)
            guard let first = value.utf8.first, let last = value.utf8.last else { return value }
            if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return value.trimmingCharacters(in: .whitespaces) }
            return value
        }

        enum Field<T> { case empty, value(T), invalid }

        /// Reads a field's bytes, spaces trimmed, without making a string: the hot path of stop_times.
        func parse<T>(_ row: Int, _ column: Int?, _ body: (UnsafeBufferPointer<UInt8>, Int, Int) -> T?) -> Field<T> {
            guard let column else { return .empty }
            return csv.withBytes(row, column) { b in
                var lo = 0, hi = b.count
                while lo < hi && (b[lo] == 0x20 || b[lo] == 0x09) { lo += 1 }
                while hi > lo && (b[hi - 1] == 0x20 || b[hi - 1] == 0x09) { hi -= 1 }
                if lo == hi { return .empty }
                return body(b, lo, hi).map { .value($0) } ?? .invalid
            }
        }

        /// `H:MM:SS` or `HH:MM:SS` in seconds; hours may pass 24 (service after midnight).
        func time(_ row: Int, _ column: Int?) -> Field<Int> {
            parse(row, column) { b, lo, hi in
                let n = hi - lo
                guard n >= 7, n <= 9, b[hi - 3] == 0x3A, b[hi - 6] == 0x3A else { return nil }
                var hours = 0
                for k in lo..<(hi - 6) {
                    guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                    hours = hours * 10 + Int(b[k] - 0x30)
                }
                func two(_ k: Int) -> Int? {
                    guard b[k] >= 0x30 && b[k] <= 0x39 && b[k + 1] >= 0x30 && b[k + 1] <= 0x39 else { return nil }
                    return Int(b[k] - 0x30) * 10 + Int(b[k + 1] - 0x30)
                }
                guard let minutes = two(hi - 5), let seconds = two(hi - 2), minutes < 60, seconds < 60 else { return nil }
                return hours * 3600 + minutes * 60 + seconds
            }
        }

        /// A whole number of at most nine digits, 0 or more.
        func natural(_ row: Int, _ column: Int?) -> Field<Int> {
            parse(row, column) { b, lo, hi in
                guard hi - lo <= 9 else { return nil }
                var value = 0
                for k in lo..<hi {
                    guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                    value = value * 10 + Int(b[k] - 0x30)
                }
                return value
            }
        }

        /// `YYYYMMDD`, a day the Gregorian calendar has.
        func date(_ row: Int, _ column: Int?) -> Field<TransitFeed.ServiceDate> {
            parse(row, column) { b, lo, hi in
                guard hi - lo == 8 else { return nil }
                var digits: [Int] = []
                for k in lo..<hi {
                    guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                    digits.append(Int(b[k] - 0x30))
                }
                let year = digits[0...3].reduce(0) { $0 * 10 + $1 }
                let month = digits[4] * 10 + digits[5], day = digits[6] * 10 + digits[7]
                guard (1...12).contains(month), day >= 1 else { return nil }
                let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
                let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
                return day <= days ? TransitFeed.ServiceDate(year: year, month: month, day: day) : nil
            }
        }

        func decimal(_ row: Int, _ column: Int?) -> Field<Double> {
            let value = text(row, column)
            if value.isEmpty { return .empty }
            guard let d = Double(value), d.isFinite else { return .invalid }
            return .value(d)
        }
    }

    struct RawStop {
        var id: String
        var name: String
        var position: Coordinate
        var type: Int
        var parent: String
        var line: Int
    }

    struct Reading {
        // The reader's own types, by their short names in the files that read each GTFS file.
        typealias Table = GTFSReader.Table
        typealias RawStop = GTFSReader.RawStop
        typealias Problem = GTFSReader.Problem

        let files: [String: Data]
        private(set) var problems: [Problem] = []
        private(set) var errors = 0
        private var listed: [String: Int] = [:]
        private var unlisted: [String: (errors: Int, warnings: Int)] = [:]
        /// Every service id the calendar files name, rows with other mistakes included, so one bad
        /// date is not echoed by every trip of its service.
        var serviceIds: Set<String> = []
        /// A broken file can repeat one mistake on every row; past this many, problems are counted, not listed.
        static let listedPerFile = 200

        init(files: [String: Data]) { self.files = files }

        mutating func report(_ severity: Problem.Severity = .error, _ file: String, _ row: Int?, _ field: String?, _ rule: String) {
            if severity == .error { errors += 1 }
            if listed[file, default: 0] < Self.listedPerFile {
                listed[file, default: 0] += 1
                problems.append(Problem(severity, file: file, row: row, field: field, rule: rule))
            } else {
                var more = unlisted[file, default: (0, 0)]
                if severity == .error { more.errors += 1 } else { more.warnings += 1 }
                unlisted[file] = more
            }
        }

        func finishedProblems() -> [Problem] {
            var all = problems
            for (file, more) in unlisted.sorted(by: { $0.key < $1.key }) {
                let total = more.errors + more.warnings
                all.append(Problem(more.errors > 0 ? .error : .warning, file: file,
                                   rule: "\(total) more problems like these (\(more.errors) errors, \(more.warnings) warnings) are not listed"))
            }
            return all
        }

        // MARK: Files

        /// The file's table when it is there, reads as CSV and has its required columns.
        mutating func load(_ name: String, columns required: [String], requiredFile: Bool) -> Table? {
            guard let data = files[name] else {
                if requiredFile {
                    // A zip made from a folder puts the files one level down; say so rather than only "missing".
                    if let nested = files.keys.sorted().first(where: { $0.hasSuffix("/" + name) }) {
                        report(.error, name, nil, nil, "the feed has no \(name) at its top level (there is \(nested)); the files must not be in a folder")
                    } else {
                        report(.error, name, nil, nil, "the feed has no \(name); it is required")
                    }
                }
                return nil
            }
            let csv: CSVTable
            do { csv = try CSVTable(data) } catch {
                report(.error, name, error.line, nil, error.rule)
                return nil
            }
            guard !csv.header.isEmpty else {
                report(.error, name, 1, nil, "the file is empty; its first line must name the columns")
                return nil
            }
            var columns: [String: Int] = [:]
            for (i, column) in csv.header.enumerated() {
                if columns[column] != nil {
                    report(.error, name, 1, column, "the column \(column) appears twice in the header")
                } else {
                    columns[column] = i
                }
            }
            var complete = true
            for column in required where columns[column] == nil {
                report(.error, name, 1, column, "the required column \(column) is missing")
                complete = false
            }
            guard complete else { return nil }
            let width = csv.header.count
            var short: [Int] = []
            for row in 0..<csv.count {
                let fields = csv.fieldCount(row)
                if fields < width {
                    short.append(row)
                } else if fields > width && (width..<fields).contains(where: { !csv.isBlank(row, $0) }) {
                    report(.error, name, csv.line(row), nil, "the row has \(fields) fields but the header has \(width) (an unquoted comma?)")
                }
            }
            // Trailing empty fields left off: common in older feeds, and a missing required
            // value is still an error of its own.
            if let first = short.first {
                let rows = short.count == 1 ? "this row has" : "this row and \(short.count - 1) more \(short.count == 2 ? "row" : "rows") have"
                report(.warning, name, csv.line(first), nil, "\(rows) fewer fields than the header's \(width); the missing ones are read as empty")
            }
            return Table(name: name, csv: csv, columns: columns)
        }

        // MARK: The feed

        mutating func run() -> TransitFeed? {
            let agencyTable = load("agency.txt", columns: ["agency_name", "agency_url", "agency_timezone"], requiredFile: true)
            let stopsTable = load("stops.txt", columns: ["stop_id", "stop_name", "stop_lat", "stop_lon"], requiredFile: true)
            let routesTable = load("routes.txt", columns: ["route_id", "route_type"], requiredFile: true)
            let tripsTable = load("trips.txt", columns: ["route_id", "service_id", "trip_id"], requiredFile: true)
            let stopTimesTable = load("stop_times.txt", columns: ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"],
                                      requiredFile: true)
            let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            let calendarTable = load("calendar.txt", columns: ["service_id"] + days + ["start_date", "end_date"], requiredFile: false)
            let calendarDatesTable = load("calendar_dates.txt", columns: ["service_id", "date", "exception_type"], requiredFile: false)
            if files["calendar.txt"] == nil && files["calendar_dates.txt"] == nil {
                report(.error, "calendar.txt", nil, nil, "the feed has neither calendar.txt nor calendar_dates.txt; one of them is required")
            }
            let frequenciesTable = load("frequencies.txt", columns: ["trip_id", "start_time", "end_time", "headway_secs"], requiredFile: false)
            let transfersTable = load("transfers.txt", columns: ["from_stop_id", "to_stop_id", "transfer_type"], requiredFile: false)

            let agencies = agencyTable.map { readAgencies($0) } ?? []
            let stops = stopsTable.map { readStops($0) }
            let routes = routesTable.map { readRoutes($0, agencies: agencyTable == nil ? nil : agencies) } ?? []
            let calendars = calendarTable.map { readCalendar($0, days: days) } ?? []
            let exceptions = calendarDatesTable.map { readCalendarDates($0) } ?? []
            // A service id is checked only when every calendar file the feed has could be read.
            let calendarsRead = (files["calendar.txt"] == nil || calendarTable != nil) && (files["calendar_dates.txt"] == nil || calendarDatesTable != nil)
                && (calendarTable != nil || calendarDatesTable != nil)
            let services: Set<String>? = calendarsRead ? serviceIds : nil
            let routeIds: Set<String>? = routesTable == nil ? nil : Set(routes.map(\.id))
            var trips = tripsTable.map { readTrips($0, routes: routeIds, services: services) } ?? []
            trips.sort { $0.id < $1.id }
            let tripIndex = Dictionary(trips.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
            let tripLines = tripsTable.map { t in Dictionary((0..<t.count).map { (t.text($0, t.column("trip_id")), t.line($0)) }, uniquingKeysWith: { a, _ in a }) } ?? [:]

            var stopTimes: [TransitFeed.StopTime] = []
            if let stopTimesTable {
                stopTimes = readStopTimes(stopTimesTable, trips: trips, tripIndex: tripsTable == nil ? nil : tripIndex, tripLines: tripLines, stops: stops)
            }
            let frequencies = frequenciesTable.map { readFrequencies($0, trips: tripsTable == nil ? nil : tripIndex) } ?? []
            let transfers = transfersTable.map { readTransfers($0, stops: stops, routes: routeIds, trips: tripsTable == nil ? nil : tripIndex) } ?? []

            guard errors == 0, let stops else { return nil }
            return TransitFeed(agencies: agencies, stops: stops.kept, routes: routes, trips: trips, stopTimes: stopTimes,
                               calendars: calendars, calendarDates: exceptions, frequencies: frequencies, transfers: transfers)
        }
    }
}
