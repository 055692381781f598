import Foundation
import Testing
@testable import WaymarkCore

/// TRL-1: GPX tracks and routes read as a careful hiking app reads them, and written back as GPX 1.1.
@Suite("Trails: GPX (TRL-1)")
struct TrailsGPXTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gpx/\(name)"))
    }

    @Test("TRL-1: a recorded GPX 1.0 track reads with every point's position, elevation and time")
    func trl1ReadsTrack() throws {
        let doc = try GPXDocument.read(Self.fixture("Mojstrovka.gpx"))
        #expect(doc.tracks.count == 1 && doc.routes.isEmpty)
        let points = doc.tracks[0].points
        #expect(points.count == 184)
        #expect(points.allSatisfy { $0.elevation != nil && $0.time != nil })
        #expect(points[0].coordinate == Coordinate(latitude: 46.434981, longitude: 13.748273))
        #expect(points[0].elevation == 1614.678)
    }

    @Test("TRL-1: a planned route reads as a route, waypoints as waypoints, empty tracks are dropped")
    func trl1ReadsRouteAndWaypoints() throws {
        let route = try GPXDocument.read(Self.fixture("route.gpx"))
        #expect(route.tracks.isEmpty && route.routes.count == 1)
        #expect(route.routes[0].points.count == 55)
        #expect(route.routes[0].points[0].name == "#001")
        let lake = try GPXDocument.read(Self.fixture("cerknicko-jezero.gpx"))
        #expect(lake.waypoints.count == 7)
        #expect(lake.tracks.map(\.points.count).reduce(0, +) == 296)
    }

    @Test("TRL-1: what Waymark writes is GPX 1.1 that reads back to the same points")
    func trl1RoundTrip() throws {
        let doc = try GPXDocument.read(Self.fixture("Mojstrovka.gpx"))
        var named = doc
        named.name = "Mojstrovka & back <via Vršič>"
        named.tracks[0].name = "Slemenova \"špica\""
        let written = named.gpx()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#"version="1.1""#) && text.contains("http://www.topografix.com/GPX/1/1"))
        #expect(text.contains("Mojstrovka &amp; back &lt;via Vršič&gt;"))
        let again = try GPXDocument.read(written)
        #expect(again.name == named.name && again.tracks[0].name == named.tracks[0].name)
        let a = named.tracks[0].points, b = again.tracks[0].points
        #expect(a.count == b.count)
        for (p, q) in zip(a, b) {
            #expect(abs(p.coordinate.latitude - q.coordinate.latitude) < 1e-7)
            #expect(abs(p.coordinate.longitude - q.coordinate.longitude) < 1e-7)
            #expect(abs(p.elevation! - q.elevation!) < 0.006)
            #expect(abs(p.time!.timeIntervalSince(q.time!)) < 0.001)
        }
    }

    @Test("TRL-1: a broken file is refused with the line and the rule it breaks", arguments: [
        ("<gpx><trk><trkseg><trkpt lat=\"46\" lon=\"13\"></trkseg></trk></gpx>", "not well-formed"),
        ("<kml><Document/></kml>", "not <gpx>"),
        ("<gpx>\n<wpt lon=\"13\"><name>x</name></wpt></gpx>", "numeric lat and lon"),
        ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"95\" lon=\"13\"/></trkseg></trk></gpx>", "not on Earth"),
        ("<gpx><trk><trkseg>\n\n<trkpt lat=\"46\" lon=\"13\"><ele>high</ele></trkpt></trkseg></trk></gpx>", "“high” is not a number"),
        ("<gpx><trk><trkseg><trkpt lat=\"46\" lon=\"13\"><time>yesterday</time></trkpt></trkseg></trk></gpx>", "not an ISO 8601"),
        ("", "no gpx element"),
        ("<gpx><trk><trkseg><trkpt lat=\"46\" lon=\"13\"/>", "stopped inside <trkseg>"),
    ])
    func trl1RefusesBrokenFiles(text: String, rule: String) {
        #expect {
            _ = try GPXDocument.read(Data(text.utf8))
        } throws: { error in
            guard let error = error as? GPXError else { return false }
            return error.rule.contains(rule) && (rule == "no gpx element" || error.line != nil)
        }
    }

    @Test("TRL-1: the line of a broken point is the one it is on")
    func trl1NamesTheLine() {
        let text = "<gpx>\n<trk>\n<trkseg>\n<trkpt lat=\"46\" lon=\"13\"/>\n<trkpt lat=\"46\" lon=\"east\"/>\n</trkseg></trk></gpx>"
        #expect(throws: GPXError(line: 5, "a <trkpt> needs numeric lat and lon attributes")) {
            _ = try GPXDocument.read(Data(text.utf8))
        }
    }

    @Test("TRL-1: GPX times in UTC, with an offset, and with seven fractional digits")
    func trl1Times() {
        let base = GPXTime.parse("2010-08-06T10:36:35Z")!
        #expect(base.timeIntervalSince1970 == 1_281_090_995)
        #expect(GPXTime.parse("2010-08-06T12:36:35+02:00") == base)
        #expect(GPXTime.parse("2010-08-06T10:36:35.2073437Z")!.timeIntervalSince(base) - 0.2073437 < 1e-6)
        for bad in ["2010-08-06", "2010-13-06T10:36:35Z", "2010-02-30T10:36:35Z", "2010-08-06T10:36:35Zulu", "2010-08-06T10:36:35."] {
            #expect(GPXTime.parse(bad) == nil, "\(bad)")
        }
    }
}
