import Foundation

/// Lists in a sentence.
public enum ListWords {
    /// "a", "a and b", "a, b and c"; "" for none.
    public static func and(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
