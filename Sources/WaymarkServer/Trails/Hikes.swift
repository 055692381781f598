import Foundation
import SQLKit
import WaymarkCore

/// A saved hike as History shows it; `fixes` only when one hike is read.
struct HikeRow: Sendable {
    var id: String
    var trailId: String?
    var trailName: String
    var trailArea: String
    var difficulty: TrailDifficulty
    var startedAt: Date
    var endedAt: Date
    var elapsedSeconds: Double
    var movingSeconds: Double
    var distanceMetres: Double
    var gainMetres: Double
    var steps: Int
    var calories: Double?
    var fixes: [HikeFix]?
}

/// The hikes a person recorded (TRL-6) and what they told for steps and calories. The figures are
/// `HikeStatistics` of the fixes sent, computed here as the app computes them live; only the
/// fixes the recording keeps are stored. Each person sees only their own hikes.
struct Hikes: Sendable {
    let store: SQLStore
    let trails: TrailStore
    let now: @Sendable () -> Date

    static let maximumFixes = 20_000
    static let longest: TimeInterval = 48 * 3600

    enum Sort: String, Sendable { case date, trailName, difficulty, area }

    // MARK: The hiker's body

    /// What the person told, with the year of birth as told and the age worked out from it.
    func told(userId: String) async throws -> (body: HikerBody, birthYear: Int?) {
        guard let r = try await store.sql.raw("SELECT height_cm, weight_kg, birth_year FROM hiker_bodies WHERE user_id = \(bind: userId)").first() else {
            return (HikerBody(), nil)
        }
        let year = try r.decode(column: "birth_year", as: Int?.self)
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: now())
        let body = HikerBody(heightCentimetres: try r.decode(column: "height_cm", as: Double?.self),
                             weightKilograms: try r.decode(column: "weight_kg", as: Double?.self),
                             ageYears: year.map { thisYear - $0 })
        return (body, year)
    }

    /// Replaces what the person told; each figure is checked against what a person can be.
    func setBody(userId: String, heightCentimetres: Double?, weightKilograms: Double?, birthYear: Int?) async throws {
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: now())
        if let h = heightCentimetres, !(50...250).contains(h) { throw Problem.badRequest("heightCentimetres must be between 50 and 250.") }
        if let w = weightKilograms, !(20...350).contains(w) { throw Problem.badRequest("weightKilograms must be between 20 and 350.") }
        if let y = birthYear, !((thisYear - 120)...(thisYear - 5)).contains(y) {
            throw Problem.badRequest("birthYear must be between \(thisYear - 120) and \(thisYear - 5).")
        }
        let now = now()
        try await store.write { sql in
            try await sql.raw("DELETE FROM hiker_bodies WHERE user_id = \(bind: userId)").run()
            try await sql.raw("""
                INSERT INTO hiker_bodies (user_id, height_cm, weight_kg, birth_year, updated_at)
                VALUES (\(bind: userId), \(bind: heightCentimetres), \(bind: weightKilograms), \(bind: birthYear), \(bind: now.millis))
                """).run()
        }
    }

    // MARK: Hikes

    /// Saves the hike under the device's id (`created`); the same id sent again by the same
    /// person gives back what was saved, never a second hike.
    func save(userId: String, id: String, trailId: String, startedAt: Date, endedAt: Date, fixes: [HikeFix]) async throws -> (hike: HikeRow, created: Bool) {
        guard endedAt > startedAt else { throw Problem.badRequest("endedAt must be after startedAt.") }
        guard endedAt.timeIntervalSince(startedAt) <= Self.longest else { throw Problem.badRequest("A hike lasts at most 48 hours; stop and save it in parts.") }
        guard endedAt <= now().addingTimeInterval(300) else { throw Problem.badRequest("endedAt is in the future; check the device's clock.") }
        guard fixes.count <= Self.maximumFixes else { throw Problem.badRequest("At most \(Self.maximumFixes) fixes; keep one every few seconds.") }
        guard let trail = try await trails.row(trailId) else { throw Problem.unknownReference(field: "trailId", "trail") }
        let (segments, dropped) = HikeFixFilter().segments(fixes.filter { $0.time >= startedAt && $0.time <= endedAt })
        let stats = HikeStatistics(segments: segments, dropped: dropped, end: endedAt, start: startedAt, body: try await told(userId: userId).body)
        let encoded = String(decoding: try JSONEncoder().encode(segments.joined().map { $0.wire(start: startedAt) }), as: UTF8.self)
        let now = now()
        let created = try await store.write { sql -> Bool in
            let inserted = try await sql.raw("""
                INSERT INTO hikes (id, user_id, trail_id, trail_name, trail_area, difficulty, started_at, ended_at, fixes,
                                   elapsed_seconds, moving_seconds, distance_metres, gain_metres, steps, calories, created_at)
                VALUES (\(bind: id), \(bind: userId), \(bind: trail.id), \(bind: trail.name), \(bind: trail.area), \(bind: trail.difficulty.rawValue),
                        \(bind: startedAt.millis), \(bind: endedAt.millis), \(bind: encoded),
                        \(bind: stats.elapsedSeconds), \(bind: stats.movingSeconds), \(bind: stats.distanceMetres), \(bind: stats.gainMetres),
                        \(bind: stats.steps), \(bind: stats.calories), \(bind: now.millis))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """).first() != nil
            if inserted { return true }
            guard try await sql.raw("SELECT user_id FROM hikes WHERE id = \(bind: id)").first()?.decode(column: "user_id", as: String.self) == userId else {
                throw Problem.conflict("hike-id-taken", "Another hike has this id. Choose a new random id (a UUID) for a new hike.")
            }
            return false
        }
        guard let saved = try await hike(userId: userId, id: id) else { throw Problem.internalError }
        return (saved, created)
    }

    private static let columns: SQLQueryString = """
        id, trail_id, trail_name, trail_area, difficulty, started_at, ended_at, elapsed_seconds, moving_seconds,
        distance_metres, gain_metres, steps, calories
        """

    private static func row(_ r: any SQLRow, fixes: Bool) throws -> HikeRow {
        let start = Date(millis: try r.decode(column: "started_at", as: Int64.self))
        return HikeRow(
            id: try r.decode(column: "id", as: String.self), trailId: try r.decode(column: "trail_id", as: String?.self),
            trailName: try r.decode(column: "trail_name", as: String.self), trailArea: try r.decode(column: "trail_area", as: String.self),
            difficulty: TrailDifficulty(rawValue: try r.decode(column: "difficulty", as: String.self)) ?? .moderate,
            startedAt: start, endedAt: Date(millis: try r.decode(column: "ended_at", as: Int64.self)),
            elapsedSeconds: try r.decode(column: "elapsed_seconds", as: Double.self), movingSeconds: try r.decode(column: "moving_seconds", as: Double.self),
            distanceMetres: try r.decode(column: "distance_metres", as: Double.self), gainMetres: try r.decode(column: "gain_metres", as: Double.self),
            steps: try r.decode(column: "steps", as: Int.self), calories: try r.decode(column: "calories", as: Double?.self),
            fixes: fixes ? try JSONDecoder().decode([[Double]].self, from: Data(try r.decode(column: "fixes", as: String.self).utf8)).compactMap { HikeFix(wire: $0, start: start) } : nil)
    }

    /// Only ever the person's own: the statement names their user id.
    func hike(userId: String, id: String) async throws -> HikeRow? {
        try await store.sql.raw("SELECT \(Self.columns), fixes FROM hikes WHERE id = \(bind: id) AND user_id = \(bind: userId)")
            .first().map { try Self.row($0, fixes: true) }
    }

    func list(userId: String, sort: Sort, limit: Int, offset: Int) async throws -> (hikes: [HikeRow], total: Int) {
        let order: SQLQueryString = switch sort {
        case .date: "started_at DESC, id"
        case .trailName: "trail_name, started_at DESC, id"
        case .difficulty: "CASE difficulty WHEN 'easy' THEN 0 WHEN 'moderate' THEN 1 ELSE 2 END, trail_name, started_at DESC, id"
        case .area: "trail_area, trail_name, started_at DESC, id"
        }
        let rows = try await store.sql.raw("""
            SELECT \(Self.columns) FROM hikes WHERE user_id = \(bind: userId) ORDER BY \(order) LIMIT \(bind: limit) OFFSET \(bind: offset)
            """).all().map { try Self.row($0, fixes: false) }
        let total = try await store.sql.raw("SELECT COUNT(*) AS n FROM hikes WHERE user_id = \(bind: userId)").first()?.decode(column: "n", as: Int.self) ?? 0
        return (rows, total)
    }

    func delete(userId: String, id: String) async throws -> Bool {
        try await store.write { sql in
            try await sql.raw("DELETE FROM hikes WHERE id = \(bind: id) AND user_id = \(bind: userId) RETURNING id").first() != nil
        }
    }
}
