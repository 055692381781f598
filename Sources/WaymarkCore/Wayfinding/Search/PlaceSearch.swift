import Foundation

/// One search box over a campus: rooms by number in any spelling ("JB-102", "jb 102", "102"),
/// buildings by name or code, people by first or last name, offices and services. Every word of
/// the query must match a word of the place: exactly, as the start of a word (for typing), or
/// within one or two typing slips for longer words ("pfua libary" finds the Pfau Library).
/// Built once per directory version; searching reads only.
public struct PlaceSearch: Sendable {
    public struct Entry: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case building, room, person, service, amenity
        }

        public var id: String
        public var kind: Kind
        public var title: String
        public var subtitle: String?
        /// Also matched as strongly as the title: a building's code, a room's other name.
        public var names: [String]
        /// Matched more weakly: a person's department and job title, a room's purpose.
        public var keywords: [String]
        public var campus: String?

        public init(id: String, kind: Kind, title: String, subtitle: String? = nil, names: [String] = [],
                    keywords: [String] = [], campus: String? = nil) {
            self.id = id; self.kind = kind; self.title = title; self.subtitle = subtitle
            self.names = names; self.keywords = keywords; self.campus = campus
        }
    }

    public struct Hit: Sendable, Hashable {
        public var entry: Entry
        public var score: Double
    }

    private struct Posting: Sendable { var entry: Int32; var weight: Float }

    public let entries: [Entry]
    private var wordIds: [String: Int32] = [:]
    private var words: [[UInt8]] = []
    private var postings: [[Posting]] = []
    /// Word ids in alphabetical order of their words, for prefix ranges.
    private var sorted: [Int32] = []
    /// Each word of four letters or more under itself and every one-letter deletion of it.
    private var deletions: [String: [Int32]] = [:]
    private var nameWordCount: [Int] = []

    public init(_ entries: [Entry]) {
        self.entries = entries
        for (e, entry) in entries.enumerated() {
            var best: [Int32: Float] = [:]
            let titleWords = SearchText.words(entry.title)
            let nameWords = entry.names.map(SearchText.words)
            // The shortest way to name the place: "PL" names the library in full.
            nameWordCount.append(([titleWords.count] + nameWords.map(\.count).filter { $0 > 0 }).min() ?? 0)
            for w in titleWords + nameWords.flatMap({ $0 }) { best[id(w), default: 0] = 1 }
            for w in entry.keywords.flatMap(SearchText.words) { best[id(w)] = max(best[id(w)] ?? 0, 0.6) }
            for (word, weight) in best { postings[Int(word)].append(.init(entry: Int32(e), weight: weight)) }
        }
        sorted = words.indices.map(Int32.init).sorted { words[Int($0)].lexicographicallyPrecedes(words[Int($1)]) }
        for (i, w) in words.enumerated() where w.count >= 4 && !Self.isNumber(w) {
            for key in Self.deletionKeys(w) { deletions[key, default: []].append(Int32(i)) }
        }
    }

    private mutating func id(_ word: String) -> Int32 {
        if let i = wordIds[word] { return i }
        let i = Int32(words.count)
        wordIds[word] = i
        words.append(Array(word.utf8))
        postings.append([])
        return i
    }

    private static func isNumber(_ w: [UInt8]) -> Bool { w.allSatisfy { $0 >= 48 && $0 <= 57 } }

    private static func deletionKeys(_ w: [UInt8]) -> [String] {
        var keys = [String(decoding: w, as: UTF8.self)]
        for i in w.indices {
            var d = w
            d.remove(at: i)
            keys.append(String(decoding: d, as: UTF8.self))
        }
        return keys
    }

    /// The best matches first. `campus` keeps one campus's places (and those of none).
    public func search(_ query: String, campus: String? = nil, limit: Int = 10) -> [Hit] {
        let queryWords = SearchText.words(query)
        guard !queryWords.isEmpty, limit > 0 else { return [] }
        // Every word adds to the places it matches; a place must match all the words but one
        // (a word mistyped beyond recognition, "pfau lbrry", should not empty the list).
        var total: [Int32: Float] = [:]
        var matched: [Int32: Int] = [:]
        for (k, q) in queryWords.enumerated() {
            for (e, score) in self.matches(Array(q.utf8), isLast: k == queryWords.count - 1) {
                total[e, default: 0] += score
                matched[e, default: 0] += 1
            }
        }
        let needed = max(1, queryWords.count - 1)
        var hits: [Hit] = []
        for (e, sum) in total where matched[e, default: 0] >= needed {
            let entry = entries[Int(e)]
            if let campus, let own = entry.campus, own != campus { continue }
            var score = Double(sum) / Double(queryWords.count)
            // A query that names the whole place beats one that names part of a longer one.
            let extra = max(0, nameWordCount[Int(e)] - queryWords.count)
            score -= 0.02 * Double(min(extra, 5))
            score += Self.kindBoost[entry.kind] ?? 0
            hits.append(.init(entry: entry, score: score))
        }
        hits.sort {
            $0.score != $1.score ? $0.score > $1.score
                : $0.entry.title.count != $1.entry.title.count ? $0.entry.title.count < $1.entry.title.count
                : $0.entry.title < $1.entry.title
        }
        return Array(hits.prefix(limit))
    }

    private static let kindBoost: [Entry.Kind: Double] = [.building: 0.05, .service: 0.04, .room: 0.03, .person: 0.02, .amenity: 0]

    /// Every entry the query word matches, with the best score it matches with.
    private func matches(_ q: [UInt8], isLast: Bool) -> [Int32: Float] {
        var out: [Int32: Float] = [:]
        func add(_ word: Int32, _ strength: Float) {
            for p in postings[Int(word)] {
                let s = strength * p.weight
                if s > out[p.entry] ?? 0 { out[p.entry] = s }
            }
        }
        let key = String(decoding: q, as: UTF8.self)
        if let exact = wordIds[key] { add(exact, 1) }
        // The start of a word: always for the word being typed, else from three letters on.
        if isLast || q.count >= 3 {
            var i = lowerBound(q)
            var taken = 0
            while i < sorted.count, taken < 4_000 {
                let w = words[Int(sorted[i])]
                guard w.starts(with: q) else { break }
                if w.count > q.count { add(sorted[i], 0.8) }
                i += 1; taken += 1
            }
        }
        // A three-letter word with a letter left out ("hll", "jck"): the four-letter words it
        // is one deletion of.
        if q.count == 3, !Self.isNumber(q) {
            for w in deletions[key] ?? [] where words[Int(w)].count == 4 { add(w, 0.5) }
        }
        // Typing slips, for words long enough to tell apart; never in numbers.
        if q.count >= 4, !Self.isNumber(q) {
            let limit = q.count >= 8 ? 2 : 1
            var checked = Set<Int32>()
            for k in Self.deletionKeys(q) {
                for w in deletions[k] ?? [] where checked.insert(w).inserted {
                    if let d = EditDistance.within(q, words[Int(w)], limit: limit), d > 0 { add(w, d == 1 ? 0.6 : 0.45) }
                }
            }
        }
        return out
    }

    private func lowerBound(_ q: [UInt8]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[Int(sorted[mid])].lexicographicallyPrecedes(q) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
