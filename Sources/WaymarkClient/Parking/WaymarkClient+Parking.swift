import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension WaymarkClient {
    public func sites() async throws -> [Components.Schemas.Site] {
        switch try await call({ try await client.listSites() }) {
        case .ok(let ok): return try ok.body.json.sites
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    public func lots(siteId: String) async throws -> [Components.Schemas.Lot] {
        switch try await call({ try await client.listLots(path: .init(siteId: siteId)) }) {
        case .ok(let ok): return try ok.body.json.lots
        case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
        case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    public func spots(lotId: String) async throws -> [Components.Schemas.Spot] {
        switch try await call({ try await client.listSpots(path: .init(lotId: lotId)) }) {
        case .ok(let ok): return try ok.body.json.spots
        case .notModified: throw WaymarkClientError.unexpectedStatus(304)
        case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
        case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    /// Every lot's counts and congestion; the last good snapshot when the server is unreachable.
    public func occupancy(siteId: String) async throws -> Cached<Components.Schemas.SiteOccupancy> {
        try await cachedRead(key: "occupancy-\(siteId)") {
            switch try await self.client.getSiteOccupancy(path: .init(siteId: siteId)) {
            case .ok(let ok): return try ok.body.json
            case .notModified: throw WaymarkClientError.unexpectedStatus(304)
            case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
            case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
            case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
            }
        }
    }

    /// One state per spot in spot order; the last good copy when the server is unreachable.
    public func spotStates(lotId: String) async throws -> Cached<Components.Schemas.SpotStates> {
        try await cachedRead(key: "spot-states-\(lotId)") {
            switch try await self.client.getSpotStates(path: .init(lotId: lotId)) {
            case .ok(let ok): return try ok.body.json
            case .notModified: throw WaymarkClientError.unexpectedStatus(304)
            case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
            case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
            case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
            }
        }
    }

    public func typicalOccupancy(lotId: String, weekday: Int? = nil) async throws -> Components.Schemas.TypicalOccupancy {
        switch try await call({ try await client.getTypicalOccupancy(path: .init(lotId: lotId), query: .init(weekday: weekday)) }) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
        case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    /// Sends sensor reports as a gateway (needs `gatewayKey`).
    public func ingest(_ reports: [SensorReport]) async throws -> Components.Schemas.IngestResult {
        let events = reports.map {
            Components.Schemas.SensorEvent(sensorId: $0.sensorId, occupied: $0.occupied, observedAt: $0.observedAt, sequence: $0.sequence)
        }
        switch try await call({ try await client.ingestSensorEvents(body: .json(.init(events: events))) }) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .unauthorized(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .contentTooLarge(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw WaymarkClientError.from(try r.body.applicationProblemJson)
        case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
        }
    }

    /// Maps transport failures to `.unreachable`, so callers branch on one error type.
    func call<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ClientError {
            if let answer = error.underlyingError as? WaymarkClientError { throw answer }
            throw WaymarkClientError.unreachable(String(describing: error.underlyingError))
        }
    }

    func cachedRead<V: Codable & Sendable>(key: String, _ fetch: @Sendable () async throws -> V) async throws -> Cached<V> {
        do {
            let value = try await call(fetch)
            let at = now()
            cache?.store(value, key: key, fetchedAt: at)
            return Cached(value: value, fetchedAt: at, isFromCache: false)
        } catch let error as WaymarkClientError {
            // A problem answer (4xx) is the server's word, not an outage: don't mask it.
            if case .problem = error { throw error }
            if case .unexpectedStatus(let status) = error, status < 500 { throw error }
            guard let hit = cache?.load(V.self, key: key) else { throw error }
            return Cached(value: hit.value, fetchedAt: hit.fetchedAt, isFromCache: true)
        }
    }
}
