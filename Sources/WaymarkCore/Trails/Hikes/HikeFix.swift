import Foundation

/// One position the device reported while a hike was recorded (TRL-6).
public struct HikeFix: Hashable, Sendable, Codable {
    public var time: Date
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level, when the device gives it.
    public var elevation: Double?
    /// Metres: the radius the device is about two-thirds sure the position lies within.
    public var accuracy: Double

    public init(time: Date, latitude: Double, longitude: Double, elevation: Double? = nil, accuracy: Double) {
        self.time = time; self.latitude = latitude; self.longitude = longitude; self.elevation = elevation; self.accuracy = accuracy
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

extension HikeFix {
    /// The fix as the API carries it: `[seconds from the hike's start (to the millisecond),
    /// latitude, longitude, accuracy, elevation?]`, short enough for 20,000 of them in a request.
    public func wire(start: Date) -> [Double] {
        [(time.timeIntervalSince(start) * 1000).rounded() / 1000, latitude, longitude, accuracy] + (elevation.map { [$0] } ?? [])
    }

    /// A fix read from the API's form; nil when it has not four or five numbers.
    public init?(wire a: [Double], start: Date) {
        guard (4...5).contains(a.count) else { return nil }
        self.init(time: start.addingTimeInterval(a[0]), latitude: a[1], longitude: a[2], elevation: a.count == 5 ? a[4] : nil, accuracy: a[3])
    }
}

/// Which fixes a recording keeps. A fix too vague to place (accuracy worse than
/// `maximumAccuracy`) is dropped, and so is one that would mean moving faster than anyone on
/// foot (`maximumSpeed`) from the last one kept: a receiver's jump. When the device really was
/// somewhere else (the first fix was the wrong one, or the phone slept in a car), the fixes that
/// follow agree with each other and not with the past: after `confirmations` of them in a row,
/// the recording starts a new segment there, and the jump between segments counts for nothing.
public struct HikeFixFilter: Hashable, Sendable {
    public var maximumAccuracy = 30.0
    /// 7 m/s is 25 km/h: a fell runner downhill, not a walker.
    public var maximumSpeed = 7.0
    public var confirmations = 3

    public init() {}

    /// The kept fixes in time order, split into segments; and how many were dropped.
    public func segments(_ fixes: [HikeFix]) -> (segments: [[HikeFix]], dropped: Int) {
        let ordered = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var segments: [[HikeFix]] = [], current: [HikeFix] = [], pending: [HikeFix] = []
        var dropped = 0
        for fix in ordered {
            guard fix.accuracy.isFinite, fix.accuracy >= 0, fix.accuracy <= maximumAccuracy, fix.coordinate.isValid,
                  fix.elevation.map(\.isFinite) ?? true else { dropped += 1; continue }
            guard let last = current.last else { current = [fix]; continue }
            // The same moment twice (a duplicate, or a fix that went back in time) adds nothing.
            guard fix.time > last.time else { dropped += 1; continue }
            if plausible(from: last, to: fix) {
                dropped += pending.count
                pending.removeAll()
                current.append(fix)
                continue
            }
            if let p = pending.last, fix.time > p.time, plausible(from: p, to: fix) { pending.append(fix) } else {
                dropped += pending.count
                pending = [fix]
            }
            if pending.count >= confirmations {
                segments.append(current)
                current = pending
                pending.removeAll()
            }
        }
        dropped += pending.count
        if !current.isEmpty { segments.append(current) }
        return (segments, dropped)
    }

    func plausible(from a: HikeFix, to b: HikeFix) -> Bool {
        let seconds = b.time.timeIntervalSince(a.time)
        return seconds > 0 && Geo.distance(a.coordinate, b.coordinate) / seconds <= maximumSpeed
    }
}
