import Foundation
import WaymarkAPI
import WaymarkCore

/// Public transport (PLN-5): journeys on the server's timetable. Anyone may ask; no session.
extension WaymarkClient {
    /// The journeys with fewest rides for each earlier arrival, fewest rides first and the
    /// earliest arrival last, leaving at `leaving` (now when nil). Throws a problem of kind
    /// `no-timetable` when the server has none loaded.
    public func journeys(from: Coordinate, to: Coordinate, leaving: Date? = nil, maximumWalkMetres: Int? = nil,
                         maximumRides: Int? = nil) async throws -> Components.Schemas.JourneyPlan {
        let output = try await call {
            try await client.planJourneys(query: .init(
                fromLatitude: from.latitude, fromLongitude: from.longitude, toLatitude: to.latitude, toLongitude: to.longitude,
                leaveAt: leaving, maxWalkMetres: maximumWalkMetres, maxRides: maximumRides))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }
}
