import Foundation

/// IMF-fixdate, the one form of HTTP date servers send (RFC 9110, 5.6.7); reading also accepts
/// the two obsolete forms clients may still send.
enum HTTPDate {
    static func format(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = .gmt
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = .gmt
        for pattern in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            f.dateFormat = pattern
            if let d = f.date(from: text.trimmingCharacters(in: .whitespaces)) { return d }
        }
        return nil
    }
}
