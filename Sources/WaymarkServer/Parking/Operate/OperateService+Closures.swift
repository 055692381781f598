import Foundation
import SQLKit
import WaymarkCore

/// Dates an operator closes a lot on (PRK-1). New bookings and changes into those dates are
/// refused from the commit on (`LotPricing.quote` reads the closures). Bookings already made
/// for them that have not started are cancelled with a full refund and their drivers told, in
/// the same transaction: nobody is sent to a lot that is closed. A driver already parked keeps
/// their space.
extension OperateService {
    struct ClosureAdded: Sendable {
        var closure: LotClosure
        var cancelledBookings: Int
    }

    /// The lot's closures not yet over; anyone may read them, as the lot card shows them.
    func closures(lotId: String) async throws -> [LotClosure] {
        guard try await queries.lot(id: lotId) != nil else { throw Problem.notFound("lot") }
        return try await LotClosures.ahead(lotId: lotId, now: now(), sql: store.sql)
    }

    func addClosure(_ principal: Principal, lotId: String, range: BookingRange, reason: String) async throws -> ClosureAdded {
        guard let lot = try await queries.lot(id: lotId) else { throw Problem.notFound("lot") }
        try await operators.require(principal, siteId: lot.siteId)
        let now = now()
        if let problem = LotClosure.problem(range: range, reason: reason, now: now) {
            throw Problem(type: "closure-invalid", title: "The closure cannot be saved", status: 400, detail: problem)
        }
        let closure = LotClosure(id: UUID().uuidString.lowercased(), lotId: lotId, range: range,
                                 reason: reason.trimmingCharacters(in: .whitespacesAndNewlines))
        let notifier = notifier, live = live
        let moved = PromisedSpaces.Moved()
        let cancelled = try await store.write { sql -> Int in
            // Bookings take the same lock to count the lot's spaces, so none slips in meanwhile.
            try await AdvisoryLocks.lockLot(lotId, sql: sql)
            guard try await LotClosures.ahead(lotId: lotId, now: now, sql: sql).count < LotClosures.mostAhead else {
                throw Problem.conflict("too-many-closures", "\(lot.name) already has \(LotClosures.mostAhead) closures ahead; lift some first.")
            }
            try await LotClosures.insert(closure, at: now, sql: sql)
            let zone = try await queries.timeZone(siteId: lot.siteId, on: sql) ?? .gmt
            let dates = closure.dates(zone: zone, locale: ParkingWords.defaultLocale)
            var drafts: [NotificationDraft] = []
            var promised = false
            for booking in try await BookingStore.competing(lotId: lotId, range: range, sql: sql)
            where booking.state == .booked && booking.range.start > now {
                promised = promised || booking.awaitsArrival(at: now)
                let done = try await BookingService.cancel(booking, zone: zone, at: now, sql: sql)
                drafts.append(NotificationTexts.bookingCancelledByClosure(
                    done, lotName: lot.name, closure: closure, dates: dates,
                    bookedTime: ParkingWords.span(booking.range, zone: zone, locale: ParkingWords.defaultLocale)))
            }
            if promised { try await PromisedSpaces.refresh(lotIds: [lotId], now: now, sql: sql, into: moved) }
            try await Notifier.post(drafts, at: now, within: sql)
            let tail = drafts.isEmpty ? "" : drafts.count == 1 ? "; cancelled 1 booking" : "; cancelled \(drafts.count) bookings"
            try await OperatorChanges.record(.init(
                siteId: lot.siteId, lotId: lotId, userId: principal.userId, action: .closureAdded,
                summary: "Closed \(lot.name) \(dates) (\(closure.reason))\(tail)"), at: now, sql: sql)
            return drafts.count
        }
        if cancelled > 0 { notifier?.delivered() }
        if !moved.all.isEmpty { live.merge(moved.all); live.poke() }
        return ClosureAdded(closure: closure, cancelledBookings: cancelled)
    }

    /// Opens the lot again for those dates; bookings cancelled by the closure stay cancelled.
    func liftClosure(_ principal: Principal, lotId: String, closureId: String) async throws {
        guard let lot = try await queries.lot(id: lotId),
              let closure = try await LotClosures.find(id: closureId, sql: store.sql), closure.lotId == lotId
        else { throw Problem.notFound("closure") }
        try await operators.require(principal, siteId: lot.siteId)
        let now = now()
        try await store.write { sql in
            try await AdvisoryLocks.lockLot(lotId, sql: sql)
            guard try await LotClosures.delete(id: closureId, sql: sql) else { throw Problem.notFound("closure") }
            let zone = try await queries.timeZone(siteId: lot.siteId, on: sql) ?? .gmt
            try await OperatorChanges.record(.init(
                siteId: lot.siteId, lotId: lotId, userId: principal.userId, action: .closureLifted,
                summary: "Opened \(lot.name) again \(closure.dates(zone: zone, locale: ParkingWords.defaultLocale)) (\(closure.reason))"),
                at: now, sql: sql)
        }
    }
}
