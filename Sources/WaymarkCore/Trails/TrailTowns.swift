import Foundation

/// A small gazetteer of the towns around the demo regions, for the trail search box (TRL-2):
/// "Redlands" finds the trails near Redlands though none is named after it.
public enum TrailTowns {
    public struct Town: Hashable, Sendable {
        public var name: String
        public var position: Coordinate
    }

    static func town(_ name: String, _ lat: Double, _ lon: Double) -> Town {
        Town(name: name, position: Coordinate(latitude: lat, longitude: lon))
    }

    /// Town centres, approximately.
    public static let all: [Town] = [
        town("Anaheim", 33.8366, -117.9143), town("Big Bear City", 34.2611, -116.8450), town("Big Bear Lake", 34.2439, -116.9114),
        town("Brea", 33.9167, -117.9001), town("Buena Park", 33.8675, -117.9981), town("Chino Hills", 33.9898, -117.7326),
        town("Claremont", 34.0967, -117.7198), town("Crestline", 34.2419, -117.2856), town("Devore", 34.2197, -117.4045),
        town("Fawnskin", 34.2675, -116.9414), town("Fontana", 34.0922, -117.4350), town("Forest Falls", 34.0886, -116.9197),
        town("Fullerton", 33.8704, -117.9242), town("Hesperia", 34.4264, -117.3009), town("Highland", 34.1283, -117.2086),
        town("La Habra", 33.9319, -117.9462), town("Lake Arrowhead", 34.2483, -117.1892), town("Oak Glen", 34.0486, -116.9364),
        town("Ontario", 34.0633, -117.6509), town("Orange", 33.7879, -117.8531), town("Palm Desert", 33.7222, -116.3745),
        town("Placentia", 33.8722, -117.8703), town("Redlands", 34.0556, -117.1825), town("Rialto", 34.1064, -117.3703),
        town("Riverside", 33.9533, -117.3962), town("Running Springs", 34.2078, -117.1092), town("San Bernardino", 34.1083, -117.2898),
        town("Whittier", 33.9792, -118.0328), town("Yorba Linda", 33.8886, -117.8131), town("Yucaipa", 34.0336, -117.0431),
    ]

    /// The town whose name starts with what was typed (accents and case aside): the shortest
    /// such name, then the first by name; nil under three letters or when none does.
    public static func match(_ typed: String) -> Town? {
        let q = SearchText.fold(typed).trimmingCharacters(in: .whitespaces)
        guard q.count >= 3 else { return nil }
        return all.filter { SearchText.fold($0.name).hasPrefix(q) }.min { ($0.name.count, $0.name) < ($1.name.count, $1.name) }
    }
}
