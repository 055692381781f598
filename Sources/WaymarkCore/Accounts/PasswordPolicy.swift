/// ACC-2: at least 8 characters with an upper-case letter, a digit and a character that is
/// neither a letter nor a digit. The server enforces it; clients only mirror it for hints.
public enum PasswordPolicy {
    public enum Rule: String, CaseIterable, Sendable {
        case length, upperCase, digit, symbol, maximumLength

        public var message: String {
            switch self {
            case .length: "at least 8 characters"
            case .upperCase: "an upper-case letter"
            case .digit: "a digit"
            case .symbol: "a character that is not a letter or digit (such as ! or #)"
            case .maximumLength: "at most 256 characters"
            }
        }
    }

    public static let minimumLength = 8
    public static let maximumLength = 256

    /// The rules `password` breaks, in a stable order; empty when it is acceptable.
    public static func failures(_ password: String) -> [Rule] {
        var failed: [Rule] = []
        if password.count < minimumLength { failed.append(.length) }
        // Counted as the contract's maxLength counts: code points, not what a reader sees.
        if password.unicodeScalars.count > maximumLength { failed.append(.maximumLength) }
        if !password.contains(where: \.isUppercase) { failed.append(.upperCase) }
        if !password.contains(where: \.isNumber) { failed.append(.digit) }
        if !password.contains(where: { !$0.isLetter && !$0.isNumber && !$0.isWhitespace }) { failed.append(.symbol) }
        return failed
    }

    /// "The password needs an upper-case letter and a digit." or nil when acceptable.
    public static func explanation(_ password: String) -> String? {
        let failed = failures(password)
        guard !failed.isEmpty else { return nil }
        if failed == [.maximumLength] { return "The password must have at most \(maximumLength) characters." }
        let needs = failed.filter { $0 != .maximumLength }.map(\.message)
        let list = needs.count <= 1 ? needs.joined() : needs.dropLast().joined(separator: ", ") + " and " + needs.last!
        return "The password needs \(list)."
    }
}

/// ACC-1: usernames are 3–32 letters, digits, dots, dashes or underscores, unique regardless of
/// case. ASCII only, so that two names cannot look alike.
public enum UsernameRules {
    public static func problem(_ username: String) -> String? {
        guard (3...32).contains(username.count) else { return "A username has 3 to 32 characters." }
        let allowed = username.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "." || $0 == "_" || $0 == "-"
        }
        return allowed ? nil : "A username may contain only letters A–Z, digits, dots, dashes and underscores."
    }

    /// The form that must be unique.
    public static func key(_ username: String) -> String { username.lowercased() }
}

/// Loose email check: something@something.tld, no spaces; delivery is the real test.
public enum EmailRules {
    public static func isPlausible(_ email: String) -> Bool {
        guard email.count <= 254, !email.contains(where: { $0.isWhitespace || $0.isNewline }) else { return false }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else { return false }
        return email.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "<" && $0 != ">" && $0 != "\"" }
    }
}
