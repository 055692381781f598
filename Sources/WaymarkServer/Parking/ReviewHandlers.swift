import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func listLotReviews(_ input: Operations.ListLotReviews.Input) async throws -> Operations.ListLotReviews.Output {
        let lotId = try await existingLot(input.path.lotId)
        let limit = input.query.limit ?? 20
        guard (1...50).contains(limit) else { throw Problem.badRequest("limit must be 1 to 50.") }
        let cursor = try input.query.cursor.map(ReviewService.Cursor.init)
        let me = RequestContext.principal
        let page = try await services.parking.reviews.page(lotId: lotId, limit: limit, after: cursor)
        var mine: LotReview?
        if let me { mine = try await services.parking.reviews.review(lotId: lotId, userId: me.userId) }
        return .ok(.init(body: .json(.init(
            lotId: lotId,
            rating: ReviewMapping.summary(try await services.parking.reviews.summary(lotId: lotId)),
            reviews: page.reviews.map { ReviewMapping.review($0, viewer: me) },
            mine: mine.map { ReviewMapping.review($0, viewer: me) },
            nextCursor: page.next?.text))))
    }

    func putMyLotReview(_ input: Operations.PutMyLotReview.Input) async throws -> Operations.PutMyLotReview.Output {
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let key = try IdempotencyKeys.validated(input.headers.idempotencyKey)
        let lotId = try await existingLot(input.path.lotId)
        let (review, created) = try await services.parking.reviews.put(me, lotId: lotId, stars: body.stars, text: body.text, idempotencyKey: key)
        let json = ReviewMapping.review(review, viewer: me)
        return created ? .created(.init(body: .json(json))) : .ok(.init(body: .json(json)))
    }

    func deleteMyLotReview(_ input: Operations.DeleteMyLotReview.Input) async throws -> Operations.DeleteMyLotReview.Output {
        let me = try RequestContext.requirePrincipal()
        let lotId = try await existingLot(input.path.lotId)
        try await services.parking.reviews.delete(me, lotId: lotId)
        return .noContent(.init())
    }

    /// The lot's id as stored, or 404.
    private func existingLot(_ text: String) async throws -> String {
        let lotId = try BookingMapping.id(text, "lot")
        guard try await services.parking.queries.lot(id: lotId) != nil else { throw Problem.notFound("lot") }
        return lotId
    }
}

enum ReviewMapping {
    static func summary(_ s: RatingSummary) -> Components.Schemas.RatingSummary {
        .init(count: s.count, average: s.average, stars: s.perStar)
    }

    static func review(_ r: LotReview, viewer: Principal?) -> Components.Schemas.LotReview {
        .init(id: r.id, lotId: r.lotId, author: r.authorName, stars: r.stars, text: r.text,
              createdAt: r.createdAt, updatedAt: r.updatedAt, mine: viewer?.userId == r.userId)
    }
}
