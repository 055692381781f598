import Foundation
import WaymarkCore

/// What each notification says (PRK-15). Built where the cause is known, stored as text, so an
/// inbox reads the same after the lot is renamed or the hold is gone.
enum NotificationTexts {
    static func lotAlert(_ level: LotAlertLevel, userId: String, lotId: String, lotName: String, counts: LotCounts) -> NotificationDraft? {
        switch level {
        case .clear:
            return nil
        case .almostFull:
            let percent = Int((counts.fraction * 100).rounded(.down))
            let free = counts.free == 1 ? "1 space is" : "\(counts.free) spaces are"
            return NotificationDraft(userId: userId, kind: .lotAlmostFull, title: "\(lotName) is almost full",
                                     body: "\(percent) % taken; \(free) free.", lotId: lotId)
        case .full:
            return NotificationDraft(userId: userId, kind: .lotFull, title: "\(lotName) is full",
                                     body: "No space is free there right now.", lotId: lotId)
        }
    }

    static func spaceFreed(userId: String, lotId: String, lotName: String, bookingId: String) -> NotificationDraft {
        NotificationDraft(userId: userId, kind: .spaceFreed, title: "A space was freed in \(lotName)",
                          body: "Nobody came for a booked space, so it is free again.", lotId: lotId, bookingId: bookingId)
    }

    static func bookingCancelledByClosure(_ booking: Booking, lotName: String, closure: LotClosure, dates: String, bookedTime: String) -> NotificationDraft {
        NotificationDraft(userId: booking.userId, kind: .bookingCancelled, title: "Your booking at \(lotName) was cancelled",
                          body: "\(lotName) is closed \(dates) (\(closure.reason)). Your booking for \(bookedTime) was cancelled and "
                              + "\(booking.paid.displayText) refunded to your wallet.",
                          lotId: booking.lotId, bookingId: booking.id)
    }
}
