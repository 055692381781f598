import Foundation

/// The token of an `Authorization: Bearer <token>` header, or nil when there is none or the
/// header is not one (over 512 characters is never a token of ours). Sessions, gateways and the
/// metrics scraper all present theirs this way.
enum BearerToken {
    static func parse(_ header: String?) -> String? {
        guard let header, header.count <= 512, header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }
}
