import Foundation

/// What an edit of a site's permits changed (PRK-1), for the operators' record and for the
/// people whose permits a removal takes away.
public struct PermitKindChanges: Sendable, Hashable {
    public struct Edit: Sendable, Hashable {
        public var before: PermitKind
        public var after: PermitKind
    }

    public var added: [PermitKind] = []
    public var removed: [PermitKind] = []
    /// Kept codes whose name or colour changed.
    public var edited: [Edit] = []
    /// The same permits, in another order (the order drivers see them in).
    public var reordered = false

    public init(from old: [PermitKind], to new: [PermitKind]) {
        let oldByCode = Dictionary(old.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        let newCodes = Set(new.map(\.code))
        added = new.filter { oldByCode[$0.code] == nil }
        removed = old.filter { !newCodes.contains($0.code) }
        edited = new.compactMap { kind in oldByCode[kind.code].flatMap { $0 == kind ? nil : Edit(before: $0, after: kind) } }
        let kept = new.map(\.code).filter { oldByCode[$0] != nil }
        reordered = kept != old.map(\.code).filter(newCodes.contains)
    }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && edited.isEmpty && !reordered }

    /// "Added Resident; renamed Green to Green Zone; removed Yellow", or "" when nothing changed.
    public var summary: String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("added " + ListWords.and(added.map(\.name))) }
        for e in edited {
            switch (e.before.name != e.after.name, e.before.colour != e.after.colour) {
            case (true, true): parts.append("renamed \(e.before.name) to \(e.after.name), with a new colour")
            case (true, false): parts.append("renamed \(e.before.name) to \(e.after.name)")
            default: parts.append("gave \(e.after.name) a new colour")
            }
        }
        if !removed.isEmpty { parts.append("removed " + ListWords.and(removed.map(\.name))) }
        if reordered { parts.append("put them in a new order") }
        guard let first = parts.first else { return "" }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + parts.dropFirst()).joined(separator: "; ")
    }
}
