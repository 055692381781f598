import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension GPXDocument {
    /// Reads GPX 1.0 or 1.1. Refuses what is not well-formed XML, a root that is not `gpx`, and a
    /// point without a latitude and longitude on Earth or with an elevation or time that is not one.
    public static func read(_ data: Data) throws(GPXError) -> GPXDocument {
        let reader = GPXReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldProcessNamespaces = true
        let ok = parser.parse()
        if let failure = reader.failure { throw failure }
        guard ok, parser.parserError == nil else {
            // Parsers number their errors differently by platform; where reading stopped is the same.
            let code = (parser.parserError as NSError?).map { " (XML error \($0.code))" } ?? ""
            let place = reader.openElement.map { "reading stopped inside <\($0)>" } ?? "reading stopped before the first element"
            throw GPXError(line: parser.lineNumber, "the file is not well-formed XML: \(place)\(code)")
        }
        guard reader.sawRoot else { throw GPXError(line: nil, "the file has no gpx element") }
        guard reader.isClosed else { throw GPXError(line: parser.lineNumber, "the file ends before its <gpx> is closed") }
        return reader.document
    }
}

/// Builds a document from the parser's events. Unknown elements (extensions, links, fixes) are
/// passed over; only the parts Waymark keeps are read.
private final class GPXReader: NSObject, XMLParserDelegate {
    var document = GPXDocument()
    var failure: GPXError?
    var sawRoot = false
    var isClosed: Bool { path.isEmpty }
    var openElement: String? { path.last }

    private var path: [String] = []
    private var text = ""
    private var point: GPXDocument.Point?
    private var track: GPXDocument.Track?
    private var segment: [GPXDocument.Point]?
    private var route: GPXDocument.Route?

    private func fail(_ parser: XMLParser, _ rule: String) {
        guard failure == nil else { return }
        failure = GPXError(line: parser.lineNumber, rule)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if path.isEmpty {
            guard name == "gpx" else { return fail(parser, "the root element is <\(name)>, not <gpx>") }
            sawRoot = true
        }
        path.append(name)
        text = ""
        switch name {
        case "trk" where path.count == 2: track = GPXDocument.Track(segments: [])
        case "trkseg" where track != nil: segment = []
        case "rte" where path.count == 2: route = GPXDocument.Route(points: [])
        case "trkpt" where segment != nil, "rtept" where route != nil, "wpt" where path.count == 2:
            guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init) else {
                return fail(parser, "a <\(name)> needs numeric lat and lon attributes")
            }
            let coordinate = Coordinate(latitude: lat, longitude: lon)
            guard coordinate.isValid else { return fail(parser, "a <\(name)> at lat \(lat), lon \(lon) is not on Earth") }
            point = GPXDocument.Point(coordinate: coordinate)
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        // Some platforms' parsers recover from a misnested end tag; a GPX file must not need that.
        guard path.last == name else {
            return fail(parser, "the file is not well-formed XML (<\(path.last ?? "")> is closed by </\(name)>)")
        }
        defer {
            path.removeLast()
            text = ""
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        switch name {
        case "ele" where point != nil && !value.isEmpty:
            guard let metres = Double(value), metres.isFinite else { return fail(parser, "the elevation “\(value)” is not a number") }
            point?.elevation = metres
        case "time" where point != nil && !value.isEmpty:
            guard let time = GPXTime.parse(value) else { return fail(parser, "the time “\(value)” is not an ISO 8601 date and time") }
            point?.time = time
        case "name", "desc":
            let keep = value.isEmpty ? nil : value
            switch parent {
            case "trkpt", "rtept", "wpt": if name == "name" { point?.name = keep }
            case "trk": if name == "name" { track?.name = keep } else { track?.description = keep }
            case "rte": if name == "name" { route?.name = keep } else { route?.description = keep }
            case "metadata", "gpx": if name == "name" { document.name = keep } else { document.description = keep }
            default: break
            }
        case "trkpt":
            if let point { segment?.append(point) }
            point = nil
        case "rtept":
            if let point { route?.points.append(point) }
            point = nil
        case "wpt":
            if let point, path.count == 2 { document.waypoints.append(point) }
            point = nil
        case "trkseg":
            if let segment, !segment.isEmpty { track?.segments.append(segment) }
            segment = nil
        case "trk":
            if let track, !track.segments.isEmpty { document.tracks.append(track) }
            track = nil
        case "rte":
            if let route, !route.points.isEmpty { document.routes.append(route) }
            route = nil
        default: break
        }
    }
}

/// GPX times: ISO 8601 in UTC or with an offset, with any number of fractional digits, read;
/// UTC with milliseconds when there are any, written.
enum GPXTime {
    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    static func format(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let millis = (Int((date.timeIntervalSince1970 * 1000).rounded()) % 1000 + 1000) % 1000
        let whole = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        return whole + (millis == 0 ? "" : String(format: ".%03d", millis)) + "Z"
    }

    static func parse(_ text: String) -> Date? {
        let s = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= s.count else { return nil }
            var v = 0
            for c in s[at..<at + count] {
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard s.count >= 19, let year = digits(0, 4), s[4] == 45, let month = digits(5, 2), s[7] == 45, let day = digits(8, 2),
              s[10] == 84 || s[10] == 116, let hour = digits(11, 2), s[13] == 58, let minute = digits(14, 2), s[16] == 58,
              let second = digits(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < s.count && s[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < s.count, s[i] >= 48 && s[i] <= 57 {
                fraction += Double(s[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        var offset = 0
        if i < s.count {
            if s[i] == 90 || s[i] == 122 {
                i += 1
            } else if s[i] == 43 || s[i] == 45, let h = digits(i + 1, 2) {
                var m = 0
                var next = i + 3
                if next < s.count && s[next] == 58 { next += 1 }
                if next < s.count { guard let mm = digits(next, 2) else { return nil }; m = mm; next += 2 }
                offset = (h * 60 + m) * 60 * (s[i] == 45 ? -1 : 1)
                i = next
            } else {
                return nil
            }
        }
        guard i == s.count else { return nil }
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: date) == day
        else { return nil }
        return date.addingTimeInterval(fraction - Double(offset))
    }
}
