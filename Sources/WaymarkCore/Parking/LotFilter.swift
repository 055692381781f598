import Foundation

/// "Which lots have a rating above 4.5 near here, take my permit now, need no keys left, cost
/// at most this much" (PRK-14). Every condition left nil lets every lot through.
public struct LotFilter: Sendable {
    /// Strictly above: a lot rated exactly 4.5 is not "above 4.5". Lots nobody has rated never pass.
    public var ratingAbove: Double?
    public var near: Coordinate?
    /// Metres from `near` to the lot's centre, inclusive. Needs `near`.
    public var radiusMetres: Double?
    public var keysRequired: Bool?
    /// The lot must let someone holding any of these permits park at `permitAt`; the empty set
    /// asks for lots open to drivers without a permit then.
    public var permits: Set<Permit>?
    public var permitAt: (weekday: Weekday, minute: Int)?
    public var maxHourlyCents: Int?
    /// Only lots with an accessible spot free now (the spots a disabled badge is for).
    public var accessibleFreeNow = false
    /// Only lots whose name, code or address `LotText` matches with these words.
    public var text: String?

    public init(ratingAbove: Double? = nil, near: Coordinate? = nil, radiusMetres: Double? = nil, keysRequired: Bool? = nil,
                permits: Set<Permit>? = nil, permitAt: (weekday: Weekday, minute: Int)? = nil, maxHourlyCents: Int? = nil) {
        self.ratingAbove = ratingAbove
        self.near = near
        self.radiusMetres = radiusMetres
        self.keysRequired = keysRequired
        self.permits = permits
        self.permitAt = permitAt
        self.maxHourlyCents = maxHourlyCents
    }

    /// What the filter looks at in a lot.
    public struct Candidate: Sendable {
        public var center: Coordinate
        public var rating: RatingSummary
        public var keysRequired: Bool
        public var permitRules: [PermitRule]
        public var hourlyCents: Int
        /// Accessible spots whose sensor says free now.
        public var accessibleFree: Int
        public var name = ""
        public var code = ""
        public var address: String?

        public init(center: Coordinate, rating: RatingSummary, keysRequired: Bool, permitRules: [PermitRule], hourlyCents: Int,
                    accessibleFree: Int = 0) {
            self.accessibleFree = accessibleFree
            self.center = center
            self.rating = rating
            self.keysRequired = keysRequired
            self.permitRules = permitRules
            self.hourlyCents = hourlyCents
        }
    }

    public enum Invalid: Error, Hashable, Sendable {
        case ratingOutOfRange, pointInvalid, radiusWithoutPoint, radiusOutOfRange, priceOutOfRange, permitTimeWithoutPermit
        case textInvalid
    }

    /// The bounds a request's filter must keep; radius up to 50 km, well past any campus.
    public static let maxRadiusMetres = 50_000.0
    /// $10,000 an hour: past any real tariff, and the contract's bound.
    public static let maxHourlyCentsLimit = 1_000_000

    public func validate() throws(Invalid) {
        if let r = ratingAbove, !(r.isFinite && (0...5).contains(r)) { throw .ratingOutOfRange }
        if let p = near, !p.isValid { throw .pointInvalid }
        if let r = radiusMetres {
            guard near != nil else { throw .radiusWithoutPoint }
            guard r.isFinite, r > 0, r <= Self.maxRadiusMetres else { throw .radiusOutOfRange }
        }
        if let c = maxHourlyCents, !(0...Self.maxHourlyCentsLimit).contains(c) { throw .priceOutOfRange }
        if permitAt != nil, permits == nil { throw .permitTimeWithoutPermit }
        if let text, SearchText.words(text).isEmpty || text.unicodeScalars.count > LotText.maxLength { throw .textInvalid }
    }

    /// How well the lot matches `text` (higher is better), nil without a text.
    public func textScore(of c: Candidate) -> Double? {
        text.flatMap { LotText.score($0, name: c.name, code: c.code, address: c.address) }
    }

    /// Metres from the filter's point, when it has one.
    public func distance(to c: Candidate) -> Double? {
        near.map { Geo.distance($0, c.center) }
    }

    public func matches(_ c: Candidate) -> Bool {
        if let threshold = ratingAbove {
            guard let average = c.rating.average, average > threshold else { return false }
        }
        if let radius = radiusMetres, let d = distance(to: c), d > radius { return false }
        if let keys = keysRequired, keys != c.keysRequired { return false }
        if let permits, let at = permitAt {
            guard PermitCheck.isAllowed(holding: permits, rules: c.permitRules, weekday: at.weekday, minute: at.minute) else { return false }
        }
        if let max = maxHourlyCents, c.hourlyCents > max { return false }
        if accessibleFreeNow, c.accessibleFree == 0 { return false }
        if text != nil, textScore(of: c) == nil { return false }
        return true
    }
}
