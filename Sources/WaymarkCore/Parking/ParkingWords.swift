import Foundation

/// Times and states as a driver reads them: in the site's clock, in the person's language,
/// never an ISO timestamp or an enum's name (the booking form once said "closed at
/// 2026-11-25T12:00:00Z").
public enum ParkingWords {
    /// "Wed, Nov 25, 10:00 PM" in `zone`, in `locale`'s own order and clock.
    public static func moment(_ date: Date, zone: TimeZone, locale: Locale) -> String {
        let f = DateFormatter()
        f.locale = locale
        f.timeZone = zone
        f.setLocalizedDateFormatFromTemplate("EEEMMMdjmm")
        return f.string(from: date)
    }

    /// "Sat, Dec 12, 8:00 AM – Mon, Dec 14, 6:00 PM": both ends on the site's clock.
    public static func span(_ range: BookingRange, zone: TimeZone, locale: Locale) -> String {
        "\(moment(range.start, zone: zone, locale: locale)) – \(moment(range.end, zone: zone, locale: locale))"
    }

    public static func state(_ state: BookingState) -> String {
        switch state {
        case .booked: "booked"
        case .checkedIn: "checked in"
        case .forfeited: "forfeited"
        case .cancelled: "cancelled"
        case .completed: "completed"
        }
    }

    /// The language a request prefers (`Accept-Language`, RFC 9110 §12.5.4), or nil: the
    /// first range with the highest weight that names a language rather than `*`.
    public static func locale(acceptLanguage header: String?) -> Locale? {
        guard let header, header.utf8.count <= 256 else { return nil }
        var best: (tag: String, weight: Double)?
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*",
                  tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { continue }
            var weight = 1.0
            for p in pieces.dropFirst() where p.hasPrefix("q=") { weight = Double(p.dropFirst(2)) ?? 0 }
            if weight > 0, weight > (best?.weight ?? 0) { best = (tag, weight) }
        }
        return best.map { Locale(identifier: $0.tag.replacingOccurrences(of: "-", with: "_")) }
    }

    /// When nothing says otherwise.
    public static let defaultLocale = Locale(identifier: "en_US")
    static let utc = TimeZone(identifier: "UTC")!
}
