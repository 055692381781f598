import Foundation
import Testing
@testable import WaymarkCore

/// A trail's weather (TRL-3): Open-Meteo's real answers read into four days with one of five
/// pictures and the high and low.
@Suite struct ForecastTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/weather/\(name)"))
    }

    @Test func trl3ReadsARecordedOpenMeteoAnswer() throws {
        let f = try OpenMeteo.parse(Self.fixture("open_meteo_daily_forecast_example.json"))
        #expect(f.timeZone == "America/New_York" && f.days.count == 7)
        #expect(f.days[0] == DayForecast(date: "2024-04-25", condition: .partlyCloudy, wmoCode: 3, highCelsius: 23.2, lowCelsius: 8.8))
        #expect(f.days[5].condition == .rainy, "code 51 is drizzle")
        // Today and the three days after, in the place's zone: 02:00 UTC on the 27th is still the 26th in New York.
        let now = ISO8601DateFormatter().date(from: "2024-04-27T02:00:00Z")!
        #expect(f.days(from: now).map(\.date) == ["2024-04-26", "2024-04-27", "2024-04-28", "2024-04-29"])
        #expect(f.days(from: ISO8601DateFormatter().date(from: "2024-04-30T16:00:00Z")!).count == 2, "a kept forecast runs out")
    }

    @Test func trl3RefusalsSayWhy() throws {
        #expect(throws: OpenMeteo.Failure(description: "Open-Meteo refused: Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly")) {
            try OpenMeteo.parse(Self.fixture("open_meteo_error_example.json"))
        }
        #expect(throws: OpenMeteo.Failure(description: "the answer is not JSON")) { try OpenMeteo.parse(Data("<html>".utf8)) }
        #expect(throws: OpenMeteo.Failure(description: "the daily forecast lacks weather codes or temperatures")) {
            try OpenMeteo.parse(Data(#"{"daily": {"time": ["2024-01-01"], "weathercode": [1]}}"#.utf8))
        }
        // The old alias, a null day left out, and wind.
        let f = try OpenMeteo.parse(Data(#"{"timezone": "UTC", "daily": {"time": ["a", "b"], "weathercode": [1, null], "temperature_2m_max": [5, 6], "temperature_2m_min": [1, 2], "wind_speed_10m_max": [45, 10]}}"#.utf8))
        #expect(f.days.map(\.condition) == [.windy])
    }

    @Test func trl3FivePicturesFromWMOCodesAndWind() {
        #expect(WeatherCondition(wmoCode: 0, maxWindKmh: 10) == .sunny)
        #expect(WeatherCondition(wmoCode: 1, maxWindKmh: nil) == .sunny)
        #expect(WeatherCondition(wmoCode: 2, maxWindKmh: nil) == .partlyCloudy)
        #expect(WeatherCondition(wmoCode: 45, maxWindKmh: nil) == .partlyCloudy)
        #expect(WeatherCondition(wmoCode: 63, maxWindKmh: 60) == .rainy)
        #expect(WeatherCondition(wmoCode: 95, maxWindKmh: nil) == .rainy)
        #expect(WeatherCondition(wmoCode: 73, maxWindKmh: 60) == .snowy)
        #expect(WeatherCondition(wmoCode: 86, maxWindKmh: nil) == .snowy)
        #expect(WeatherCondition(wmoCode: 3, maxWindKmh: 39) == .windy)
        let url = OpenMeteo.forecastURL(base: "http://127.0.0.1:9", latitude: 34.2353, longitude: -116.9681)!.absoluteString
        #expect(url.hasPrefix("http://127.0.0.1:9/v1/forecast?latitude=34.2353&longitude=-116.9681&daily=weather_code") && url.contains("forecast_days=4"))
    }
}
