import Foundation

/// An id a device makes for what it writes (a forum post, a hike), so that sending it again
/// stores it once: 8–64 ASCII letters, digits, `-` or `_` (a UUID fits), as the contract's
/// pattern says and the generated types do not check.
enum ClientChosenId {
    static func validated(_ raw: String, name: String, noun: String) throws -> String {
        guard (8...64).contains(raw.unicodeScalars.count),
              raw.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
            throw Problem.badRequest("\(name) must be 8–64 letters, digits, '-' or '_'; a new \(noun) takes a random UUID.")
        }
        return raw
    }
}
