import Foundation

/// What a message and a thread's name may be (TRL-8): what the server checks and the app counts
/// down to, in characters as people see them.
public enum MessageRules {
    public static let maxTextLength = 2000
    public static let maxTitleLength = 80
    /// People in a thread besides its writer.
    public static let maxMembers = 30

    public enum Violation: Error, Equatable, Sendable {
        case empty
        case tooLong(length: Int, limit: Int)
        case controlCharacters
    }

    /// The message as stored: trimmed, 1–2,000 characters, line breaks and tabs allowed.
    public static func text(_ raw: String) throws(Violation) -> String {
        try checked(raw, limit: maxTextLength, allowing: ["\n", "\r", "\t"])
    }

    /// A group's name: trimmed, 1–80 characters on one line.
    public static func title(_ raw: String) throws(Violation) -> String {
        try checked(raw, limit: maxTitleLength, allowing: [])
    }

    private static func checked(_ raw: String, limit: Int, allowing allowed: Set<Unicode.Scalar>) throws(Violation) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= limit else { throw .tooLong(length: trimmed.count, limit: limit) }
        guard !trimmed.unicodeScalars.contains(where: { ($0.properties.generalCategory == .control || $0.properties.generalCategory == .lineSeparator) && !allowed.contains($0) }) else {
            throw .controlCharacters
        }
        return trimmed
    }
}
