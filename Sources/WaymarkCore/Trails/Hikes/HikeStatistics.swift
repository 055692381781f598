import Foundation

/// What a person gives for calories and steps (TRL-6): calories need all three, as the seed asks.
public struct HikerBody: Hashable, Sendable, Codable {
    public var heightCentimetres: Double?
    public var weightKilograms: Double?
    public var ageYears: Int?

    public init(heightCentimetres: Double? = nil, weightKilograms: Double? = nil, ageYears: Int? = nil) {
        self.heightCentimetres = heightCentimetres; self.weightKilograms = weightKilograms; self.ageYears = ageYears
    }

    /// Calories are shown only when the profile has age, weight and height.
    public var hasCalorieProfile: Bool { heightCentimetres != nil && weightKilograms != nil && ageYears != nil }
}

/// The figures of a hike, live on the Current Hike card and saved in History (TRL-6). The web
/// app and the server compute them here, from the same fixes, so they agree.
///
/// - The path is walked in steps: from the last counted fix to the first one further away than
///   the receiver's own wander (`minimumStep`, or the mean of the two fixes' accuracies when
///   larger), so a resting hiker's wandering fix adds no distance. A step's time runs from when
///   the hiker was last seen at its start; taken at `movingSpeed` or faster it is moving time,
///   slower (a dawdle around a viewpoint) it is not.
/// - Elevation gain cleans the moving steps' elevations as the catalogue does (`ElevationProfile`).
/// - Steps: the distance over a stride of 41.4 % of the hiker's height (170 cm when unknown).
/// - Calories: the ACSM metabolic equations (American College of Sports Medicine, *Guidelines for
///   Exercise Testing and Prescription*): walking VO₂ = 0.1·S + 1.8·S·G + 3.5 ml/kg/min, running
///   (faster than 100 m/min) VO₂ = 0.2·S + 0.9·S·G + 3.5, S in m/min and G the uphill grade
///   (downhill counted as level, which the equations do not cover); at rest 3.5 (one MET);
///   5 kcal per litre of oxygen. Age does not enter these equations; it is asked for with weight
///   and height, as the seed asks, before calories are shown.
public struct HikeStatistics: Hashable, Sendable, Codable {
    public var elapsedSeconds: Double
    public var movingSeconds: Double
    public var distanceMetres: Double
    public var gainMetres: Double
    /// Over the moving time, metres per second.
    public var averageSpeed: Double
    /// Over the steps of the last `recentSeconds`; 0 when standing, nil without a fix in that time.
    public var currentSpeed: Double?
    public var steps: Int
    public var calories: Double?
    public var keptFixes: Int
    public var droppedFixes: Int

    public static let movingSpeed = 0.3
    public static let minimumStep = 5.0
    public static let recentSeconds = 30.0

    /// One step of the path: from one counted fix to the next.
    struct Step { var from: HikeFix; var to: HikeFix; var metres: Double; var seconds: Double }

    /// - Parameters:
    ///   - fixes: as the device reported them, in any order
    ///   - start, end: the stopwatch's start, and its stop (or now, while recording)
    public init(fixes: [HikeFix], start: Date, end: Date, body: HikerBody = HikerBody(), filter: HikeFixFilter = HikeFixFilter()) {
        let (segments, dropped) = filter.segments(fixes.filter { $0.time >= start && $0.time <= end })
        self.init(segments: segments, dropped: dropped, end: end, start: start, body: body)
    }

    /// The figures of what `HikeFixFilter.segments` kept, for a caller that also keeps the fixes
    /// themselves (the server stores them), so they are filtered once.
    public init(segments: [[HikeFix]], dropped: Int, end: Date, start: Date, body: HikerBody = HikerBody()) {
        var moving = 0.0, distance = 0.0, movingKcalPerKg = 0.0
        var movingPoints: [GPXDocument.Point] = []
        var recent: [Step] = []
        for segment in segments {
            var run: [GPXDocument.Point] = []
            for step in Self.steps(segment) {
                if end.timeIntervalSince(step.to.time) <= Self.recentSeconds { recent.append(step) }
                guard step.metres / step.seconds >= Self.movingSpeed else {
                    if run.count > 1 { movingPoints += run }
                    run = []
                    continue
                }
                moving += step.seconds
                distance += step.metres
                if run.isEmpty { run.append(GPXDocument.Point(coordinate: step.from.coordinate, elevation: step.from.elevation)) }
                run.append(GPXDocument.Point(coordinate: step.to.coordinate, elevation: step.to.elevation))
                let rise = step.from.elevation.flatMap { a in step.to.elevation.map { b in b - a } } ?? 0
                let grade = min(0.45, max(0, rise / step.metres))
                movingKcalPerKg += Self.oxygen(metresPerMinute: step.metres / step.seconds * 60, grade: grade) * step.seconds / 60 / 1000 * 5
            }
            if run.count > 1 { movingPoints += run }
        }
        let elapsed = max(0, end.timeIntervalSince(start))
        elapsedSeconds = elapsed
        movingSeconds = moving
        distanceMetres = distance
        gainMetres = movingPoints.count > 1 ? ElevationProfile(movingPoints).gain : 0
        averageSpeed = moving > 0 ? distance / moving : 0
        let lastFix = segments.last?.last
        if let lastFix, end.timeIntervalSince(lastFix.time) <= Self.recentSeconds {
            let seconds = recent.reduce(0) { $0 + $1.seconds }
            currentSpeed = seconds > 0 ? recent.filter { $0.metres / $0.seconds >= Self.movingSpeed }.reduce(0) { $0 + $1.metres } / seconds : 0
        } else {
            currentSpeed = nil
        }
        let stride = (body.heightCentimetres ?? 170) * 0.414 / 100
        steps = stride > 0 ? Int((distance / stride).rounded()) : 0
        if body.hasCalorieProfile, let kg = body.weightKilograms {
            let restingKcalPerKg = 3.5 * max(0, elapsed - moving) / 60 / 1000 * 5
            calories = (movingKcalPerKg + restingKcalPerKg) * kg
        } else {
            calories = nil
        }
        keptFixes = segments.reduce(0) { $0 + $1.count }
        droppedFixes = dropped
    }

    /// The segment walked in steps longer than the receivers' wander. A step's time starts when
    /// the hiker was last seen at its start: a fix near the start and no further from it than the
    /// one before says the hiker is still there (resting, the fix wandering), while fixes moving
    /// steadily away are the walk itself.
    static func steps(_ segment: [HikeFix]) -> [Step] {
        guard var anchor = segment.first else { return [] }
        var out: [Step] = []
        var seenAt = anchor.time, lastNear = 0.0
        for fix in segment.dropFirst() {
            let metres = Geo.distance(anchor.coordinate, fix.coordinate)
            guard metres >= max(minimumStep, (anchor.accuracy + fix.accuracy) / 2) else {
                if metres <= lastNear { seenAt = fix.time }
                lastNear = metres
                continue
            }
            out.append(Step(from: anchor, to: fix, metres: metres, seconds: fix.time.timeIntervalSince(seenAt)))
            anchor = fix
            seenAt = fix.time
            lastNear = 0
        }
        return out
    }

    /// ml of oxygen per kg and minute (ACSM).
    static func oxygen(metresPerMinute s: Double, grade g: Double) -> Double {
        s <= 100 ? 0.1 * s + 1.8 * s * g + 3.5 : 0.2 * s + 0.9 * s * g + 3.5
    }
}
