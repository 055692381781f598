import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func getOperatorAnalytics(_ input: Operations.GetOperatorAnalytics.Input) async throws -> Operations.GetOperatorAnalytics.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        let r = try await services.operations.analytics.report(from: input.query.from, to: input.query.to)
        let usage = services.operations.mapUsage
        let mapDays = usage == nil ? nil : try await usage?.days(r.from...r.to)
        return .ok(.init(body: .json(.init(
            from: r.from.description, to: r.to.description, timeZone: r.timeZone.identifier,
            days: r.days.map { .init(date: $0.day.description, activeUsers: $0.activeUsers, bookingUsers: $0.bookingUsers, share: $0.share) },
            peak: .init(startMinute: OperatorAnalytics.peakStartMinute, endMinute: OperatorAnalytics.peakEndMinute,
                        lots: r.peakLots.map { .init(lotId: $0.lotId, code: $0.code, name: $0.name, bookings: $0.bookings) }),
            modifications: .init(bookings: r.modifications.bookings, total: r.modifications.total, mean: r.modifications.mean,
                                 never: r.modifications.never, once: r.modifications.once, twice: r.modifications.twice,
                                 threeOrMore: r.modifications.threeOrMore),
            slowestOperations: r.slowest.map {
                .init(operationId: $0.operation, count: $0.count, p50Ms: $0.p50 * 1000, p95Ms: $0.p95 * 1000, p99Ms: $0.p99 * 1000)
            },
            mapUsage: mapDays.map { days in
                .init(tileDailyLimit: usage?.tileDailyLimit, days: days.map { .init(date: $0.day.description, tiles: $0.tiles, directions: $0.directions) })
            }))))
    }
}
