/// Display units (ACC-10).
public struct UnitPreferences: Codable, Hashable, Sendable {
    public enum Distance: String, Codable, Sendable, CaseIterable { case mi, km }
    public enum Temperature: String, Codable, Sendable, CaseIterable { case F, C }
    public enum Elevation: String, Codable, Sendable, CaseIterable { case ft, m }

    public var distance: Distance
    public var temperature: Temperature
    public var elevation: Elevation

    public init(distance: Distance, temperature: Temperature, elevation: Elevation) {
        self.distance = distance
        self.temperature = temperature
        self.elevation = elevation
    }

    public static let metric = UnitPreferences(distance: .km, temperature: .C, elevation: .m)
    public static let usCustomary = UnitPreferences(distance: .mi, temperature: .F, elevation: .ft)

    /// The usual units of a locale's region ("en_US", "en-LR", "de-DE").
    public static func forLocale(_ identifier: String) -> UnitPreferences {
        let region = identifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).last.map { $0.uppercased() } ?? ""
        return ["US", "LR", "MM"].contains(region) ? .usCustomary : .metric
    }
}
