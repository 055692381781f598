import Foundation
import Testing
@testable import WaymarkCore

/// Trails from GPX and GeoJSON files (TRL-1): real recordings become trails with their profile;
/// broken files and features are refused with the file, the item and the rule.
@Suite struct TrailImportTests {
    @Test func trl1AGPXRecordingBecomesOneTrail() throws {
        let r = TrailImport.read(try TrailsGPXTests.fixture("Mojstrovka.gpx"), file: "Mojstrovka.gpx")
        #expect(r.problems.isEmpty)
        let t = try #require(r.trails.first)
        #expect(r.trails.count == 1 && t.path.count == 184 && t.id == TrailImport.slug(t.name) && !t.id.isEmpty)
        #expect(t.measures.gain > 400 && t.measures.gain < 470)
    }

    @Test func trl1SeveralTracksJoinUnlessAskedApartAndWaypointsNearThePathBecomePoints() throws {
        let data = try TrailsGPXTests.fixture("cerknicko-jezero.gpx")
        let joined = TrailImport.read(data, file: "cerknicko-jezero.gpx")
        #expect(joined.problems.isEmpty && joined.trails.count == 1)
        let lake = try #require(joined.trails.first)
        #expect(lake.name == "Cerknicko jezero" && lake.id == "cerknicko-jezero")
        // The 0 m point is a spike, not a 500-metre climb.
        #expect(lake.measures.profile.spikes >= 1 && lake.measures.gain < 200)
        #expect(!lake.points.isEmpty && lake.points.allSatisfy { $0.position != nil })
        let apart = TrailImport.gpx(data, file: "cerknicko-jezero.gpx", eachTrack: true)
        #expect(apart.trails.count + apart.problems.count == (try GPXDocument.read(data)).tracks.count && apart.trails.count > 1)
    }

    @Test func trl1APathWithoutElevationIsRefusedNamingTheRule() throws {
        let r = TrailImport.read(try TrailsGPXTests.fixture("route.gpx"), file: "route.gpx")
        #expect(r.trails.isEmpty)
        #expect(r.problems.map(\.description) == ["route.gpx, route: has no elevation on 55 of 55 points: a trail needs elevation for its profile and grade"])
    }

    @Test func trl1BrokenGPXNamesTheLine() {
        let r = TrailImport.read(Data("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"91\" lon=\"0\"><ele>3</ele></trkpt>\n</trkseg></trk></gpx>".utf8), file: "bad.gpx")
        #expect(r.trails.isEmpty && r.problems.count == 1)
        #expect(r.problems.first?.file == "bad.gpx" && r.problems.first?.item == "line 3")
        let empty = TrailImport.read(Data("<gpx version=\"1.1\"></gpx>".utf8), file: "empty.gpx")
        #expect(empty.problems.map(\.description) == ["empty.gpx: has no track or route: a trail needs a path"])
    }

    static let geoJSON = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "Ridge Loop", "area": "Brea", "difficulty": "moderate", "accessible": false,
             "huntingAlert": "Quail season in winter", "admission": "Free", "parking": "Lot by the gate",
             "seasonalHours": [{"season": "All year", "hours": "8:00 to sunset"}],
             "contacts": [{"name": "Rangers", "phones": ["(714) 555-0199"]}], "amenities": ["restrooms", "parking"],
             "guidelines": [{"kind": "predator", "name": "Coyote", "description": "Keep dogs close.", "warningSigns": "Howling"}],
             "points": [{"kind": "waterfall", "name": "Little falls", "history": "Runs in spring.", "position": [-117.9, 33.91], "focalPoint": true}],
             "colour": "ignored"},
           "geometry": {"type": "LineString", "coordinates": [[-117.9, 33.9, 100], [-117.9, 33.905, 140], [-117.895, 33.905, 150], [-117.9, 33.9, 100]]}},
          {"type": "Feature", "properties": {"name": "Park outline"}, "geometry": {"type": "Polygon", "coordinates": [[[-117.9, 33.9], [-117.8, 33.9], [-117.8, 34], [-117.9, 33.9]]]}},
          {"type": "Feature", "properties": {"name": "Flat"}, "geometry": {"type": "LineString", "coordinates": [[-117.9, 33.9], [-117.9, 33.91]]}},
          {"type": "Feature", "properties": {"name": "Odd", "difficulty": "extreme"}, "geometry": {"type": "LineString", "coordinates": [[-117.9, 33.9, 1], [-117.9, 33.91, 2]]}},
          {"type": "Feature", "properties": {"name": "Fancy", "amenities": ["hot tub"]}, "geometry": {"type": "LineString", "coordinates": [[-117.9, 33.9, 1], [-117.9, 33.91, 2]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-117.9, 33.9, 1], [-117.9, 33.91, 2]]}},
          {"type": "Feature", "properties": {"name": "Lost"}, "geometry": {"type": "LineString", "coordinates": [[-117.9, 33.9, 1], [true, 33.91, 2]]}}
        ]}
        """

    @Test func trl1GeoJSONCarriesEveryScreenAndNamesEachBrokenFeature() throws {
        let r = TrailImport.read(Data(Self.geoJSON.utf8), file: "trails.geojson")
        let t = try #require(r.trails.first)
        #expect(r.trails.count == 1)
        #expect(t.id == "ridge-loop" && t.area == "Brea" && t.shape == .loop && t.officialDifficulty == .moderate && t.difficulty == .moderate)
        #expect(t.info.seasonalHours.count == 1 && t.contacts.first?.phones == ["(714) 555-0199"] && t.amenities == [.restrooms, .parking])
        #expect(t.guidelines.first?.warningSigns == "Howling" && t.points.first?.focalPoint == true && t.points.first?.kind == .waterfall)
        #expect(r.problems.map(\.description) == [
            "trails.geojson, feature 3 'Flat': has no elevation on 2 of 2 points: a trail needs elevation for its profile and grade",
            "trails.geojson, feature 4 'Odd': properties.difficulty must be easy, moderate or hard",
            "trails.geojson, feature 5 'Fancy': properties.amenities: 'hot tub' is not one of restrooms, trailheadMap, waterFountains, firePits, trailMarkers, informationCenter, campsites, picnicTables, illuminated, parking",
            "trails.geojson, feature 6: properties.name is required",
            "trails.geojson, feature 7 'Lost': position 2 is not [longitude, latitude, elevation]",
        ])
        #expect(TrailImport.read(Data("[1]".utf8), file: "x.json").problems.map(\.description) == ["x.json: is not a GeoJSON Feature or FeatureCollection"])
        #expect(TrailImport.read(Data("{".utf8), file: "x.geojson").problems.map(\.description) == ["x.geojson: is not JSON"])
    }

    @Test func trl1SlugsAreStable() {
        #expect(TrailImport.slug("Vršič – Mojstrovka") == "vrsic-mojstrovka")
        #expect(TrailImport.slug("  Big Falls Trail!! ") == "big-falls-trail")
    }
}
