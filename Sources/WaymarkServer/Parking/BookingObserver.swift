import WaymarkCore

/// Where "watchers are told" hooks in (PRK-15: "freed slot after a no-show"). `BookingService`
/// calls every observer after the transaction that released booked spaces has committed, so an
/// observer never announces a space that a rollback took back. Observers must not throw work
/// back at the booking: a failed notification is the observer's to log and retry.
protocol BookingObserver: Sendable {
    /// `bookings` were just forfeited or cancelled; each freed one space of its lot for its range.
    func spacesReleased(_ bookings: [Booking]) async
}
