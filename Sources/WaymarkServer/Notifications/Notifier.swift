import Foundation
import Logging
import SQLKit
import WaymarkCore

/// How any area tells a person something (PRK-15, PRK-22): the notification goes to their
/// inbox, their open streams and, unless they switched its kind off, their browsers by Web
/// Push. Writers that notify inside their own transaction call `post` there (the notice exists
/// exactly when its cause committed) and `delivered()` after the commit; others call `notify`.
struct Notifier: Sendable {
    let store: SQLStore
    let hub: NotificationHub
    let now: @Sendable () -> Date

    static func post(_ drafts: [NotificationDraft], at now: Date, within sql: any SQLDatabase) async throws {
        try await NotificationStore.insert(drafts, at: now, sql: sql)
    }

    func notify(_ drafts: [NotificationDraft]) async throws {
        guard !drafts.isEmpty else { return }
        let now = now()
        try await store.write { sql in try await Self.post(drafts, at: now, within: sql) }
        delivered()
    }

    /// Wakes the live tail after notifications committed.
    func delivered() { hub.poke() }
}

/// "A booked space was freed" to the lot's watchers when a booking is forfeited after a
/// no-show (PRK-15). Cancellations free a space too, but days ahead; watchers are told only
/// about spaces free now, which is what a no-show gives.
struct SpaceFreedObserver: BookingObserver {
    let notifier: Notifier
    let logger: Logger

    func spacesReleased(_ bookings: [Booking]) async {
        let forfeited = bookings.filter { $0.state == .forfeited }
        guard !forfeited.isEmpty else { return }
        do {
            let sql = notifier.store.sql
            var drafts: [NotificationDraft] = []
            for (lotId, freed) in Dictionary(grouping: forfeited, by: \.lotId) {
                let watchers = try await NotificationStore.watchers(lotId: lotId, sql: sql)
                guard !watchers.isEmpty else { continue }
                let name = try await sql.raw("SELECT name FROM lots WHERE id = \(bind: lotId)").first()?.decode(column: "name", as: String.self) ?? "A lot you watch"
                for booking in freed {
                    // The person who did not come knows; the others may want the space.
                    for userId in watchers where userId != booking.userId {
                        drafts.append(NotificationTexts.spaceFreed(userId: userId, lotId: lotId, lotName: name, bookingId: booking.id))
                    }
                }
            }
            try await notifier.notify(drafts)
        } catch {
            logger.error("notifications: telling watchers about freed spaces failed", metadata: ["error": .string(String(reflecting: error))])
        }
    }
}
