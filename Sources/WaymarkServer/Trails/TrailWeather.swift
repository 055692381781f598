import Foundation
import Logging
import SQLKit
import WaymarkCore

/// A trail's four-day forecast (TRL-3), kept per area of about 10 km so that trailheads close
/// together ask the provider once. A forecast younger than `freshFor` is answered from the
/// database; when the provider fails, the last one is answered, marked stale, with its age.
struct TrailWeather: Sendable {
    let store: SQLStore
    let provider: (any WeatherProvider)?
    let now: @Sendable () -> Date
    let logger: Logger

    static let freshFor: TimeInterval = 3 * 3600

    struct Answer: Sendable {
        var days: [DayForecast]
        var timeZone: String
        var fetchedAt: Date
        var stale: Bool
    }

    /// The area a point belongs to: a tenth of a degree of latitude and longitude.
    static func area(_ c: Coordinate) -> String {
        String(format: "%.1f,%.1f", (c.latitude * 10).rounded() / 10, (c.longitude * 10).rounded() / 10)
    }

    /// Nil when there is no provider and nothing kept; throws `WeatherUnavailable` when the
    /// provider failed and nothing is kept.
    func forecast(at point: Coordinate) async throws -> Answer? {
        let area = Self.area(point)
        let kept = try await self.kept(area)
        let now = now()
        if let kept, now.timeIntervalSince(kept.fetchedAt) < Self.freshFor {
            return Answer(days: kept.forecast.days(from: now), timeZone: kept.forecast.timeZone, fetchedAt: kept.fetchedAt, stale: false)
        }
        guard let provider else {
            return kept.map { Answer(days: $0.forecast.days(from: now), timeZone: $0.forecast.timeZone, fetchedAt: $0.fetchedAt, stale: true) }
        }
        do {
            // The area's centre, so every trailhead of the area gets the same answer.
            let parts = area.split(separator: ",").compactMap { Double($0) }
            let fresh = try await provider.forecast(latitude: parts[0], longitude: parts[1])
            let body = try JSONColumn.encode(fresh)
            try await store.write { sql in
                try await sql.raw("""
                    INSERT INTO weather_forecasts (area, body, fetched_at) VALUES (\(bind: area), \(bind: body), \(bind: now.millis))
                    ON CONFLICT (area) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at
                    """).run()
            }
            return Answer(days: fresh.days(from: now), timeZone: fresh.timeZone, fetchedAt: now, stale: false)
        } catch {
            logger.warning("weather provider failed", metadata: ["area": .string(area), "error": "\(error)"])
            guard let kept else { throw error }
            return Answer(days: kept.forecast.days(from: now), timeZone: kept.forecast.timeZone, fetchedAt: kept.fetchedAt, stale: true)
        }
    }

    private func kept(_ area: String) async throws -> (forecast: Forecast, fetchedAt: Date)? {
        guard let r = try await store.sql.raw("SELECT body, fetched_at FROM weather_forecasts WHERE area = \(bind: area)").first() else { return nil }
        return (try JSONColumn.decode(Forecast.self, try r.decode(column: "body", as: String.self)),
                Date(millis: try r.decode(column: "fetched_at", as: Int64.self)))
    }
}
