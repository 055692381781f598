import Foundation

/// The service a shared leg is booked with, and the address that opens its app or site (G3.2.2):
/// Waymark plans the trip, the provider's own app rents the bike or sends the car.
public struct SharingLink: Hashable, Sendable {
    public var name: String
    public var url: String
}

/// A few widely used services, as facts: where they run and how their public links take a
/// destination. A service not listed still gets a link: a web search for its name.
public enum SharingServices {
    struct BikeScheme {
        var name: String
        var site: String
        /// South-west and north-east corners of the city it serves.
        var area: (south: Double, west: Double, north: Double, east: Double)
    }

    static let bikeSchemes: [BikeScheme] = [
        BikeScheme(name: "BikeMi", site: "https://bikemi.com", area: (45.38, 9.04, 45.56, 9.30)),
        BikeScheme(name: "Citi Bike", site: "https://citibikenyc.com", area: (40.57, -74.08, 40.92, -73.70)),
        BikeScheme(name: "Santander Cycles", site: "https://tfl.gov.uk/modes/cycling/santander-cycles", area: (51.42, -0.30, 51.58, 0.05)),
        BikeScheme(name: "Vélib' Métropole", site: "https://www.velib-metropole.fr", area: (48.75, 2.15, 48.95, 2.55)),
        BikeScheme(name: "Bay Wheels", site: "https://www.lyft.com/bikes/bay-wheels", area: (37.20, -122.55, 37.90, -121.75)),
    ]

    /// The bike-sharing scheme of the city a trip starts in, if Waymark knows it.
    public static func bikeSharing(at start: Coordinate) -> SharingLink? {
        bikeSchemes.first { s in
            (s.area.south...s.area.north).contains(start.latitude) && (s.area.west...s.area.east).contains(start.longitude)
        }.map { SharingLink(name: $0.name, url: $0.site) }
    }

    /// The person's ride service (G6.7) with the destination filled in where its link takes one.
    public static func ride(_ service: String, to destination: Coordinate) -> SharingLink {
        let name = service.trimmingCharacters(in: .whitespacesAndNewlines)
        let lat = String(format: "%.6f", destination.latitude), lon = String(format: "%.6f", destination.longitude)
        let url: String
        switch name.lowercased() {
        case "uber":
            url = "https://m.uber.com/ul/?action=setPickup&pickup=my_location&dropoff%5Blatitude%5D=\(lat)&dropoff%5Blongitude%5D=\(lon)"
        case "lyft":
            url = "https://lyft.com/ride?id=lyft&destination%5Blatitude%5D=\(lat)&destination%5Blongitude%5D=\(lon)"
        case "bolt": url = "https://bolt.eu"
        case "free now", "freenow": url = "https://www.free-now.com"
        case "cabify": url = "https://cabify.com"
        case "it taxi", "ittaxi": url = "https://www.ittaxi.it"
        default:
            let q = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "taxi"
            url = "https://duckduckgo.com/?q=\(q)"
        }
        return SharingLink(name: name, url: url)
    }
}
