import Foundation

/// Entity tags: strong validators of our own, compared as RFC 9110 asks.
enum ETag {
    /// The contract's bound on If-None-Match (enforced by `RawHeaderMiddleware`): far more
    /// than a client that sends back our own tags needs, and it keeps the comparison cheap.
    static let maxHeaderLength = 256

    /// If-None-Match: a list of tags or `*`; weak comparison, as RFC 9110 asks for it.
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        let strip: (Substring) -> Substring = { $0.hasPrefix("W/") ? $0.dropFirst(2) : $0 }
        return header.split(separator: ",").contains { part in
            let tag = part.trimmingCharacters(in: .whitespaces)
            return tag == "*" || strip(Substring(tag)) == strip(Substring(etag))
        }
    }
}
