import Foundation

/// Elevation along a path, cleaned the way careful hiking apps do before anything is summed
/// (TRL-1): a point far from its neighbours' median is a spike (a receiver's 0 m, a jump of a
/// lost fix) and takes that median; what is left is averaged over a short stretch of the path,
/// and the path turns from climbing to descending (or back) only once it has gone back by a
/// threshold's height, so noise of a few metres adds nothing. Summing every wiggle instead can
/// double a track's gain.
public struct ElevationProfile: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Further than this from the median of the seven points around it is a spike.
        public var spikeMetres: Double = 40
        /// Each elevation becomes the mean of the points within this distance along the path.
        public var smoothingMetres: Double = 30
        /// A climb or descent smaller than this, from the last turn, is noise.
        public var thresholdMetres: Double = 5

        public init() {}
    }

    /// The path's length on the ground, every point counted.
    public var metres: Double
    /// Metres along the path (on the ground, ignoring the slope) at each point with an elevation.
    public var distances: [Double]
    /// Cleaned elevations at those points.
    public var elevations: [Double]
    public var gain: Double
    public var loss: Double
    /// Spikes replaced.
    public var spikes: Int

    public var highest: Double? { elevations.max() }
    public var lowest: Double? { elevations.min() }

    /// `points` in order; those without an elevation count for distance only.
    public init(_ points: [GPXDocument.Point], settings: Settings = Settings()) {
        var along: [Double] = [], raw: [Double] = []
        var walked = 0.0
        var previous: Coordinate?
        for p in points {
            if let previous { walked += Geo.distance(previous, p.coordinate) }
            previous = p.coordinate
            if let e = p.elevation {
                along.append(walked)
                raw.append(e)
            }
        }
        let (despiked, spikes) = Self.despike(raw, limit: settings.spikeMetres)
        let smooth = Self.smooth(despiked, along: along, within: settings.smoothingMetres)
        let (gain, loss) = Self.climb(smooth, threshold: settings.thresholdMetres)
        self.metres = walked
        self.distances = along
        self.elevations = smooth
        self.gain = gain
        self.loss = loss
        self.spikes = spikes
    }

    static func despike(_ e: [Double], limit: Double) -> ([Double], Int) {
        guard e.count >= 3 else { return (e, 0) }
        var out = e, count = 0
        for i in e.indices {
            let window = Array(e[max(0, i - 3)...min(e.count - 1, i + 3)]).sorted()
            let median = window.count % 2 == 1 ? window[window.count / 2] : (window[window.count / 2 - 1] + window[window.count / 2]) / 2
            if abs(e[i] - median) > limit {
                out[i] = median
                count += 1
            }
        }
        return (out, count)
    }

    static func smooth(_ e: [Double], along d: [Double], within metres: Double) -> [Double] {
        guard metres > 0, e.count > 2 else { return e }
        var out = e
        var lo = 0, hi = 0, sum = 0.0
        for i in e.indices {
            while hi < e.count && d[hi] <= d[i] + metres / 2 { sum += e[hi]; hi += 1 }
            while d[lo] < d[i] - metres / 2 { sum -= e[lo]; lo += 1 }
            out[i] = sum / Double(hi - lo)
        }
        return out
    }

    /// The full height of each climb and descent, from one turn to the next, where a turn is
    /// confirmed only by going back `threshold` metres: reversals smaller than that are noise.
    static func climb(_ e: [Double], threshold: Double) -> (gain: Double, loss: Double) {
        guard let first = e.first else { return (0, 0) }
        var gain = 0.0, loss = 0.0
        var low = first, high = first
        var turn = first, peak = first
        var up: Bool?
        for x in e.dropFirst() {
            switch up {
            case nil:
                low = min(low, x)
                high = max(high, x)
                if x - low >= threshold {
                    up = true; turn = low; peak = x
                } else if high - x >= threshold {
                    up = false; turn = high; peak = x
                }
            case true?:
                if x > peak {
                    peak = x
                } else if peak - x >= threshold {
                    gain += peak - turn; turn = peak; peak = x; up = false
                }
            case false?:
                if x < peak {
                    peak = x
                } else if x - peak >= threshold {
                    loss += turn - peak; turn = peak; peak = x; up = true
                }
            }
        }
        if up == true { gain += peak - turn } else if up == false { loss += turn - peak }
        return (gain, loss)
    }
}
