import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

/// Find the room (WAY-1…6): venues, floor plans, search and routes. Venues and floor plans are
/// kept on disk, so a campus once opened can be read offline.
extension WaymarkClient {
    public func venues() async throws -> Cached<[Components.Schemas.VenueSummary]> {
        try await cachedRead(key: "venues") {
            switch try await self.client.listVenues() {
            case .ok(let ok): return try ok.body.json.venues
            case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
            }
        }
    }

    /// A venue's buildings, footprints and levels; the last good copy when the server is unreachable.
    public func venue(id: String) async throws -> Cached<Components.Schemas.Venue> {
        try await cachedRead(key: "venue-\(id)") {
            switch try await self.client.getVenue(path: .init(venueId: id)) {
            case .ok(let ok): return try ok.body.json
            case .notModified: throw WaymarkClientError.unexpectedStatus(304)
            case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
            case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
            case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
            }
        }
    }

    /// One level's floor plan (GeoJSON); the last good copy when the server is unreachable.
    public func levelMap(venueId: String, levelId: String) async throws -> Cached<Components.Schemas.LevelMap> {
        try await cachedRead(key: "level-\(venueId)-\(levelId)") {
            switch try await self.client.getLevelMap(path: .init(venueId: venueId, levelId: levelId)) {
            case .ok(let ok): return try ok.body.json
            case .notModified: throw WaymarkClientError.unexpectedStatus(304)
            case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
            case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
            case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
            }
        }
    }

    public func searchPlaces(_ query: String, venueId: String? = nil, limit: Int? = nil) async throws -> [Components.Schemas.Place] {
        switch try await call({ try await client.searchPlaces(query: .init(q: query, venueId: venueId, limit: limit)) }) {
        case .ok(let ok): return try ok.body.json.places
        case .badRequest(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .notFound(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    public func person(venueId: String, personId: String) async throws -> Components.Schemas.Person {
        switch try await call({ try await client.getPerson(path: .init(venueId: venueId, personId: personId)) }) {
        case .ok(let ok): return try ok.body.json
        case .notFound(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    /// Where a route starts: a place's id, or a position (with its level id indoors).
    public enum RouteStart: Sendable {
        case place(String)
        case position(Coordinate, levelId: String?)
    }

    /// Where a route goes: a place's id (a room, a person) or the nearest place of a kind.
    public enum RouteEnd: Sendable {
        case place(String)
        case nearest(Components.Schemas.AmenityKind)
    }

    public func route(venueId: String, from start: RouteStart, to end: RouteEnd, stepFree: Bool = false) async throws -> Components.Schemas.Route {
        var query = Operations.GetRoute.Input.Query(stepFree: stepFree)
        switch start {
        case .place(let id): query.from = id
        case .position(let c, let level):
            query.fromLatitude = c.latitude; query.fromLongitude = c.longitude; query.fromLevel = level
        }
        switch end {
        case .place(let id): query.to = id
        case .nearest(let kind): query.nearest = kind
        }
        switch try await call({ [query] in try await client.getRoute(path: .init(venueId: venueId), query: query) }) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .notFound(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    /// Replaces a venue's staff directory with a CSV file (operators only).
    public func replaceDirectory(venueId: String, csv: String) async throws -> Components.Schemas.DirectoryImport {
        switch try await call({ try await client.replaceDirectory(path: .init(venueId: venueId), body: .csv(HTTPBody(csv))) }) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .unauthorized(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .forbidden(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .notFound(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .contentTooLarge(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .tooManyRequests(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }
}
