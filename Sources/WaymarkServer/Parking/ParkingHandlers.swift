import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func listSites(_ input: Operations.ListSites.Input) async throws -> Operations.ListSites.Output {
        .ok(.init(body: .json(.init(sites: try await services.parking.sites().map(ParkingMapping.site)))))
    }

    func getSite(_ input: Operations.GetSite.Input) async throws -> Operations.GetSite.Output {
        guard let site = try await services.parking.site(id: input.path.siteId) else { throw Problem.notFound("site") }
        return .ok(.init(body: .json(ParkingMapping.site(site))))
    }

    func listLots(_ input: Operations.ListLots.Input) async throws -> Operations.ListLots.Output {
        let siteId = input.path.siteId
        guard let site = try await services.parking.site(id: siteId) else { throw Problem.notFound("site") }
        guard let zone = TimeZone(identifier: site.timeZone) else { throw Problem.internalError }
        let filter = try LotSearch.filter(input.query, timeZone: zone, now: services.now())
        let lots = try await services.parking.lots(siteId: siteId)
        let ratings = try await services.reviews.summaries(siteId: siteId)
        var found: [(row: LotRow, rating: RatingSummary, distance: Double?)] = []
        for row in lots {
            let rating = ratings[row.id] ?? RatingSummary()
            let candidate = try LotSearch.candidate(row, rating: rating)
            guard filter.matches(candidate) else { continue }
            found.append((row, rating, filter.distance(to: candidate)))
        }
        if filter.near != nil { found.sort { ($0.distance ?? 0) < ($1.distance ?? 0) } }
        return .ok(.init(body: .json(.init(lots: try found.map { try ParkingMapping.lot($0.row, rating: $0.rating, distance: $0.distance) }))))
    }

    func getLot(_ input: Operations.GetLot.Input) async throws -> Operations.GetLot.Output {
        guard let lot = try await services.parking.lot(id: input.path.lotId) else { throw Problem.notFound("lot") }
        return .ok(.init(body: .json(try ParkingMapping.lot(lot, rating: try await services.reviews.summary(lotId: lot.id)))))
    }

    func getSiteOccupancy(_ input: Operations.GetSiteOccupancy.Input) async throws -> Operations.GetSiteOccupancy.Output {
        let siteId = input.path.siteId
        guard let snapshot = try await services.live.siteSnapshot(siteId: siteId, queries: services.parking) else {
            if try await services.parking.site(id: siteId) == nil { throw Problem.notFound("site") }
            return .ok(.init(body: .json(.init(siteId: siteId, asOf: services.now(), lastEventId: services.live.cursor, lots: []))))
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
        let spots = try await services.parking.spots(lotId: lotId)
        if spots.isEmpty, try await services.parking.lot(id: lotId) == nil { throw Problem.notFound("lot") }
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
        guard let lot = try await services.live.lot(id: lotId, queries: services.parking) else { throw Problem.notFound("lot") }
        let etag = "\"s\(lot.version)\""
        if ETag.matches(input.headers.ifNoneMatch, etag) {
            return .notModified(.init(headers: .init(eTag: etag)))
        }
        let states = try await services.spotStates.states(lotId: lotId, version: lot.version, queries: services.parking)
        return .ok(.init(
            headers: .init(eTag: etag, cacheControl: "no-cache"),
            body: .json(.init(lotId: lotId, states: states, version: lot.version, lastChangeAt: lot.lastChangeAt))))
    }

    func getTypicalOccupancy(_ input: Operations.GetTypicalOccupancy.Input) async throws -> Operations.GetTypicalOccupancy.Output {
        let lotId = input.path.lotId
        guard let lot = try await services.parking.lot(id: lotId),
              let site = try await services.parking.site(id: lot.siteId) else { throw Problem.notFound("lot") }
        guard let zone = TimeZone(identifier: site.timeZone) else { throw Problem.internalError }
        let now = services.now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let weekday = input.query.weekday ?? calendar.component(.weekday, from: now)
        guard (1...7).contains(weekday) else { throw Problem.badRequest("weekday must be 1 (Sunday) to 7 (Saturday).") }
        let snapshots = try await services.parking.snapshots(lotId: lotId, since: now.addingTimeInterval(-HalfHourSlots.retention - 86_400))
        let halfHours = TypicalOccupancy.weekdayProfile(snapshots: snapshots, weekday: weekday, timeZone: zone, now: now)
        return .ok(.init(body: .json(.init(
            lotId: lotId, weekday: weekday, timeZone: site.timeZone,
            halfHours: halfHours, hours: TypicalOccupancy.hourlyProfile(halfHours)))))
    }
}

enum ETag {
    /// The contract's bound on If-None-Match (enforced by `RawHeaderMiddleware`): far more
    /// than a client that sends back our own tags needs, and it keeps the comparison cheap.
    static let maxHeaderLength = 256

    /// If-None-Match: a list of tags or `*`; weak comparison, as RFC 9110 asks for it.
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        let strip: (Substring) -> Substring = { $0.hasPrefix("W/") ? $0.dropFirst(2) : $0 }
        return header.split(separator: ",").contains { part in
            let tag = part.trimmingCharacters(in: .whitespaces)
            return tag == "*" || strip(Substring(tag)) == strip(Substring(etag))
        }
    }

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
