import Foundation
import Testing
@testable import WaymarkCore

/// PRK-1: a parking site is read from a GeoJSON file and an optional spots CSV, whole or not at
/// all; every problem names the file, the feature or line, and the rule.
@Suite("Parking: site files (PRK-1)")
struct SiteImportTests {
    static func fixture(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sites/\(name)")
        return try Data(contentsOf: url)
    }

    static func readRiverside(csv: Bool = true) throws -> SiteImport.Result {
        SiteImport.read(geoJSON: try fixture("riverside-college.geojson"), file: "riverside-college.geojson",
                        spotsCSV: csv ? try fixture("riverside-college-spots.csv") : nil, csvFile: "riverside-college-spots.csv")
    }

    // MARK: Small files built in the tests

    static let point = #"{"type": "Point", "coordinates": [-117.33, 33.97]}"#
    /// 60 m square around the site centre.
    static let square = #"{"type": "Polygon", "coordinates": [[[-117.330325, 33.96973], [-117.329675, 33.96973], [-117.329675, 33.97027], [-117.330325, 33.97027], [-117.330325, 33.96973]]]}"#

    /// A later key replaces an earlier one, so `extra` overrides (and `null` removes) a property.
    static func site(_ extra: String = "", geometry: String = point) -> String {
        #"{"type": "Feature", "properties": {"feature": "site", "code": "rcc", "name": "Riverside College", "timeZone": "America/Los_Angeles"\#(extra)}, "geometry": \#(geometry)}"#
    }

    /// Lot P1: 50 generated spaces.
    static func lot(_ extra: String = "", geometry: String = square) -> String {
        #"{"type": "Feature", "properties": {"feature": "lot", "code": "P1", "name": "Lot P1", "entrance": [-117.33, 33.97], "capacity": 50, "price": {"currency": "USD", "hourly": "2.00", "dailyMax": "12.00"}\#(extra)}, "geometry": \#(geometry)}"#
    }

    /// Lot P1 with its spots listed.
    static func surveyedLot(_ extra: String = "") -> String { lot(#", "capacity": null"# + extra) }

    static func spot(_ extra: String = "", at position: String = "[-117.33, 33.97]") -> String {
        #"{"type": "Feature", "properties": {"feature": "spot", "lot": "P1", "label": "1"\#(extra)}, "geometry": {"type": "Point", "coordinates": \#(position)}}"#
    }

    static func file(_ features: [String]) -> String {
        #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",\n") + "]}"
    }

    static func read(_ features: [String], csv: String? = nil) -> SiteImport.Result {
        SiteImport.read(geoJSON: Data(file(features).utf8), file: "site.geojson", spotsCSV: csv.map { Data($0.utf8) }, csvFile: "spots.csv")
    }

    // MARK: The fixture

    @Test("PRK-1 a campus file with a generated lot and a surveyed lot reads whole")
    func prk1RiversideReadsWhole() throws {
        let r = try Self.readRiverside()
        #expect(r.problems.isEmpty, "\(r.problems)")
        let site = try #require(r.site)
        #expect(site.plan.code == "rcc" && site.plan.name == "Riverside College" && site.plan.timeZone == "America/Los_Angeles")
        #expect(site.plan.center == Coordinate(latitude: 33.97, longitude: -117.33))
        #expect(site.plan.lots.map(\.code) == ["A", "S", "M"])
        #expect(site.plan.lots.map(\.capacity) == [120, 12, 8])
        #expect(site.spots.mapValues(\.count) == ["A": 120, "S": 12, "M": 8])
        #expect(site.plan.capacity == 140)
        for (code, spots) in site.spots { #expect(spots.map(\.ordinal) == Array(0..<spots.count), "\(code)") }
    }

    static let student = Permit(rawValue: "student")!
    static let faculty = Permit(rawValue: "faculty")!

    @Test("PRK-1 the site's own permits: code, name and colour (lower-cased), grey when none is given, in file order")
    func prk1SitePermits() throws {
        let site = try #require(try Self.readRiverside().site)
        #expect(site.plan.permits == [
            PermitKind(code: Self.student, name: "Student", colour: "#2e7d32"),
            PermitKind(code: Self.faculty, name: "Faculty/Staff", colour: "#6a1b9a"),
            PermitKind(code: Permit(rawValue: "resident")!, name: "Resident", colour: SiteImport.defaultPermitColour),
        ])
    }

    @Test("PRK-1 a lot with a capacity gets the generated layout, its hours, permits, price and booking offer")
    func prk1GeneratedLot() throws {
        let site = try #require(try Self.readRiverside().site)
        let a = try #require(site.plan.lot(code: "A"))
        #expect(a.name == "Lot A" && a.kind == .surface && a.levels == 1)
        #expect(a.capacity == 120 && a.handicapSpots == 4 && a.evSpots == 6)
        #expect(a.footprint.count == 4 && a.footprint[0] == Coordinate(latitude: 33.969325, longitude: -117.332278))
        #expect(a.entrance == Coordinate(latitude: 33.96964, longitude: -117.332278))
        let weekdays = OpeningHours(weekdays: [2, 3, 4, 5, 6], openMinute: 6 * 60, closeMinute: 23 * 60)
        let saturday = OpeningHours(weekdays: [7], openMinute: 8 * 60, closeMinute: 18 * 60)
        #expect(a.hours == [weekdays, saturday])
        #expect(a.permitRules == [PermitRule(weekdays: [2, 3, 4, 5, 6], startMinute: 7 * 60, endMinute: 22 * 60, permits: [Self.student, Self.faculty])])
        #expect(a.price == LotPrice(currency: "USD", hourlyCents: 200, dailyMaxCents: 1_200))
        #expect(a.booking == BookingOffer(capacity: 40, pricing: LotPricing(
            currency: "USD", dailyFeeMinor: 300, includedMinutesPerDay: 0, rateMinor: 50, rateUnitMinutes: 60,
            dailyCapMinor: 1_500, hours: [weekdays, saturday], maximumDuration: 7 * 86_400)))
        #expect(a.rules == ["No overnight parking", "Head-in parking only"])
        #expect(a.address == "1200 College Ave, Riverside, CA 92506" && !a.keysRequired)
        let spots = try #require(site.spots["A"])
        #expect(spots == SpotLayout.spots(for: a, siteCode: "rcc"))
        #expect(spots.filter { $0.category == .handicap }.count == 4 && spots.filter { $0.category == .ev }.count == 6)
        #expect(spots[0].label == "1" && spots[0].sensorId == "rcc-a-1")
    }

    @Test("PRK-1 surveyed spots keep their label, level, kind and sensor, numbered by level and then file order")
    func prk1SurveyedLot() throws {
        let site = try #require(try Self.readRiverside().site)
        let s = try #require(site.plan.lot(code: "S"))
        #expect(s.kind == .structure && s.levels == 3 && s.capacity == 12 && s.handicapSpots == 2 && s.evSpots == 2)
        #expect(s.hours.isEmpty && s.booking == nil && !s.keysRequired)
        // 1.5 and 9 written as JSON numbers.
        #expect(s.price == LotPrice(currency: "USD", hourlyCents: 150, dailyMaxCents: 900))
        #expect(s.permitRules == [PermitRule(weekdays: [2, 3, 4, 5, 6], startMinute: 7 * 60, endMinute: 17 * 60, permits: [Self.faculty, .handicap])])
        let spots = try #require(site.spots["S"])
        #expect(spots.map(\.label) == ["1-1", "1-2", "1-3", "1-4", "2-1", "2-2", "2-3", "2-4", "3-1", "3-2", "3-3", "3-4"])
        #expect(spots.map(\.level) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
        // "3-1" comes first in the file but is on the top level.
        let top = spots[8]
        #expect(top.label == "3-1" && top.ordinal == 8 && top.category == .reserved && top.headingDegrees == 180)
        #expect(top.sensorId == "rcc-s-3-1" && top.center == Coordinate(latitude: 33.97063, longitude: -117.328916))
        let accessible = spots[0]
        #expect(accessible.category == .handicap && accessible.sensorId == "rcc-s-acc-1" && accessible.widthMetres == 3.6 && accessible.lengthMetres == 5)
        #expect(spots[2].category == .ev && spots[2].sensorId == "rcc-s-ev-1" && spots[2].headingDegrees == 90.5)
        #expect(spots[4].category == .visitor && spots[5].category == .regular)
        #expect(spots[6].category == .motorcycle && spots[6].lengthMetres == 2.5 && spots[6].widthMetres == 1.2)
        #expect(spots[9].lengthMetres == 5.4 && spots[9].widthMetres == 2.6)
        #expect(spots[11].sensorId == "rcc-s-res_3.4")
    }

    @Test("PRK-1 the spots CSV gives lot M its spots; without it lot M has neither spots nor a capacity")
    func prk1SpotsFromCSV() throws {
        let site = try #require(try Self.readRiverside().site)
        let m = try #require(site.plan.lot(code: "M"))
        #expect(m.capacity == 8 && m.handicapSpots == 0 && m.evSpots == 0 && m.address == "")
        #expect(m.hours == [OpeningHours.allDayEveryDay])
        let spots = try #require(site.spots["M"])
        #expect(spots.map(\.label) == ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"])
        #expect(spots.filter { $0.category == .motorcycle }.count == 6)
        #expect(spots[0].center == Coordinate(latitude: 33.969038, longitude: -117.33) && spots[0].sensorId == "rcc-m-m1")
        #expect(spots[2].level == 0 && spots[3].sensorId == "rcc-m-moto-4")
        #expect(spots[6].category == .regular && spots[6].headingDegrees == 180 && spots[6].lengthMetres == 5)
        #expect(spots[7].category == .regular)

        let alone = try Self.readRiverside(csv: false)
        #expect(alone.site == nil)
        #expect(alone.problems.map(\.description) == [
            "riverside-college.geojson, feature 16 (lot 'M'): needs \"capacity\", the number of spaces, since no spots of this lot are listed.",
        ])
    }

    // MARK: Broken files

    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var features: [String] = []
        /// The whole GeoJSON text, instead of `features`.
        var whole: String?
        var csv: String?
        var file = "site.geojson"
        var item: String?
        /// A distinctive part of the rule.
        var rule: String

        var testDescription: String { name }
    }

    static let lotItem = "feature 2 (lot 'P1')"
    static let siteItem = "feature 1 (site 'rcc')"
    static let spotItem = "feature 3 (spot '1' of lot 'P1')"

    static let broken: [Broken] = [
        // The file
        Broken(name: "a Feature, not a FeatureCollection", whole: site(), item: nil, rule: "is not a GeoJSON FeatureCollection"),
        Broken(name: "no site", features: [lot()], item: nil, rule: "has no site feature"),
        Broken(name: "no lot", features: [site()], item: nil, rule: "has no lot feature"),
        Broken(name: "two sites", features: [site(), lot(), site(#", "code": "rcc2""#)], item: "feature 3 (site 'rcc2')",
               rule: "a file describes one site, and feature 1 is the site already."),
        Broken(name: "no feature property", features: [site(), lot(), #"{"type": "Feature", "properties": {"code": "x"}, "geometry": null}"#],
               item: "feature 3", rule: #""feature" in its properties must be "site", "lot" or "spot", not missing."#),
        Broken(name: "an unknown feature", features: [site(), lot(), #"{"type": "Feature", "properties": {"feature": "gate"}, "geometry": null}"#],
               item: "feature 3", rule: #"must be "site", "lot" or "spot", not "gate"."#),
        Broken(name: "a feature that is no object", features: [site(), lot(), "[1, 2]"], item: "feature 3", rule: "must be a GeoJSON Feature object, not a list."),
        Broken(name: "no properties", features: [site(), lot(), #"{"type": "Feature", "geometry": null}"#], item: "feature 3", rule: #"needs "properties""#),
        // The site
        Broken(name: "site code with capitals", features: [site(#", "code": "RCC""#), lot()], item: "feature 1 (site 'RCC')",
               rule: #""code" must be 2 to 16 lower-case letters, digits or hyphens; it starts every sensor id, not "RCC"."#),
        Broken(name: "site code missing", features: [site(#", "code": null"#), lot()], item: "feature 1 (site)", rule: #"needs "code""#),
        Broken(name: "site name empty", features: [site(#", "name": "  ""#), lot()], item: "feature 1 (site 'rcc')",
               rule: #""name" must be text of 1 to 100 characters, not 0 characters."#),
        Broken(name: "unknown time zone", features: [site(#", "timeZone": "Pacific Time""#), lot()], item: "feature 1 (site 'rcc')",
               rule: #""timeZone" must be a time zone name such as "America/Los_Angeles", not "Pacific Time"."#),
        Broken(name: "site as a polygon", features: [site(geometry: square), lot()], item: "feature 1 (site 'rcc')",
               rule: #""geometry" must be a Point at the site's centre, not a "Polygon"."#),
        // The lot's outline
        Broken(name: "lot as a point", features: [site(), lot(geometry: point)], item: lotItem, rule: #""geometry" must be a Polygon"#),
        Broken(name: "open ring", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": [[[-117.3303, 33.9697], [-117.3297, 33.9697], [-117.3297, 33.9703], [-117.3303, 33.9703]]]}"#)],
               item: lotItem, rule: "must end at the position it starts at"),
        Broken(name: "ring of three", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": [[[-117.3303, 33.9697], [-117.3297, 33.9697], [-117.3303, 33.9697]]]}"#)],
               item: lotItem, rule: "at least 4 positions, the last one repeating the first, not 3."),
        Broken(name: "longitude out of range", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": [[[200, 33.9697], [-117.3297, 33.9697], [-117.3297, 33.9703], [200, 33.9697]]]}"#)],
               item: lotItem, rule: "position 1 of the outline must be [longitude, latitude] with longitude from -180 to 180 and latitude from -90 to 90, not [200, 33.9697]"),
        Broken(name: "flat outline", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": [[[-117.3303, 33.9697], [-117.3297, 33.9697], [-117.3291, 33.9697], [-117.3303, 33.9697]]]}"#)],
               item: lotItem, rule: "must enclose an area"),
        Broken(name: "outline kilometres across", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": [[[-117.3303, 33.9697], [-117.2, 33.9697], [-117.2, 33.9703], [-117.3303, 33.9697]]]}"#)],
               item: lotItem, rule: "the outline must fit in 2000 m by 2000 m, not span 12016 m east to west and 67 m north to south; is a corner misplaced?"),
        Broken(name: "outline of 600 corners", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": [["# + (0..<600).map { k in
                   let a = Double(k) / 600 * 2 * Double.pi
                   return "[\(-117.33 + 0.0003 * cos(a)), \(33.97 + 0.0002 * sin(a))]"
               }.joined(separator: ", ") + #", [-117.3297, 33.97]]]}"#)],
               item: lotItem, rule: "the outline must have at most 500 corners, not 600."),
        Broken(name: "coordinates no list", features: [site(), lot(geometry: #"{"type": "Polygon", "coordinates": "here"}"#)],
               item: lotItem, rule: #"the Polygon's "coordinates" must be a list of rings"#),
        // The lot's properties
        Broken(name: "lot code with a hyphen", features: [site(), lot(#", "code": "P-1""#)], item: "feature 2 (lot 'P-1')",
               rule: #""code" must be 1 to 8 letters or digits"#),
        Broken(name: "lot codes differing in case", features: [site(), lot(), lot(#", "code": "p1""#)], item: "feature 3 (lot 'p1')",
               rule: #""code" "p1" is the code of feature 2 (lot 'P1') already; lot codes must differ, even in upper and lower case."#),
        Broken(name: "lot name too long", features: [site(), lot(#", "name": "\#(String(repeating: "x", count: 101))""#)], item: lotItem,
               rule: #""name" must be text of 1 to 100 characters, not 101 characters."#),
        Broken(name: "unknown lot kind", features: [site(), lot(#", "kind": "garage""#)], item: lotItem,
               rule: #""kind" must be "surface" or "structure", not "garage"."#),
        Broken(name: "no levels", features: [site(), lot(#", "levels": 0"#)], item: lotItem,
               rule: #""levels" must be a whole number from 1 to 20, not 0."#),
        Broken(name: "levels as text", features: [site(), lot(#", "levels": "2""#)], item: lotItem,
               rule: #""levels" must be a whole number from 1 to 20, not "2"."#),
        Broken(name: "no entrance", features: [site(), lot(#", "entrance": null"#)], item: lotItem,
               rule: #"needs "entrance", the [longitude, latitude] where cars drive in."#),
        Broken(name: "entrance far away", features: [site(), lot(#", "entrance": [-117.335, 33.97]"#)], item: lotItem,
               rule: #""entrance" must be within 100 m of the lot's outline, not 431 m from it."#),
        Broken(name: "capacity too large", features: [site(), lot(#", "capacity": 20001"#)], item: lotItem,
               rule: #""capacity" must be a whole number from 1 to 20000, not 20001."#),
        Broken(name: "capacity a fraction", features: [site(), lot(#", "capacity": 12.5"#)], item: lotItem,
               rule: #""capacity" must be a whole number from 1 to 20000, not 12.5."#),
        Broken(name: "no capacity and no spots", features: [site(), lot(#", "capacity": null"#)], item: lotItem, rule: #"needs "capacity""#),
        Broken(name: "negative accessible spots", features: [site(), lot(#", "accessibleSpots": -1"#)], item: lotItem,
               rule: #""accessibleSpots" must be a whole number from 0 to 20000, not -1."#),
        Broken(name: "more special spots than spaces", features: [site(), lot(#", "accessibleSpots": 30, "evSpots": 21"#)], item: lotItem,
               rule: #""accessibleSpots" and "evSpots" together (51) must not be more than "capacity" (50)."#),
        Broken(name: "hours with English day names", features: [site(), lot(#", "hours": [{"days": "Mon-Fri", "open": "07:00", "close": "22:00"}]"#)],
               item: lotItem, rule: #""days" in "hours" entry 1 must be two-letter day names (Mo Tu We Th Fr Sa Su)"#),
        Broken(name: "hour 25", features: [site(), lot(#", "hours": [{"days": "Mo-Fr", "open": "25:00", "close": "22:00"}]"#)],
               item: lotItem, rule: #""open" in "hours" entry 1 must be a time "HH:MM" from 00:00 to 23:59, not "25:00"."#),
        Broken(name: "closing before opening", features: [site(), lot(#", "hours": [{"days": "Fr,Sa", "open": "22:00", "close": "02:00"}]"#)],
               item: lotItem, rule: #""close" in "hours" entry 1 must be later than "open" (22:00), not 02:00; a time past midnight is written as two entries"#),
        Broken(name: "hours no list", features: [site(), lot(#", "hours": "24/7""#)], item: lotItem, rule: #""hours" must be a list of entries such as"#),
        Broken(name: "no price", features: [site(), lot(#", "price": null"#)], item: lotItem, rule: #"needs "price", the pay-station price"#),
        Broken(name: "lower-case currency", features: [site(), lot(#", "price": {"currency": "usd", "hourly": "2.00", "dailyMax": "12.00"}"#)],
               item: lotItem, rule: #""currency" in "price" must be three upper-case letters such as "USD", not "usd"."#),
        Broken(name: "a tenth of a cent", features: [site(), lot(#", "price": {"currency": "USD", "hourly": "2.005", "dailyMax": "12.00"}"#)],
               item: lotItem, rule: #""hourly" in "price" must be an amount such as "2.50": 0 or more, at most 2 decimals for USD, not "2.005"."#),
        Broken(name: "a tenth of a cent as a number", features: [site(), lot(#", "price": {"currency": "USD", "hourly": 2.005, "dailyMax": "12.00"}"#)],
               item: lotItem, rule: #"not 2.005."#),
        Broken(name: "yen with decimals", features: [site(), lot(#", "price": {"currency": "JPY", "hourly": "200.5", "dailyMax": "1200"}"#)],
               item: lotItem, rule: #""hourly" in "price" must be an amount such as "500": 0 or more, no decimals for JPY, not "200.5"."#),
        Broken(name: "negative price", features: [site(), lot(#", "price": {"currency": "USD", "hourly": -2, "dailyMax": "12.00"}"#)],
               item: lotItem, rule: #"0 or more"#),
        Broken(name: "daily maximum below the hourly price", features: [site(), lot(#", "price": {"currency": "USD", "hourly": "2.00", "dailyMax": "1.00"}"#)],
               item: lotItem, rule: #""dailyMax" in "price" (1.00 USD) must be at least "hourly" (2.00 USD): it caps what a day costs."#),
        Broken(name: "permit the site does not issue", features: [site(), lot(#", "permits": [{"days": "Mo-Fr", "from": "07:00", "to": "22:00", "permits": ["handicap", "blue"]}]"#)],
               item: lotItem, rule: #""permits" names "blue", which the site does not issue (the site lists no permits, and "handicap" for the disabled placard); add it to the site's "permits" or correct the rule."#),
        Broken(name: "permit code with capitals", features: [site(), lot(#", "permits": [{"days": "Mo-Fr", "from": "07:00", "to": "22:00", "permits": ["Staff"]}]"#)],
               item: lotItem, rule: #""permits" in "permits" entry 1 names "Staff", which is not a permit code (1 to 32 lower-case letters"#),
        Broken(name: "no permit named", features: [site(), lot(#", "permits": [{"days": "Mo-Fr", "from": "07:00", "to": "22:00", "permits": []}]"#)],
               item: lotItem, rule: #"must be a list of at least one permit code such as ["green"], not an empty list."#),
        Broken(name: "site permits not a list", features: [site(#", "permits": "staff""#), lot()], item: siteItem,
               rule: ##""permits" must be a list of permits such as {"code": "faculty", "name": "Faculty/Staff", "colour": "#7b3fa0"}, not "staff"."##),
        Broken(name: "site permit without a name", features: [site(#", "permits": [{"code": "staff"}]"#), lot()], item: siteItem,
               rule: #"needs "name" in "permits" entry 1, the permit's name as drivers know it (1 to 40 characters)."#),
        Broken(name: "site permit listed twice", features: [site(#", "permits": [{"code": "staff", "name": "Staff"}, {"code": "staff", "name": "Staff B"}]"#), lot()],
               item: siteItem, rule: #""code" "staff" is listed twice; each permit once."#),
        Broken(name: "site lists the placard", features: [site(#", "permits": [{"code": "handicap", "name": "Disabled"}]"#), lot()], item: siteItem,
               rule: #""code" is "handicap", the disabled parking placard, which every site knows already; leave it out of "permits"."#),
        Broken(name: "site permit colour a word", features: [site(#", "permits": [{"code": "staff", "name": "Staff", "colour": "purple"}]"#), lot()],
               item: siteItem, rule: ##""colour" must be a colour such as "#7b3fa0" (# and six hex digits), not "purple"."##),
        Broken(name: "site permit code none", features: [site(#", "permits": [{"code": "none", "name": "None"}]"#), lot()], item: siteItem,
               rule: #""code" must be 1 to 32 lower-case letters, digits or hyphens, starting with a letter or digit, and not "none", not "none"."#),
        Broken(name: "eleven rules", features: [site(), lot(#", "rules": ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]"#)],
               item: lotItem, rule: #""rules" must be a list of at most 10 texts, not 11."#),
        Broken(name: "an empty rule", features: [site(), lot(#", "rules": ["Head-in only", ""]"#)],
               item: lotItem, rule: #""rules" entry 2 must be text of 1 to 200 characters, not 0 characters."#),
        Broken(name: "address too long", features: [site(), lot(#", "address": "\#(String(repeating: "a", count: 201))""#)],
               item: lotItem, rule: #""address" must be text of at most 200 characters, not 201 characters."#),
        Broken(name: "keys as yes", features: [site(), lot(#", "keysRequired": "yes""#)], item: lotItem,
               rule: #""keysRequired" must be true or false, not "yes"."#),
        // Booking
        Broken(name: "booking without spaces", features: [site(), lot(#", "booking": {"rate": "1.00"}"#)], item: lotItem,
               rule: #"needs "spaces" in "booking", the number of spaces set aside for bookings."#),
        Broken(name: "more booked spaces than spaces", features: [site(), lot(#", "booking": {"spaces": 51}"#)], item: lotItem,
               rule: #""spaces" in "booking" must be at most the lot's 50 spaces, not 51."#),
        Broken(name: "daily cap below the fee", features: [site(), lot(#", "booking": {"spaces": 5, "dailyFee": "3.00", "dailyCap": "2.00"}"#)],
               item: lotItem, rule: #""dailyCap" in "booking" (2.00 USD) must be at least "dailyFee" (3.00 USD)"#),
        Broken(name: "rate unit of no minutes", features: [site(), lot(#", "booking": {"spaces": 5, "rateUnitMinutes": 0}"#)], item: lotItem,
               rule: #""rateUnitMinutes" in "booking" must be a whole number from 1 to 1440, not 0."#),
        Broken(name: "booking for a year", features: [site(), lot(#", "booking": {"spaces": 5, "maximumDays": 365}"#)], item: lotItem,
               rule: #""maximumDays" in "booking" must be a whole number from 1 to 90, not 365."#),
        Broken(name: "booking hours past midnight", features: [site(), lot(#", "booking": {"spaces": 5, "hours": [{"days": "Mo", "open": "20:00", "close": "20:00"}]}"#)],
               item: lotItem, rule: #""close" in "hours" entry 1 in "booking" must be later than "open" (20:00), not 20:00"#),
        // Spots
        Broken(name: "spot as a polygon", features: [site(), surveyedLot(), spot() .replacingOccurrences(of: #"{"type": "Point", "coordinates": [-117.33, 33.97]}"#, with: square)],
               item: spotItem, rule: #""geometry" must be a Point at the centre of the stall, not a "Polygon"."#),
        Broken(name: "spot of an unknown lot", features: [site(), surveyedLot(), spot(#", "lot": "Q""#), spot()], item: "feature 3 (spot '1' of lot 'Q')",
               rule: #""lot" must be the code of a lot in site.geojson; there is no lot "Q"."#),
        Broken(name: "spot without a label", features: [site(), surveyedLot(), spot(#", "label": null"#)], item: "feature 3 (spot of lot 'P1')",
               rule: #"needs "label", what is painted on the stall (1 to 16 characters)."#),
        Broken(name: "label too long", features: [site(), surveyedLot(), spot(#", "label": "12345678901234567""#)],
               item: "feature 3 (spot '12345678901234567' of lot 'P1')", rule: #""label" must be text of 1 to 16 characters, not 17 characters."#),
        Broken(name: "two spots with one label", features: [site(), surveyedLot(), spot(), spot()], item: "feature 4 (spot '1' of lot 'P1')",
               rule: #""label" "1" is the label of another spot of lot 'P1' (feature 3); labels are unique within a lot."#),
        Broken(name: "level above the lot", features: [site(), surveyedLot(), spot(#", "level": 1"#)], item: spotItem,
               rule: #""level" must be 0: lot 'P1' has one level, the ground level 0; not 1."#),
        Broken(name: "level above a structure", features: [site(), surveyedLot(#", "kind": "structure", "levels": 3"#), spot(#", "level": 3"#)],
               item: spotItem, rule: #""level" must be from 0 (the ground level) to 2: lot 'P1' has 3 levels; not 3."#),
        Broken(name: "negative level", features: [site(), surveyedLot(), spot(#", "level": -1"#)], item: spotItem,
               rule: #""level" must be a whole number from 0 to 19, 0 being the ground level, not -1."#),
        Broken(name: "unknown spot kind", features: [site(), surveyedLot(), spot(#", "kind": "compact""#)], item: spotItem,
               rule: #""kind" must be standard, accessible, ev, motorcycle, reserved or visitor, not "compact"."#),
        Broken(name: "sensor with capitals and a space", features: [site(), surveyedLot(), spot(#", "sensor": "Bay 1""#)], item: spotItem,
               rule: #""sensor" must be 1 to 64 characters of a-z, 0-9, hyphen, underscore, dot and colon, not "Bay 1"."#),
        Broken(name: "one sensor for two spots", features: [site(), surveyedLot(), spot(#", "sensor": "rcc-p1-2""#), spot(#", "label": "2""#)],
               item: "feature 4 (spot '2' of lot 'P1')",
               rule: #"the sensor id made from the site, lot and label, "rcc-p1-2", is the sensor of feature 3 already; sensor ids are unique over the site."#),
        Broken(name: "sensor of a generated stall", features: [site(), lot(), lot(#", "code": "P2", "capacity": null"#), spot(#", "lot": "P2", "sensor": "rcc-p1-7""#)],
               item: "feature 4 (spot '1' of lot 'P2')", rule: #""sensor" "rcc-p1-7" is the sensor of stall 7 of lot 'P1', whose stalls are generated"#),
        Broken(name: "label that makes no sensor id", features: [site(), surveyedLot(), spot(#", "label": "Bay 1""#)],
               item: "feature 3 (spot 'Bay 1' of lot 'P1')", rule: #"the sensor id made from the site, lot and label, "rcc-p1-bay 1", may only have"#),
        Broken(name: "heading of a full turn", features: [site(), surveyedLot(), spot(#", "heading": 360"#)], item: spotItem,
               rule: #""heading" must be a number of degrees, clockwise from north, from 0 up to but not including 360, not 360."#),
        Broken(name: "a stall too short", features: [site(), surveyedLot(), spot(#", "length": 0.2"#)], item: spotItem,
               rule: #""length" must be a number of metres from 0.5 to 20, not 0.2."#),
        Broken(name: "a stall too wide", features: [site(), surveyedLot(), spot(#", "width": "wide""#)], item: spotItem,
               rule: #""width" must be a number of metres from 0.5 to 20, not "wide"."#),
        Broken(name: "spot far from its lot", features: [site(), surveyedLot(), spot(at: "[-117.34, 33.97]")], item: spotItem,
               rule: "the spot must lie within 50 m of the outline of lot 'P1', not 892 m from it."),
        Broken(name: "spot position swapped", features: [site(), surveyedLot(), spot(at: "[33.97, -117.33]")], item: spotItem,
               rule: "the Point's \"coordinates\" must be [longitude, latitude] with longitude from -180 to 180 and latitude from -90 to 90, not [33.97, -117.33]; are the two swapped?"),
        Broken(name: "capacity unlike the spots", features: [site(), lot(), spot()], item: lotItem,
               rule: #""capacity" is 50 but 1 spot of this lot is listed; leave "capacity" out or make it 1."#),
        Broken(name: "accessible count unlike the spots", features: [site(), surveyedLot(#", "accessibleSpots": 2"#), spot(#", "kind": "accessible""#)],
               item: lotItem, rule: #""accessibleSpots" is 2 but 1 of the listed spots is accessible"#),
        // The CSV
        Broken(name: "CSV without a kind column", features: [site(), lot()], csv: "lot,label,level,latitude,longitude\nP1,1,0,33.97,-117.33\n",
               file: "spots.csv", item: "line 1", rule: #"has no "kind" column; the first line must name the columns lot, label, level, kind, latitude and longitude"#),
        Broken(name: "CSV without two columns", features: [site(), lot()], csv: "lot,label,level,kind\nP1,1,0,ev\n",
               file: "spots.csv", item: "line 1", rule: #"has no "latitude" and "longitude" columns"#),
        Broken(name: "CSV level as a word", features: [site(), surveyedLot()],
               csv: "lot,label,level,kind,latitude,longitude\nP1,1,0,ev,33.97,-117.33\n\nP1,2,two,ev,33.97,-117.33\n",
               file: "spots.csv", item: "line 4", rule: #"column "level" must be a whole number from 0 to 19, 0 being the ground level, not "two"."#),
        Broken(name: "CSV spot also in the GeoJSON", features: [site(), surveyedLot(), spot()],
               csv: "kind,longitude,latitude,lot,label,level\n,-117.33,33.97,P1,1,\n",
               file: "spots.csv", item: "line 2", rule: #"spot "1" of lot 'P1' is in site.geojson already (feature 3); a spot is listed in one file only."#),
        Broken(name: "CSV spot of an unknown lot", features: [site(), surveyedLot(), spot()],
               csv: "lot,label,level,kind,latitude,longitude\nP9,1,0,,33.97,-117.33\n",
               file: "spots.csv", item: "line 2", rule: #"column "lot" must be the code of a lot in site.geojson; there is no lot "P9"."#),
        Broken(name: "CSV without a latitude", features: [site(), surveyedLot()], csv: "lot,label,level,kind,latitude,longitude\nP1,1,0,ev, ,-117.33\n",
               file: "spots.csv", item: "line 2", rule: #"needs a value in column "latitude", the latitude of the stall's centre."#),
        Broken(name: "CSV latitude as NaN", features: [site(), surveyedLot()], csv: "lot,label,level,kind,latitude,longitude\nP1,1,0,ev,nan,-117.33\n",
               file: "spots.csv", item: "line 2", rule: #"column "latitude" must be a number from -90 to 90, not "nan"."#),
        Broken(name: "CSV with a quote never closed", features: [site(), lot()], csv: "lot,label,level,kind,latitude,longitude\nP1,1,0,ev,33.97,-117.33\nP1,\"2,0,ev,33.97,-117.33\n",
               file: "spots.csv", item: "line 3", rule: "a quoted field opened here is never closed."),
        Broken(name: "CSV with an extra comma", features: [site(), lot()], csv: "lot,label,level,kind,latitude,longitude\nP1,1,0,ev,33.97,-117.33,x\n",
               file: "spots.csv", item: "line 2", rule: "has 7 values but the first line names 6 columns"),
        Broken(name: "empty CSV", features: [site(), surveyedLot(), spot()], csv: "", file: "spots.csv", item: nil, rule: "is empty"),
    ]

    @Test("PRK-1 each rule is reported once, naming the file, the item and the rule", arguments: broken)
    func prk1BrokenFile(_ c: Broken) {
        let r = c.whole.map { SiteImport.read(geoJSON: Data($0.utf8), file: "site.geojson") } ?? Self.read(c.features, csv: c.csv)
        #expect(r.site == nil)
        #expect(r.problems.count == 1, "\(r.problems)")
        let p = r.problems.first
        #expect(p?.file == c.file)
        #expect(p?.item == c.item)
        #expect(p?.rule.contains(c.rule) == true, "\(p?.rule ?? "no problem")")
    }

    @Test("PRK-1 the fixture's lot and spot with a rule broken each read as one problem")
    func prk1ExampleWording() throws {
        var text = String(decoding: try Self.fixture("riverside-college.geojson"), as: UTF8.self)
        text = text.replacingOccurrences(of: #""levels": 3"#, with: #""levels": 0"#)
        let r = SiteImport.read(geoJSON: Data(text.utf8), file: "riverside-college.geojson")
        // The level checks of the spots of a lot with wrong levels are left to the lot's problem.
        #expect(r.problems.map(\.description).first
            == #"riverside-college.geojson, feature 3 (lot 'S'): "levels" must be a whole number from 1 to 20, not 0."#)
    }

    @Test("PRK-1 problems come in file order, the GeoJSON's before the CSV's")
    func prk1ProblemsInFileOrder() {
        // The spot comes before its lot; the lot's capacity check is made after all spots are read.
        let r = Self.read([Self.site(), Self.spot(#", "kind": "compact""#), Self.lot(#", "levels": 0"#), Self.spot(#", "label": "2", "heading": -1"#)],
                          csv: "lot,label,level,kind,latitude,longitude\nP1,3,0,bike,33.97,-117.33\n")
        #expect(r.site == nil)
        #expect(r.problems.map { $0.file + " " + ($0.item ?? "") } == [
            "site.geojson feature 2 (spot '1' of lot 'P1')",
            "site.geojson feature 3 (lot 'P1')",
            "site.geojson feature 3 (lot 'P1')",
            "site.geojson feature 4 (spot '2' of lot 'P1')",
            "spots.csv line 2",
        ])
        #expect(r.problems[2].rule.contains("\"capacity\" is 50 but 3 spots"))
    }

    @Test("PRK-1 not JSON names the file and where the text breaks")
    func prk1NotJSON() {
        let r = SiteImport.read(geoJSON: Data("{\"type\": \"FeatureCollection\", ".utf8), file: "site.geojson")
        #expect(r.site == nil)
        #expect(r.problems.map(\.description) == ["site.geojson: is not JSON (expected a quoted key at byte 31)."])
        #expect(SiteImport.read(geoJSON: Data(), file: "empty.geojson").problems.count == 1)
        #expect(SiteImport.read(geoJSON: Data("[]".utf8), file: "list.geojson").problems.map(\.rule).first?.hasPrefix("is not a GeoJSON FeatureCollection") == true)
    }

    @Test("PRK-1 a FeatureCollection without a site reads as no site")
    func prk1NoSite() {
        let r = Self.read([])
        #expect(r.problems.map(\.description) == [
            "site.geojson: has no site feature: one feature needs \"feature\": \"site\" with the site's code, name and timeZone.",
            "site.geojson: has no lot feature: a site needs at least one lot.",
        ])
    }

    @Test("PRK-1 at most 100 problems are listed, then how many more there were")
    func prk1ProblemLimit() {
        let features = [Self.site(), Self.lot()] + (0..<150).map { _ in #"{"type": "Feature", "properties": {"feature": "gate"}, "geometry": null}"# }
        let r = Self.read(features)
        #expect(r.problems.count == 101)
        #expect(r.problems[99].item == "feature 102")
        #expect(r.problems[100].description == "site.geojson: 50 more problems were left out; correct the ones above and read the files again.")
    }

    @Test("PRK-1 optional properties written as null read as missing, and unknown properties are ignored")
    func prk1NullsAndExtras() throws {
        let r = Self.read([Self.site(#", "operator": {"name": "Facilities"}"#),
                           Self.lot(#", "kind": null, "levels": null, "hours": null, "permits": null, "rules": null, "address": null, "keysRequired": null, "booking": null, "colour": "red""#)])
        let lot = try #require(r.site?.plan.lots.first)
        #expect(r.problems.isEmpty)
        #expect(lot.kind == .surface && lot.levels == 1 && lot.hours.isEmpty && lot.permitRules.isEmpty && lot.rules.isEmpty)
        #expect(lot.address == "" && !lot.keysRequired && lot.booking == nil)
    }

    @Test("PRK-1 day lists, ranges over the weekend and 24:00 read as written")
    func prk1DaysAndTimes() {
        typealias R = SiteImport.Reader
        #expect(R.weekdays("Mo-Fr") == [2, 3, 4, 5, 6])
        #expect(R.weekdays("Sa,Su") == [7, 1])
        #expect(R.weekdays("Mo-We,Fr") == [2, 3, 4, 6])
        #expect(R.weekdays("Fr-Mo") == [6, 7, 1, 2])
        #expect(R.weekdays("Mon") == nil && R.weekdays("") == nil && R.weekdays("Mo-") == nil && R.weekdays("Mo-Tu-We") == nil)
        #expect(R.minute("07:30", allow24: false) == 450 && R.minute("7:30", allow24: false) == 450)
        #expect(R.minute("24:00", allow24: true) == 1440 && R.minute("24:00", allow24: false) == nil)
        #expect(R.minute("12:60", allow24: true) == nil && R.minute("1230", allow24: true) == nil)
        #expect(SiteFileWriter.days([2, 3, 4, 5, 6]) == "Mo-Fr" && SiteFileWriter.days([1, 7]) == "Sa,Su")
        #expect(SiteFileWriter.days(OpeningHours.everyDay) == "Mo-Su" && SiteFileWriter.days([2, 3, 4, 6]) == "Mo-We,Fr")
        #expect(SiteFileWriter.amount(250, "USD") == .string("2.50") && SiteFileWriter.amount(5, "USD") == .string("0.05"))
        #expect(SiteFileWriter.amount(500, "JPY") == .string("500") && SiteFileWriter.amount(1_250, "KWD") == .string("1.250"))
    }

    // MARK: Round trip

    @Test("PRK-1 the demo campus written as a site file reads back as the same plan and the same spots")
    func prk1RoundTrip() throws {
        let data = SiteFileWriter.geoJSON(DemoCampus.fullerton)
        let r = SiteImport.read(geoJSON: data, file: "csuf.geojson")
        #expect(r.problems.isEmpty, "\(r.problems)")
        let site = try #require(r.site)
        #expect(site.plan == DemoCampus.fullerton)
        for lot in DemoCampus.fullerton.lots {
            #expect(site.spots[lot.code] == SpotLayout.spots(for: lot, siteCode: "csuf"), "\(lot.code)")
        }
        // Written again, byte for byte the same file.
        #expect(SiteFileWriter.geoJSON(site.plan) == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""price": {"currency": "USD", "dailyMax": "10.00", "hourly": "4.00"}"#))
    }

    @Test("PRK-1 the riverside campus written and read again keeps every lot")
    func prk1RoundTripOfImport() throws {
        let site = try #require(try Self.readRiverside().site)
        let again = try #require(SiteImport.read(geoJSON: SiteFileWriter.geoJSON(site.plan), file: "again.geojson").site)
        // Surveyed lots come back with a generated layout of the same size, which is all the writer promises.
        #expect(again.plan == site.plan)
        #expect(again.spots["A"] == site.spots["A"] && again.spots["S"]?.count == 12 && again.spots["M"]?.count == 8)
    }

    // MARK: A lot's settings, as an operator edits them

    static func settings(of lot: LotPlan) -> LotSettings {
        LotSettings(hours: lot.hours, price: lot.price, permitRules: lot.permitRules, rules: lot.rules, booking: lot.booking)
    }

    @Test("PRK-1 every demo lot's settings written in the site file's words read back the same")
    func prk1SettingsRoundTrip() throws {
        for lot in DemoCampus.fullerton.lots {
            let read = SiteImport.lotSettings(SiteFileWriter.settings(Self.settings(of: lot)), capacity: lot.capacity, sitePermits: DemoCampus.fullerton.permits, source: "settings")
            #expect(read.problems.isEmpty, "\(lot.code): \(read.problems)")
            #expect(read.settings == Self.settings(of: lot), "\(lot.code)")
        }
        let minimal = SiteImport.lotSettings(Data(#"{"price": {"currency": "USD", "hourly": "2.00", "dailyMax": "9.00"}, "booking": null}"#.utf8),
                                             capacity: 10, sitePermits: DemoCampus.fullerton.permits, source: "settings")
        #expect(minimal.settings == LotSettings(hours: [], price: LotPrice(currency: "USD", hourlyCents: 200, dailyMaxCents: 900),
                                                permitRules: [], rules: [], booking: nil))
        let before = Self.settings(of: DemoCampus.fullerton.lots[0])
        var after = before
        after.price.hourlyCents += 50
        after.rules = ["No overnight parking"]
        #expect(after.changed(from: before) == ["price", "rules"])
        #expect(before.changed(from: before).isEmpty)
    }

    @Test("PRK-1 settings that break a rule are refused with the same words as a site file",
          arguments: [
            (#"{"price": {"currency": "USD", "hourly": "5.00", "dailyMax": "3.00"}}"#, #""dailyMax" in "price" (3.00 USD) must be at least "hourly" (5.00 USD)"#),
            (#"{"price": {"currency": "USD", "hourly": "1.00", "dailyMax": "3.00"}, "booking": {"spaces": 11}}"#, #""spaces" in "booking" must be at most the lot's 10 spaces, not 11."#),
            (#"{"price": {"currency": "USD", "hourly": "1.00", "dailyMax": "3.00"}, "colour": "red"}"#, #"has "colour", which is not a setting"#),
            (#"{"hours": [{"days": "Mo-Fr", "open": "07:00", "close": "22:00"}]}"#, #"needs "price""#),
            (#"{"price": {"currency": "USD", "hourly": "1.00", "dailyMax": "3.00"}, "hours": [{"days": "Xx", "open": "07:00", "close": "22:00"}]}"#, #""days""#),
            (#"{"price": {"currency": "USD", "hourly": "1.00", "dailyMax": "3.00"}, "rules": ["Park\u0000here"]}"#, "without control characters"),
            (#"{"price": {"currency": "USD", "hourly": "1.00", "dailyMax": "3.00"}, "permits": [{"days": "Mo-Fr", "from": "07:00", "to": "17:00", "permits": ["staff"]}]}"#,
             #""permits" names "staff", which the site does not issue (the site's permits are "green", "yellow", "black""#),
            ("[1]", "must be one object"),
            ("{", "is not JSON"),
          ])
    func prk1SettingsRefused(json: String, expected: String) {
        let read = SiteImport.lotSettings(Data(json.utf8), capacity: 10, sitePermits: DemoCampus.fullerton.permits, source: "settings")
        #expect(read.settings == nil)
        #expect(read.problems.count == 1, "\(read.problems)")
        #expect(read.problems.first?.rule.contains(expected) == true, "\(read.problems.first?.rule ?? "")")
    }

    // MARK: Fuzzing

    enum Step { case key(String), index(Int) }

    static func paths(_ v: JSONValue, _ prefix: [Step] = []) -> [[Step]] {
        switch v {
        case .object(let o): o.keys.sorted().flatMap { k in [prefix + [.key(k)]] + paths(o[k] ?? .null, prefix + [.key(k)]) }
        case .array(let a): a.indices.flatMap { i in [prefix + [.index(i)]] + paths(a[i], prefix + [.index(i)]) }
        default: []
        }
    }

    /// `v` with the value at `path` replaced, or removed when `new` is nil and it is an object's key.
    static func replacing(_ v: JSONValue, at path: ArraySlice<Step>, with new: JSONValue?) -> JSONValue {
        guard let step = path.first else { return new ?? .null }
        switch (v, step) {
        case (.object(var o), .key(let k)):
            if path.count == 1, new == nil { o[k] = nil } else { o[k] = replacing(o[k] ?? .null, at: path.dropFirst(), with: new) }
            return .object(o)
        case (.array(var a), .index(let i)) where a.indices.contains(i):
            a[i] = replacing(a[i], at: path.dropFirst(), with: new)
            return .array(a)
        default: return v
        }
    }

    @Test("PRK-1 300 random mutations of the fixture never crash: each reads whole or gives a problem")
    func prk1Fuzz() throws {
        let geo = try Self.fixture("riverside-college.geojson")
        let csv = String(decoding: try Self.fixture("riverside-college-spots.csv"), as: UTF8.self)
        let root = try JSONValue(parsing: geo)
        let paths = Self.paths(root)
        let replacements: [JSONValue?] = [
            nil, .null, .string(""), .string("x"), .string("NaN"), .string("2"), .string("-1e400"), .number(0), .number(-1), .number(0.5),
            .number(359.99), .number(1e300), .number(-1e300), .number(4_503_599_627_370_497), .bool(true), .array([]),
            .array([.number(1), .array([.number(2)])]), .array([.number(-117.33), .number(33.97)]), .object([:]),
            .object(["type": .string("Point"), "coordinates": .array([.number(200), .number(100)])]),
        ]
        var rng = SplitMix64(seed: 20_250_601)
        var read = 0, refused = 0
        for round in 0..<300 {
            var data = geo, spots = csv
            if round % 5 == 4 {
                // A CSV cell replaced, a line dropped or a quote left open.
                var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let l = Int.random(in: 0..<(lines.count - 1), using: &rng)
                var cells = lines[l].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                let c = Int.random(in: 0..<cells.count, using: &rng)
                cells[c] = ["", "x", "\"", "-1", "1e999", "nan", "0x10", "M1", "ev", "999", "\"a,b\""].randomElement(using: &rng) ?? ""
                lines[l] = cells.joined(separator: ",")
                if Bool.random(using: &rng) { lines.remove(at: Int.random(in: 0..<lines.count, using: &rng)) }
                spots = lines.joined(separator: "\n")
            } else {
                let path = try #require(paths.randomElement(using: &rng))
                let new = try #require(replacements.randomElement(using: &rng))
                data = Data(JSONText.pretty(Self.replacing(root, at: path[...], with: new)).utf8)
            }
            let r = SiteImport.read(geoJSON: data, file: "fuzz.geojson", spotsCSV: Data(spots.utf8), csvFile: "fuzz.csv")
            #expect((r.site != nil) != !r.problems.isEmpty, "round \(round)")
            #expect(r.problems.count <= SiteImport.maximumProblems + 1)
            if r.site == nil { refused += 1 } else { read += 1 }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        #expect(read > 10 && refused > 100)
    }
}
