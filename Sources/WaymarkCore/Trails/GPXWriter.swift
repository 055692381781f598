import Foundation

extension GPXDocument {
    /// GPX 1.1, elements in the order its schema asks for, text escaped; times in UTC.
    public func gpx(creator: String = "Waymark") -> Data {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<gpx version="1.1" creator="\#(XMLText.escaped(creator))" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        if name != nil || description != nil {
            out += "  <metadata>" + Self.element("name", name) + Self.element("desc", description) + "</metadata>\n"
        }
        for w in waypoints { out += "  " + Self.point("wpt", w) + "\n" }
        for route in routes {
            out += "  <rte>" + Self.element("name", route.name) + Self.element("desc", route.description) + "\n"
            for p in route.points { out += "    " + Self.point("rtept", p) + "\n" }
            out += "  </rte>\n"
        }
        for track in tracks {
            out += "  <trk>" + Self.element("name", track.name) + Self.element("desc", track.description) + "\n"
            for segment in track.segments {
                out += "    <trkseg>\n"
                for p in segment { out += "      " + Self.point("trkpt", p) + "\n" }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        out += "</gpx>\n"
        return Data(out.utf8)
    }

    private static func point(_ tag: String, _ p: Point) -> String {
        var s = "<\(tag) lat=\"\(degrees(p.coordinate.latitude))\" lon=\"\(degrees(p.coordinate.longitude))\">"
        if let e = p.elevation { s += "<ele>\(String(format: "%.2f", e))</ele>" }
        if let t = p.time { s += "<time>\(GPXTime.format(t))</time>" }
        s += element("name", p.name)
        return s + "</\(tag)>"
    }

    /// Seven decimals: about a centimetre, finer than any receiver.
    private static func degrees(_ v: Double) -> String {
        var s = String(format: "%.7f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    private static func element(_ tag: String, _ value: String?) -> String {
        guard let value else { return "" }
        return "<\(tag)>\(XMLText.escaped(value))</\(tag)>"
    }
}
