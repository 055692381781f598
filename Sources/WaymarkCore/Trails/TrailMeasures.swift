import Foundation

/// How hard a trail is, in the three tiers a trail page shows (TRL-1).
public enum TrailDifficulty: String, Hashable, Sendable, Codable, CaseIterable {
    case easy, moderate, hard
}

/// The figures of a trail's page, from its path (TRL-1): length on the map and along the slope,
/// elevation gain and loss, highest and lowest points, average and steepest grade, the effort
/// rating, and a tier for trails that have no official grade.
public struct TrailMeasures: Hashable, Sendable {
    public var profile: ElevationProfile
    /// Along the slope: each stretch's length with its climb or descent, from cleaned elevations.
    public var slopeMetres: Double
    /// The steepest stretch of at least `Self.gradeStretch` metres, up or down, in percent.
    public var steepestGrade: Double

    public var metres: Double { profile.metres }
    public var gain: Double { profile.gain }
    public var loss: Double { profile.loss }
    public var highest: Double? { profile.highest }
    public var lowest: Double? { profile.lowest }
    /// Gain over length, in percent.
    public var averageGrade: Double { metres > 0 ? gain / metres * 100 : 0 }

    /// Grades over shorter stretches than this are mostly the receiver's noise.
    public static let gradeStretch = 100.0

    public init(_ points: [GPXDocument.Point], settings: ElevationProfile.Settings = .init()) {
        let profile = ElevationProfile(points, settings: settings)
        var slope = 0.0, covered = 0.0
        for i in profile.distances.indices.dropFirst() {
            let run = profile.distances[i] - profile.distances[i - 1]
            let rise = profile.elevations[i] - profile.elevations[i - 1]
            slope += (run * run + rise * rise).squareRoot()
            covered += run
        }
        self.profile = profile
        self.slopeMetres = slope + (profile.metres - covered)  // stretches with no elevation are taken as flat
        self.steepestGrade = Self.steepest(profile)
    }

    static func steepest(_ p: ElevationProfile) -> Double {
        var best = 0.0, j = 0
        for i in p.distances.indices {
            while j < p.distances.count && p.distances[j] - p.distances[i] < gradeStretch { j += 1 }
            guard j < p.distances.count else { break }
            let run = p.distances[j] - p.distances[i]
            best = max(best, abs(p.elevations[j] - p.elevations[i]) / run * 100)
        }
        return best
    }

    /// The effort rating used by US national parks (Shenandoah's): the square root of the
    /// elevation gain in feet times twice the length in miles.
    public var effortRating: Double {
        (gain / 0.3048 * 2 * metres / 1_609.344).squareRoot()
    }

    /// The rating in three tiers: under 50 easy (the parks' "easiest"), under 150 moderate
    /// ("moderate" and "moderately strenuous"), hard above.
    public var difficulty: TrailDifficulty {
        switch effortRating {
        case ..<50: .easy
        case ..<150: .moderate
        default: .hard
        }
    }

    /// Steps for the length along the slope, with a stride of 41.4 % of the walker's height (a
    /// common rule of thumb for walking); 170 cm when the height is not known.
    public func steps(heightCentimetres: Double? = nil) -> Int {
        let stride = (heightCentimetres ?? 170) * 0.414 / 100
        return stride > 0 ? Int((slopeMetres / stride).rounded()) : 0
    }
}
