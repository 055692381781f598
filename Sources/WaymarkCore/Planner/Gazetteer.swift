import Foundation

/// A named place an event can be held at (PLN-2): from a demo gazetteer, a venue's building or a
/// parking lot.
public struct GazetteerPlace: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case landmark, campus, station, building, lot
    }

    public var name: String
    public var kind: Kind
    public var detail: String?
    public var latitude: Double
    public var longitude: Double

    public init(name: String, kind: Kind, detail: String?, latitude: Double, longitude: Double) {
        self.name = name
        self.kind = kind
        self.detail = detail
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Finds places by name as a person types: every word of the question must begin a word of the
/// name or detail (accents and case ignored); names whose words match whole rank first, then
/// those matched in the name rather than the detail, then by name.
public enum Gazetteer {
    public static func search(_ query: String, in places: [GazetteerPlace], limit: Int) -> [GazetteerPlace] {
        let wanted = words(query)
        guard !wanted.isEmpty, limit > 0 else { return [] }
        var scored: [(score: Int, place: GazetteerPlace)] = []
        for place in places {
            let name = words(place.name)
            let detail = words(place.detail ?? "")
            var score = 0
            var matched = true
            for w in wanted {
                if name.contains(w) { score += 0 }
                else if name.contains(where: { $0.hasPrefix(w) }) { score += 1 }
                else if detail.contains(where: { $0.hasPrefix(w) }) { score += 3 }
                else { matched = false; break }
            }
            if matched { scored.append((score, place)) }
        }
        scored.sort { ($0.score, $0.place.name, $0.place.latitude) < ($1.score, $1.place.name, $1.place.latitude) }
        return scored.prefix(limit).map(\.place)
    }

    /// The words of a text, accents and case folded away.
    public static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }
}
