import Foundation

/// A generated GTFS static feed for Milan, the Planner demo's transit timetable (PLN-5).
///
/// The network is real in outline: metro lines M1 (Sesto 1° Maggio FS – Bisceglie), M2 (Cascina
/// Gobba – Famagosta) and M3 (Comasina – San Donato) through their stations at their real
/// positions, trams 33 and 19 past Politecnico's Leonardo campus, bus 92 past its Bovisa
/// campuses, and the suburban railway from Cadorna and through the Passante to Bovisa. The
/// timetable is made up: run times from the distance between stops at each mode's average speed,
/// and the headways of a weekday, a Saturday and a Sunday, with Italy's public holidays run as
/// Sundays. It names itself a demo and does not speak for any operator.
///
/// Some lines have every trip written out and others repeat one trip by frequencies.txt (with
/// exact times or not), so both ways of reading a timetable are used. The same dates always give
/// the same bytes.
public enum MilanTransit {
    /// The feed's files by name (agency.txt, stops.txt, …), as CSV the GTFS reference describes,
    /// with service from `validFrom` to `validTo`.
    public static func files(validFrom: TransitFeed.ServiceDate, validTo: TransitFeed.ServiceDate) -> [String: Data] {
        precondition(validFrom <= validTo, "the feed's first day \(validFrom) is after its last \(validTo)")
        let rows = rows()
        var files: [String: Data] = [:]
        files["agency.txt"] = csv(["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"], [
            [agencyId, "Milan demo transit (generated)", url, timeZone, "it"],
            [railAgencyId, "Milan demo suburban rail (generated)", url, timeZone, "it"],
        ])
        files["stops.txt"] = csv(["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station", "platform_code"],
                                 stops.map { s in
                                     [s.id, s.name, degrees(s.latitude), degrees(s.longitude), s.isStation ? "1" : "0", s.parent ?? "", s.platformCode ?? ""]
                                 })
        files["routes.txt"] = csv(["route_id", "agency_id", "route_short_name", "route_long_name", "route_desc", "route_type",
                                   "route_color", "route_text_color", "route_sort_order"],
                                  lines.enumerated().map { n, l in
                                      [l.routeId, l.agencyId, l.shortName, l.longName, l.description, String(l.routeType), l.colour, l.textColour, String(n + 1)]
                                  })
        files["trips.txt"] = csv(["route_id", "service_id", "trip_id", "trip_headsign", "direction_id"], rows.trips)
        files["stop_times.txt"] = csv(["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "timepoint"], rows.stopTimes)
        files["frequencies.txt"] = csv(["trip_id", "start_time", "end_time", "headway_secs", "exact_times"], rows.frequencies)
        let from = validFrom.description, to = validTo.description
        files["calendar.txt"] = csv(["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"], [
            ["WD", "1", "1", "1", "1", "1", "0", "0", from, to],
            ["SA", "0", "0", "0", "0", "0", "1", "0", from, to],
            ["SU", "0", "0", "0", "0", "0", "0", "1", from, to],
        ])
        let holidays = holidayExceptions(from: validFrom, to: validTo)
        if !holidays.isEmpty {
            files["calendar_dates.txt"] = csv(["service_id", "date", "exception_type"], holidays)
        }
        files["transfers.txt"] = csv(["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"],
                                     transfers.map { [$0.from, $0.to, "2", String($0.seconds)] })
        files["feed_info.txt"] = csv(["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date", "feed_version"], [
            ["Waymark demo data (generated)", url, "it", from, to, "milan-demo-\(from)-\(to)"],
        ])
        return files
    }

    /// The feed those files make, read by the project's own GTFS reader.
    public static func feed(validFrom: TransitFeed.ServiceDate, validTo: TransitFeed.ServiceDate) -> TransitFeed {
        let read = GTFSReader.read(files: files(validFrom: validFrom, validTo: validTo))
        let errors = read.problems.filter { $0.severity == .error }
        precondition(errors.isEmpty, "the generated Milan feed does not read: \(errors.prefix(5).map(\.description))")
        guard let feed = read.feed else { preconditionFailure("the generated Milan feed does not read") }
        return feed
    }

    static let url = "https://waymark.example/demo-transit"
    static let timeZone = "Europe/Rome"

    /// Six decimals, about 10 cm: as precise as the positions are meant.
    static func degrees(_ value: Double) -> String { String(format: "%.6f", value) }

    /// A CSV file: a header line, then a line per row, LF line ends, UTF-8 without a byte-order
    /// mark. A field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func csv(_ header: [String], _ rows: [[String]]) -> Data {
        var text = ""
        text.reserveCapacity(64 * (rows.count + 1))
        for row in [header] + rows {
            precondition(row.count == header.count, "a row of \(row.count) fields under a header of \(header.count)")
            text += row.map(field).joined(separator: ",")
            text += "\n"
        }
        return Data(text.utf8)
    }

    private static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
