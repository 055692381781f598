import AsyncHTTPClient
import Foundation
import NIOCore
import WaymarkCore

/// Where forecasts come from (TRL-3). Behind an interface: the real one is Open-Meteo over
/// HTTP, and tests serve it recorded answers from a local server.
protocol WeatherProvider: Sendable {
    func forecast(latitude: Double, longitude: Double) async throws -> Forecast
}

struct WeatherUnavailable: Error, CustomStringConvertible {
    var description: String
}

/// Open-Meteo's forecast API over HTTP.
struct OpenMeteoProvider: WeatherProvider {
    let client: HTTPClient
    let baseURL: String
    var timeout: TimeAmount = .seconds(8)

    func forecast(latitude: Double, longitude: Double) async throws -> Forecast {
        guard let url = OpenMeteo.forecastURL(base: baseURL, latitude: latitude, longitude: longitude) else {
            throw WeatherUnavailable(description: "the weather address \(baseURL) is not a URL")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do { response = try await client.execute(request, timeout: timeout) } catch {
            throw WeatherUnavailable(description: "Open-Meteo could not be reached: \(error)")
        }
        let body = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        do { return try OpenMeteo.parse(body) } catch {
            throw WeatherUnavailable(description: "\(error.description) (HTTP \(response.status.code))")
        }
    }
}
