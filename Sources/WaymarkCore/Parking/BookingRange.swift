import Foundation

/// The time a booking reserves a space (PRK-12): start inclusive, end exclusive, so a booking
/// ending at 10:00 and one starting at 10:00 never compete for the same space.
/// Nothing is checked here; `LotPricing.quote` decides whether a range can be booked.
public struct BookingRange: Hashable, Codable, Sendable {
    public var start: Date
    public var end: Date

    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }

    public func overlaps(_ other: BookingRange) -> Bool {
        start < other.end && other.start < end
    }

    public func contains(_ instant: Date) -> Bool {
        instant >= start && instant < end
    }
}
