import Foundation
import WaymarkCore

/// The catalogue as lists and the map read it: every trail's row, by name and in the
/// nearest-trail index, in memory. Rebuilt when the catalogue's version in the database moves,
/// so an import through another server shows here on the next request.
actor TrailCatalogue {
    struct Snapshot: Sendable {
        var version: Int64
        var rows: [String: TrailRow]
        var byName: [TrailRow]
        var index: TrailIndex
        /// Each trail's name and area as words, folded for matching.
        var words: [String: [String]]
    }

    private let trails: TrailStore
    private var snapshot: Snapshot?

    init(trails: TrailStore) { self.trails = trails }

    func current() async throws -> Snapshot {
        let version = try await trails.catalogueVersion()
        if let snapshot, snapshot.version == version { return snapshot }
        // Rows read after the version are at least that new; a write in between only means one more rebuild.
        let rows = try await trails.rows()
        let built = Self.build(version: version, rows: rows)
        if snapshot.map({ $0.version <= version }) ?? true { snapshot = built }
        return built
    }

    static func build(version: Int64, rows: [TrailRow]) -> Snapshot {
        var byId: [String: TrailRow] = [:]
        var words: [String: [String]] = [:]
        for r in rows {
            byId[r.id] = r
            words[r.id] = SearchText.words(r.name + " " + r.area)
        }
        let byName = rows.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return Snapshot(version: version, rows: byId, byName: byName, index: TrailIndex(rows.map(\.indexEntry)), words: words)
    }
}

extension TrailCatalogue.Snapshot {
    /// Trails whose name or area has a word starting with each word asked, best first: the
    /// name starting with the whole query, then a name word, then the area; ties by name.
    func search(_ query: String, filter: TrailIndex.Filter) -> [TrailRow] {
        let asked = SearchText.words(query)
        guard !asked.isEmpty else { return [] }
        let whole = SearchText.fold(query).trimmingCharacters(in: .whitespaces)
        var scored: [(Int, TrailRow)] = []
        for row in byName where filter.admits(row.indexEntry) {
            let w = words[row.id] ?? []
            guard asked.allSatisfy({ a in w.contains { $0.hasPrefix(a) } }) else { continue }
            let nameWords = SearchText.words(row.name)
            let score = SearchText.fold(row.name).hasPrefix(whole) ? 0
                : asked.allSatisfy({ a in nameWords.contains { $0.hasPrefix(a) } }) ? 1 : 2
            scored.append((score, row))
        }
        // `byName` is already in name order and the sort is stable.
        return scored.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }
}
