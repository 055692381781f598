import Foundation

/// The five pictures a trail page's weather shows (TRL-3).
public enum WeatherCondition: String, Hashable, Sendable, Codable, CaseIterable {
    case sunny, partlyCloudy, rainy, snowy, windy

    /// Wind at or above this (the day's strongest, km/h) is "windy": a "strong breeze", where
    /// walking on an exposed ridge gets hard.
    public static let windyKmh = 39.0

    /// From a WMO weather code (table 4677, as Open-Meteo gives it) and the day's strongest wind.
    /// Rain and snow win over wind; wind wins over sun and cloud.
    public init(wmoCode code: Int, maxWindKmh: Double?) {
        switch code {
        case 71...77, 85, 86: self = .snowy
        case 51...67, 80...82, 95...99: self = .rainy
        default:
            if let wind = maxWindKmh, wind >= Self.windyKmh { self = .windy; return }
            self = code <= 1 ? .sunny : .partlyCloudy
        }
    }
}

/// One day of a forecast at a place: its local date, picture and high and low in °C.
public struct DayForecast: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD` in the place's time zone.
    public var date: String
    public var condition: WeatherCondition
    public var wmoCode: Int
    public var highCelsius: Double
    public var lowCelsius: Double
    public var maxWindKmh: Double?

    public init(date: String, condition: WeatherCondition, wmoCode: Int, highCelsius: Double, lowCelsius: Double, maxWindKmh: Double? = nil) {
        self.date = date; self.condition = condition; self.wmoCode = wmoCode
        self.highCelsius = highCelsius; self.lowCelsius = lowCelsius; self.maxWindKmh = maxWindKmh
    }
}

/// A forecast as a provider gave it: the place's time zone and its days.
public struct Forecast: Hashable, Sendable, Codable {
    public var timeZone: String
    public var days: [DayForecast]

    public init(timeZone: String, days: [DayForecast]) { self.timeZone = timeZone; self.days = days }

    /// Today (in the place's zone) and the days after, at most `count`: a forecast kept from
    /// yesterday starts at today.
    public func days(from now: Date, count: Int = 4) -> [DayForecast] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        let today = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        return Array(days.filter { $0.date >= today }.prefix(count))
    }
}
