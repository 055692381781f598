import Foundation

/// A parking permit, by the short code a site's rules use ("faculty", "green"). Each site names
/// its own permits (`PermitKind`); the disabled parking placard (`handicap`) is the one every site
/// knows, because the state issues it, not the campus.
public struct Permit: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `rawValue` is 1–32 lower-case letters, digits and hyphens, starting with a letter
    /// or digit; `none` is taken (the lot search's "no permit").
    public init?(rawValue: String) {
        guard Self.isCode(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    /// The disabled parking placard: valid on every site, and what accessible spots need.
    public static let handicap = Permit(known: "handicap")
    // The demo campus's permits.
    public static let green = Permit(known: "green")
    public static let yellow = Permit(known: "yellow")
    public static let black = Permit(known: "black")

    public static let codeRule = "1 to 32 lower-case letters, digits or hyphens, starting with a letter or digit, and not \"none\""

    public static func isCode(_ s: String) -> Bool {
        guard (1...32).contains(s.utf8.count), s != "none", let first = s.utf8.first, first != UInt8(ascii: "-") else { return false }
        return s.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }

    public static func < (a: Permit, b: Permit) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let permit = Permit(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a permit code (\(Self.codeRule))."))
        }
        self = permit
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

/// A permit as a site issues it: its code in the rules, the name people know it by, the colour of
/// its hang tag or sticker (`#rrggbb`), which the app uses for its chips.
public struct PermitKind: Hashable, Codable, Sendable {
    public var code: Permit
    public var name: String
    public var colour: String

    public init(code: Permit, name: String, colour: String) {
        self.code = code
        self.name = name
        self.colour = colour
    }

    public static let placard = PermitKind(code: .handicap, name: "Handicap", colour: "#1c64d6")

    /// The codes a site's rules and drivers may name: its own and the placard.
    public static func codes(issuedBy kinds: [PermitKind]) -> Set<Permit> {
        Set(kinds.map(\.code)).union([.handicap])
    }

    public static func isColour(_ s: String) -> Bool {
        s.utf8.count == 7 && s.hasPrefix("#") && s.utf8.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// The names of a site's permits for sentences ("a Green or Yellow permit"), in the site's order.
public struct PermitNames: Sendable {
    public let kinds: [PermitKind]

    public init(_ siteKinds: [PermitKind]) {
        kinds = siteKinds.contains { $0.code == .handicap } ? siteKinds : siteKinds + [.placard]
    }

    public func name(_ permit: Permit) -> String { kinds.first { $0.code == permit }?.name ?? permit.rawValue }

    /// The site's order first; codes the site does not list (a rule's leftover) follow by code.
    public func ordered(_ permits: Set<Permit>) -> [Permit] {
        let listed = kinds.map(\.code).filter(permits.contains)
        return listed + permits.subtracting(listed).sorted()
    }

    /// "Green", "Green or Yellow", "Green, Yellow or Black".
    public func either(_ permits: Set<Permit>) -> String {
        let names = ordered(permits).map(name)
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// The permits a person holds: each site's own, and the placard, which counts on every site.
/// Stored as one text: "handicap,<site id>:faculty,…".
public struct HeldPermits: Hashable, Codable, Sendable {
    public var bySite: [String: Set<Permit>]
    public var placard: Bool

    public init(bySite: [String: Set<Permit>] = [:], placard: Bool = false) {
        self.bySite = bySite.filter { !$0.value.isEmpty }
        self.placard = placard
    }

    /// What counts at one site.
    public func at(site siteId: String) -> Set<Permit> {
        var out = bySite[siteId] ?? []
        if placard { out.insert(.handicap) }
        return out
    }

    public var isEmpty: Bool { !placard && bySite.isEmpty }

    public init(stored text: String) {
        var bySite: [String: Set<Permit>] = [:]
        var placard = false
        for part in text.split(separator: ",") {
            if part == Permit.handicap.rawValue { placard = true; continue }
            guard let colon = part.lastIndex(of: ":"), let permit = Permit(rawValue: String(part[part.index(after: colon)...])) else { continue }
            bySite[String(part[..<colon]), default: []].insert(permit)
        }
        self.init(bySite: bySite, placard: placard)
    }

    public var stored: String {
        entries.map { e in e.siteId.map { "\($0):\(e.permit.rawValue)" } ?? e.permit.rawValue }.joined(separator: ",")
    }

    /// One entry per permit, as the API lists them: the placard first (no site), then by site and code.
    public var entries: [(siteId: String?, permit: Permit)] {
        (placard ? [(nil, .handicap)] : [])
            + bySite.keys.sorted().flatMap { site in bySite[site, default: []].sorted().map { (site, $0) } }
    }

    public mutating func formUnion(_ other: HeldPermits) {
        placard = placard || other.placard
        for (site, permits) in other.bySite { bySite[site, default: []].formUnion(permits) }
    }
}

/// Days are numbered as in the parking schedule: 1 = Sunday … 7 = Saturday.
public typealias Weekday = Int

/// "From this weekday and minute, until that minute, one of these permits is required."
/// Outside every rule a lot is open to anyone.
public struct PermitRule: Hashable, Codable, Sendable {
    public var weekdays: Set<Weekday>
    /// Minutes after local midnight, start inclusive, end exclusive.
    public var startMinute: Int
    public var endMinute: Int
    /// Any one of these is enough.
    public var permits: Set<Permit>

    public init(weekdays: Set<Weekday>, startMinute: Int, endMinute: Int, permits: Set<Permit>) {
        self.weekdays = weekdays
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.permits = permits
    }

    public static let weekdaysMondayToFriday: Set<Weekday> = [2, 3, 4, 5, 6]

    public func applies(weekday: Weekday, minute: Int) -> Bool {
        weekdays.contains(weekday) && minute >= startMinute && minute < endMinute
    }
}

public enum PermitCheck {
    /// The permits of which one is required at a site-local weekday and minute, or nil when the
    /// lot is open to all then. Several matching rules must all be satisfied, so they intersect.
    public static func required(by rules: [PermitRule], weekday: Weekday, minute: Int) -> Set<Permit>? {
        var required: Set<Permit>?
        for rule in rules where rule.applies(weekday: weekday, minute: minute) {
            required = required.map { $0.intersection(rule.permits) } ?? rule.permits
        }
        return required
    }

    /// The site-local weekday (1 = Sunday) and minute after midnight that permit rules speak of.
    public static func localMoment(of instant: Date, timeZone: TimeZone) -> (weekday: Weekday, minute: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.weekday, .hour, .minute], from: instant)
        return (c.weekday ?? 1, (c.hour ?? 0) * 60 + (c.minute ?? 0))
    }

    public static func isAllowed(holding permits: Set<Permit>, rules: [PermitRule], weekday: Weekday, minute: Int) -> Bool {
        guard let required = required(by: rules, weekday: weekday, minute: minute) else { return true }
        return !required.isDisjoint(with: permits)
    }
}
