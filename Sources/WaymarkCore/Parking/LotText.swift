import Foundation

/// Finding a lot by what a driver types (UniPark's "search locations"): its name, its code or
/// its street address, read the way place search reads text ("nutwood", "Lot A", "college ave").
/// Every word typed must match a word of the lot: exactly, as the start of a word (the word
/// being typed, or any word of three letters or more), or within a typing slip for longer
/// words ("nutwod"). A campus has tens of lots, so each is simply compared.
public enum LotText {
    /// The longest query read; the contract's bound.
    public static let maxLength = 200

    /// 0 to 1, higher for a better match; nil when some word of the query matches nothing.
    public static func score(_ query: String, name: String, code: String, address: String?) -> Double? {
        let typed = SearchText.words(query).map { Array($0.utf8) }
        guard !typed.isEmpty else { return nil }
        // The name and the code name the lot; the address only says where it is.
        let strong = (SearchText.words(name) + SearchText.words(code)).map { Array($0.utf8) }
        let weak = SearchText.words(address ?? "").map { Array($0.utf8) }
        var total = 0.0
        for (k, q) in typed.enumerated() {
            let isLast = k == typed.count - 1
            // One or two letters being typed start too many words of an address ("b" of "Blvd").
            let best = max(strong.map { strength(q, $0, isLast: isLast) }.max() ?? 0,
                           0.8 * (weak.map { strength(q, $0, isLast: isLast && q.count >= 3) }.max() ?? 0))
            guard best > 0 else { return nil }
            total += best
        }
        // A query naming the whole lot beats one naming part of a longer name.
        let extra = max(0, SearchText.words(name).count - typed.count)
        return total / Double(typed.count) - 0.02 * Double(min(extra, 5))
    }

    private static func strength(_ q: [UInt8], _ w: [UInt8], isLast: Bool) -> Double {
        if q == w { return 1 }
        if (isLast || q.count >= 3), w.starts(with: q) { return 0.8 }
        let isNumber = q.allSatisfy { $0 >= 48 && $0 <= 57 }
        guard !isNumber, q.count >= 4 else { return 0 }
        return EditDistance.within(q, w, limit: q.count >= 8 ? 2 : 1) != nil ? 0.6 : 0
    }
}
