import Foundation

/// One driver's opinion of a lot (PRK-14): 1 to 5 stars and an optional text. A person has at
/// most one review per lot and edits it rather than adding another, so a lot's rating counts
/// people, not posts.
public struct LotReview: Hashable, Sendable, Codable {
    public var id: String
    public var lotId: String
    public var userId: String
    /// The author's username as it is now, shown with the review.
    public var authorName: String
    public var stars: Int
    public var text: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, lotId: String, userId: String, authorName: String, stars: Int, text: String,
                createdAt: Date, updatedAt: Date) {
        self.id = id
        self.lotId = lotId
        self.userId = userId
        self.authorName = authorName
        self.stars = stars
        self.text = text
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public enum ReviewError: Error, Hashable, Sendable {
    case starsOutOfRange(Int)
    case textTooLong(length: Int)
    /// Control characters other than line breaks and tabs: never typed by a person, and a NUL
    /// cannot be stored in PostgreSQL text at all.
    case textHasControlCharacters
}

public enum ReviewRules {
    public static let stars = 1...5
    /// A few paragraphs: enough to say what matters about a lot, short enough to read on a phone.
    public static let maxTextLength = 2000

    /// The stars and the text as they will be stored: the text trimmed of surrounding white
    /// space, its length counted in characters as people see them.
    public static func validated(stars: Int, text: String) throws(ReviewError) -> (stars: Int, text: String) {
        guard Self.stars.contains(stars) else { throw .starsOutOfRange(stars) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= maxTextLength else { throw .textTooLong(length: trimmed.count) }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) else {
            throw .textHasControlCharacters
        }
        return (stars, trimmed)
    }
}

/// How a lot is rated: the mean of its reviews and how many gave each number of stars.
public struct RatingSummary: Hashable, Sendable, Codable {
    /// `perStar[0]` is the number of one-star reviews, `perStar[4]` of five-star ones.
    public private(set) var perStar: [Int]

    public init() { perStar = Array(repeating: 0, count: ReviewRules.stars.count) }

    public init(stars: some Sequence<Int>) {
        self.init()
        for s in stars { add(stars: s, count: 1) }
    }

    /// Counts of reviews by stars, as a `GROUP BY stars` gives them; stars outside 1…5 are ignored.
    public mutating func add(stars: Int, count: Int) {
        guard ReviewRules.stars.contains(stars), count > 0 else { return }
        perStar[stars - ReviewRules.stars.lowerBound] += count
    }

    public var count: Int { perStar.reduce(0, +) }

    /// nil without reviews: no rating is not a rating of zero.
    public var average: Double? {
        let n = count
        guard n > 0 else { return nil }
        let total = perStar.enumerated().reduce(0) { $0 + ($1.offset + ReviewRules.stars.lowerBound) * $1.element }
        return Double(total) / Double(n)
    }
}
