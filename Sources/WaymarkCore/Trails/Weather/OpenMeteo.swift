import Foundation

/// Open-Meteo's forecast API (https://open-meteo.com, data CC BY 4.0): the request a trail's
/// weather asks for and the reading of its answer. No key is needed.
public enum OpenMeteo {
    public static let credit = "Weather data by Open-Meteo.com"
    public static let creditURL = "https://open-meteo.com/"

    /// The daily forecast for a point, in its own time zone, `days` days from today.
    public static func forecastURL(base: String, latitude: Double, longitude: Double, days: Int = 4) -> URL? {
        var c = URLComponents(string: base.hasSuffix("/") ? base + "v1/forecast" : base + "/v1/forecast")
        c?.queryItems = [
            URLQueryItem(name: "latitude", value: String(format: "%.4f", latitude)),
            URLQueryItem(name: "longitude", value: String(format: "%.4f", longitude)),
            URLQueryItem(name: "daily", value: "weather_code,temperature_2m_max,temperature_2m_min,wind_speed_10m_max"),
            URLQueryItem(name: "timezone", value: "auto"),
            URLQueryItem(name: "forecast_days", value: String(days)),
        ]
        return c?.url
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a forecast answer. Open-Meteo echoes the names asked for, so the old
    /// `weathercode` alias is read too; wind is optional (its absence is never "windy").
    public static func parse(_ data: Data) throws(Failure) -> Forecast {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { throw Failure(description: "the answer is not JSON") }
        if root["error"] as? Bool == true { throw Failure(description: "Open-Meteo refused: \(root["reason"] as? String ?? "no reason given")") }
        guard let daily = root["daily"] as? [String: Any], let dates = daily["time"] as? [String] else {
            throw Failure(description: "the answer has no daily forecast")
        }
        let codes = (daily["weather_code"] ?? daily["weathercode"]) as? [Any]
        let highs = daily["temperature_2m_max"] as? [Any], lows = daily["temperature_2m_min"] as? [Any]
        guard let codes, let highs, let lows, codes.count == dates.count, highs.count == dates.count, lows.count == dates.count else {
            throw Failure(description: "the daily forecast lacks weather codes or temperatures")
        }
        let winds = daily["wind_speed_10m_max"] as? [Any]
        var days: [DayForecast] = []
        for i in dates.indices {
            // A day the model has no figures for (null) is left out rather than shown as 0 °C.
            guard let code = (codes[i] as? NSNumber)?.intValue, let high = (highs[i] as? NSNumber)?.doubleValue,
                  let low = (lows[i] as? NSNumber)?.doubleValue else { continue }
            let wind = winds.flatMap { i < $0.count ? ($0[i] as? NSNumber)?.doubleValue : nil }
            days.append(DayForecast(date: dates[i], condition: WeatherCondition(wmoCode: code, maxWindKmh: wind), wmoCode: code,
                                    highCelsius: high, lowCelsius: low, maxWindKmh: wind))
        }
        return Forecast(timeZone: root["timezone"] as? String ?? "GMT", days: days)
    }
}
