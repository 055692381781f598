import Foundation
import Vapor

/// Directions in the phone's maps app, counted (PRK-20: navigation requests against the map
/// budget): `GET /go/directions?lat=…&lon=…&app=apple|google` counts one and sends the browser
/// on. The address it sends to is built here from two checked numbers, so the route cannot send
/// anyone anywhere else.
struct DirectionsRoute: Sendable {
    let usage: MapUsage
    let now: @Sendable () -> Date

    func register(on routes: any RoutesBuilder) {
        routes.get("go", "directions") { req async throws -> Response in
            let target = try Self.target(lat: req.query[String.self, at: "lat"], lon: req.query[String.self, at: "lon"],
                                         app: req.query[String.self, at: "app"])
            _ = try await usage.take(.directions, at: now())
            return req.redirect(to: target, redirectType: .normal)
        }
    }

    /// The maps app's address for a destination, or 400 naming what is wrong.
    static func target(lat: String?, lon: String?, app: String?) throws -> String {
        guard let lat = lat.flatMap(Double.init), lat.isFinite, (-90...90).contains(lat),
              let lon = lon.flatMap(Double.init), lon.isFinite, (-180...180).contains(lon) else {
            throw Problem.badRequest("lat (-90 to 90) and lon (-180 to 180) name the destination.")
        }
        let at = "\(Self.degrees(lat)),\(Self.degrees(lon))"
        switch app ?? "google" {
        case "apple": return "https://maps.apple.com/?daddr=\(at)"
        case "google": return "https://www.google.com/maps/dir/?api=1&destination=\(at)"
        default: throw Problem.badRequest("app is apple or google.")
        }
    }

    /// Six decimals: a tenth of a metre, and no exponent in the address.
    private static func degrees(_ x: Double) -> String { String(format: "%.6f", x) }
}
