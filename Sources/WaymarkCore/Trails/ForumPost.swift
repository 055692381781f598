import Foundation

/// What a post on a trail's community forum may hold (TRL-5): a few lines of text and the point
/// it is about, chosen on a drop-pin map. A pin far from the trail is refused, because a post
/// about somewhere else belongs on that trail's forum.
public enum ForumPostRules {
    /// A note about a spot ("water at the second bridge"), not an essay.
    public static let maxTextLength = 1000
    /// How far from the nearest point of the path a pin may be dropped.
    public static let maxPinDistance = 5_000.0

    public enum Violation: Error, Equatable, Sendable {
        case textEmpty
        case textTooLong(length: Int)
        case textHasControlCharacters
        case pinInvalid
        case pinTooFar(metres: Double)
    }

    /// The text as it will be stored (trimmed; its length counted in characters as people see
    /// them) once the text and the pin keep the rules.
    public static func validated(text: String, pin: Coordinate, trail: Trail) throws(Violation) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .textEmpty }
        guard trimmed.count <= maxTextLength else { throw .textTooLong(length: trimmed.count) }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) else {
            throw .textHasControlCharacters
        }
        guard pin.isValid else { throw .pinInvalid }
        let nearest = distanceFromPath(pin, trail)
        guard nearest <= maxPinDistance else { throw .pinTooFar(metres: nearest) }
        return trimmed
    }

    /// Metres from `point` to the nearest point of the trail's path (its vertices: paths are drawn
    /// every few tens of metres, far finer than the limit).
    public static func distanceFromPath(_ point: Coordinate, _ trail: Trail) -> Double {
        trail.path.lazy.map { Geo.distance(point, $0.coordinate) }.min() ?? .infinity
    }
}
