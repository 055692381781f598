import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func listSites(_ input: Operations.ListSites.Input) async throws -> Operations.ListSites.Output {
        .ok(.init(body: .json(.init(sites: try await services.parking.queries.sites().map { try ParkingMapping.site($0) }))))
    }

    func getSite(_ input: Operations.GetSite.Input) async throws -> Operations.GetSite.Output {
        guard let site = try await services.parking.queries.site(id: input.path.siteId) else { throw Problem.notFound("site") }
        return .ok(.init(body: .json(try ParkingMapping.site(site))))
    }

    func listLots(_ input: Operations.ListLots.Input) async throws -> Operations.ListLots.Output {
        guard let found = try await services.parking.lots(siteId: input.path.siteId, matching: input.query, now: services.now()) else {
            throw Problem.notFound("site")
        }
        return .ok(.init(body: .json(.init(lots: try found.map { try ParkingMapping.lot($0.row, rating: $0.rating, distance: $0.distance) }))))
    }

    func getLot(_ input: Operations.GetLot.Input) async throws -> Operations.GetLot.Output {
        guard let lot = try await services.parking.queries.lot(id: input.path.lotId) else { throw Problem.notFound("lot") }
        return .ok(.init(body: .json(try ParkingMapping.lot(lot, rating: try await services.parking.reviews.summary(lotId: lot.id)))))
    }

    func getSiteOccupancy(_ input: Operations.GetSiteOccupancy.Input) async throws -> Operations.GetSiteOccupancy.Output {
        let siteId = input.path.siteId
        guard let snapshot = try await services.parking.live.siteSnapshot(siteId: siteId, queries: services.parking.queries) else {
            if try await services.parking.queries.site(id: siteId) == nil { throw Problem.notFound("site") }
            return .ok(.init(body: .json(.init(siteId: siteId, asOf: services.now(), lastEventId: services.parking.live.cursor, lots: []))))
        }
        // Usually answered by `OccupancyResponseMiddleware` before it gets here.
        let etag = snapshot.etag
        if ETag.matches(input.headers.ifNoneMatch, etag) {
            return .notModified(.init(headers: .init(eTag: etag)))
        }
        let body = Components.Schemas.SiteOccupancy(
            siteId: siteId, asOf: services.now(), lastEventId: snapshot.lastEventId, lots: snapshot.lots)
        return .ok(.init(headers: .init(eTag: etag, cacheControl: "no-cache"), body: .json(body)))
    }

    func listSpots(_ input: Operations.ListSpots.Input) async throws -> Operations.ListSpots.Output {
        let lotId = input.path.lotId
        let spots = try await services.parking.queries.spots(lotId: lotId)
        if spots.isEmpty, try await services.parking.queries.lot(id: lotId) == nil { throw Problem.notFound("lot") }
        let etag = "\"g\(ETag.fingerprint(spots))\""
        if ETag.matches(input.headers.ifNoneMatch, etag) {
            return .notModified(.init(headers: .init(eTag: etag)))
        }
        return .ok(.init(
            headers: .init(eTag: etag, cacheControl: "public, max-age=300, must-revalidate"),
            body: .json(.init(lotId: lotId, spots: spots.map(ParkingMapping.spot)))))
    }

    func getSpotStates(_ input: Operations.GetSpotStates.Input) async throws -> Operations.GetSpotStates.Output {
        let lotId = input.path.lotId
        guard let lot = try await services.parking.live.lot(id: lotId, queries: services.parking.queries) else { throw Problem.notFound("lot") }
        let etag = "\"s\(lot.version)\""
        if ETag.matches(input.headers.ifNoneMatch, etag) {
            return .notModified(.init(headers: .init(eTag: etag)))
        }
        let states = try await services.parking.spotStates.states(lotId: lotId, version: lot.version, queries: services.parking.queries)
        return .ok(.init(
            headers: .init(eTag: etag, cacheControl: "no-cache"),
            body: .json(.init(lotId: lotId, states: states, version: lot.version, lastChangeAt: lot.lastChangeAt))))
    }

    func getTypicalOccupancy(_ input: Operations.GetTypicalOccupancy.Input) async throws -> Operations.GetTypicalOccupancy.Output {
        guard let typical = try await services.parking.typicalOccupancy(lotId: input.path.lotId, weekday: input.query.weekday, now: services.now()) else {
            throw Problem.notFound("lot")
        }
        return .ok(.init(body: .json(typical)))
    }
}

extension ETag {
    /// FNV-1a over the static spot data: changes when any spot does.
    static func fingerprint(_ spots: [SpotRow]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ s: String) { for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 } }
        for s in spots {
            mix(s.id); mix(s.label); mix(s.category); mix(s.sensorId ?? "")
            mix("\(s.ordinal),\(s.level),\(s.centerLat),\(s.centerLon),\(s.heading),\(s.length),\(s.width);")
        }
        return String(h, radix: 36)
    }
}
