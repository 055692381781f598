import Foundation

/// A parking site from files (PRK-1): a GeoJSON FeatureCollection with one site, its lots and
/// optionally their surveyed spots, plus an optional CSV of more spots. A file is taken whole or
/// not at all, since a site missing one lot would go live with a wrong capacity; every refusal
/// names the file, the feature or line, and the rule. The format is described in SITE_FILES.md.
public enum SiteImport {
    public typealias Problem = FileProblem

    public struct ImportedSite: Sendable, Hashable {
        public var plan: SitePlan
        /// Lot code → every spot of the lot, ordinals 0..<count; generated for lots whose file
        /// gives only a capacity.
        public var spots: [String: [SpotPlan]]

        public init(plan: SitePlan, spots: [String: [SpotPlan]]) { self.plan = plan; self.spots = spots }
    }

    public struct Result: Sendable {
        /// Nil whenever there is a problem.
        public var site: ImportedSite?
        /// In file order (the GeoJSON file, then the CSV); at most `maximumProblems`, then one
        /// saying how many more there were.
        public var problems: [Problem]
    }

    public static let maximumProblems = 100
    public static let maximumCapacity = 20_000
    public static let maximumLevels = 20
    /// Metres from the outline; a point inside it is 0 m away.
    public static let entranceReach = 100.0
    public static let spotReach = 50.0
    /// Corners of a lot's outline, and metres it may span each way.
    public static let maximumOutlinePositions = 500
    public static let maximumLotSpan = 2_000.0
    public static let maximumRules = 10
    public static let maximumBookingDays = 90
    public static let defaultRateUnitMinutes = 60
    public static let defaultBookingDays = 7

    /// The columns a spots CSV must have, and those it may have.
    public static let requiredColumns = ["lot", "label", "level", "kind", "latitude", "longitude"]
    public static let optionalColumns = ["heading", "sensor", "length", "width"]

    /// The words of a spot's "kind", in the order the format lists them.
    public static let spotKinds: [(word: String, category: SpotCategory)] = [
        ("standard", .regular), ("accessible", .handicap), ("ev", .ev),
        ("motorcycle", .motorcycle), ("reserved", .reserved), ("visitor", .visitor),
    ]

    /// Stall size when the file gives none, in metres.
    public static func defaultSize(_ category: SpotCategory) -> (length: Double, width: Double) {
        category == .motorcycle ? (2.5, 1.2) : (5.0, 2.5)
    }

    /// `"<site>-<lot>-<label>"` lower-cased, the id `SpotLayout` gives a generated stall.
    public static func defaultSensorId(siteCode: String, lotCode: String, label: String) -> String {
        "\(siteCode)-\(lotCode)-\(label)".lowercased()
    }

    /// Reads a site file and, when given, a spots CSV. `file` and `csvFile` are the names the
    /// problems use.
    public static func read(geoJSON: Data, file: String, spotsCSV: Data? = nil, csvFile: String? = nil) -> Result {
        var reader = Reader(file: file, csvFile: csvFile ?? "spots.csv")
        let site = reader.read(geoJSON: geoJSON, spotsCSV: spotsCSV)
        let problems = reader.sortedProblems()
        return Result(site: problems.isEmpty ? site : nil, problems: problems)
    }
}
