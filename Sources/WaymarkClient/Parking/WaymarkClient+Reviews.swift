import Foundation
import WaymarkAPI
import WaymarkCore

public typealias LotReview = Components.Schemas.LotReview
public typealias LotReviewList = Components.Schemas.LotReviewList
public typealias RatingSummary = Components.Schemas.RatingSummary

/// What to look for among a site's lots (PRK-14); every field left nil lets every lot through.
/// "Rated above 4.5 within a kilometre" is `LotQuery(ratingAbove: 4.5, near: here, radiusMetres: 1000)`.
public struct LotQuery: Sendable, Hashable {
    /// Strictly above; lots nobody has reviewed never match.
    public var ratingAbove: Double?
    /// Lots come back nearest first, each with `distanceMetres`.
    public var near: Coordinate?
    public var radiusMetres: Double?
    public var keysRequired: Bool?
    /// Lots where any of these permits lets you park at `at` (now when nil); an empty set asks
    /// for lots open without a permit.
    public var permits: Set<Permit>?
    public var at: Date?
    public var maxHourlyCents: Int?
    /// Words of the lot's name, code or address ("nutwood", "college ave"); best match first
    /// unless `near` is given.
    public var text: String?

    public init(ratingAbove: Double? = nil, near: Coordinate? = nil, radiusMetres: Double? = nil, keysRequired: Bool? = nil,
                permits: Set<Permit>? = nil, at: Date? = nil, maxHourlyCents: Int? = nil, text: String? = nil) {
        self.ratingAbove = ratingAbove
        self.near = near
        self.radiusMetres = radiusMetres
        self.keysRequired = keysRequired
        self.permits = permits
        self.at = at
        self.maxHourlyCents = maxHourlyCents
        self.text = text
    }

    var permitParameter: [String]? {
        guard let permits else { return nil }
        return permits.isEmpty ? ["none"] : permits.sorted().map(\.rawValue)
    }
}

/// Lot reviews (PRK-14): anyone can read them; writing one needs an account (a guest gets
/// `problemKind == "account-required"`). A person has one review per lot: `putReview` writes it
/// the first time and edits it after. Offline, send `.putReview` or `.deleteReview` through
/// `send(_:)` and they wait in the outbox.
extension WaymarkClient {
    public func lots(siteId: String, matching query: LotQuery) async throws -> [Components.Schemas.Lot] {
        let q = Operations.ListLots.Input.Query(
            ratingAbove: query.ratingAbove, lat: query.near?.latitude, lon: query.near?.longitude, radius: query.radiusMetres,
            keysRequired: query.keysRequired, permit: query.permitParameter, at: query.at, maxHourlyCents: query.maxHourlyCents,
            q: query.text)
        let output = try await call { try await client.listLots(path: .init(siteId: siteId), query: q) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.lots
    }

    /// Newest first, with the lot's rating and, when signed in, your own review as `mine`.
    /// Pass the answer's `nextCursor` for the next page.
    public func reviews(lotId: String, limit: Int? = nil, cursor: String? = nil) async throws -> LotReviewList {
        let output = try await call { try await client.listLotReviews(path: .init(lotId: lotId), query: .init(limit: limit, cursor: cursor)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Writes or edits your review. With an `idempotencyKey` already used, the server answers
    /// with your review as it is and changes nothing.
    @discardableResult
    public func putReview(lotId: String, stars: Int, text: String, idempotencyKey: String? = nil) async throws -> LotReview {
        let output = try await call {
            try await client.putMyLotReview(path: .init(lotId: lotId), headers: .init(idempotencyKey: idempotencyKey),
                                            body: .json(.init(stars: stars, text: text)))
        }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    /// Removes your review; having none is fine.
    public func deleteReview(lotId: String) async throws {
        let output = try await call { try await client.deleteMyLotReview(path: .init(lotId: lotId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }
}
