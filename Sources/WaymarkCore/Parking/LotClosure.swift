import Foundation

/// A lot closed for a stretch of dates by its operator (resurfacing, an event, snow clearing):
/// no bookings or holds then, whatever its weekly opening hours say.
public struct LotClosure: Hashable, Codable, Sendable, Identifiable {
    public var id: String
    public var lotId: String
    /// Start inclusive, end exclusive, as a booking's range.
    public var range: BookingRange
    /// What drivers read beside the dates, e.g. "Resurfacing".
    public var reason: String

    public init(id: String, lotId: String, range: BookingRange, reason: String) {
        self.id = id
        self.lotId = lotId
        self.range = range
        self.reason = reason
    }

    /// Longer than this is a lot taken out of service, which the site file says better.
    public static let longest: TimeInterval = 366 * 86_400
    public static let longestReason = 200

    /// Why an operator's closure cannot be kept, or nil. Closures start on whole minutes, as
    /// bookings do, and may not lie wholly in the past.
    public static func problem(range: BookingRange, reason: String, now: Date) -> String? {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "Say why the lot is closed; drivers read it beside the dates." }
        // Counted as the contract's maxLength counts: code points, spaces around included.
        if reason.unicodeScalars.count > longestReason { return "The reason can be at most \(longestReason) characters." }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "The reason cannot contain control characters."
        }
        guard LotPricing.wholeMinuteSeconds(range.start) != nil, LotPricing.wholeMinuteSeconds(range.end) != nil
        else { return "A closure starts and ends on a whole minute." }
        if range.end <= range.start { return "A closure must end after it starts." }
        if range.end <= now { return "That closure would already be over." }
        if range.duration > longest { return "A closure can last at most 366 days; take the lot out of the site file instead." }
        return nil
    }

    /// The first of `closures` that overlaps `range`, earliest first.
    public static func first(_ closures: [LotClosure], overlapping range: BookingRange) -> LotClosure? {
        closures.filter { $0.range.overlaps(range) }.min { $0.range.start < $1.range.start }
    }

    /// "Sat, Dec 12, 8:00 AM – Mon, Dec 14, 6:00 PM" on the site's clock, in the person's language.
    public func dates(zone: TimeZone, locale: Locale) -> String {
        ParkingWords.span(range, zone: zone, locale: locale)
    }
}
