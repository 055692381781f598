import Foundation
import WaymarkCore

/// A router's figures between pairs of places. Bounded, the oldest dropped first, and each kept
/// only `lifetime`: streets close and open, and a plan reads the same pairs again and again.
/// Not locked itself; `RoutedEstimator` keeps it behind a lock.
struct RouteCache: Sendable {
    struct Key: Hashable, Sendable {
        var profile: StreetProfile
        var from: Coordinate
        var to: Coordinate
    }

    /// What the router said about one pair.
    enum Figure: Sendable, Equatable {
        case route(seconds: Double, metres: Double)
        /// The streets do not join the two places by this profile.
        case noRoute
        /// One of the places is too far from the router's streets for its figures to mean much.
        case offStreets
    }

    let capacity: Int
    let lifetime: TimeInterval

    private struct Entry: Sendable {
        var figure: Figure
        var stored: Date
        var serial: Int
    }

    private var entries: [Key: Entry] = [:]
    /// Keys in the order stored; a key stored again leaves a stale line that eviction skips.
    private var order: [(key: Key, serial: Int)] = []
    private var head = 0
    private var serial = 0

    init(capacity: Int = 50_000, lifetime: TimeInterval = 3600) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    var count: Int { entries.count }

    /// The figure for the pair while it is fresh; nil when never stored or too old.
    func figure(_ key: Key, at now: Date) -> Figure? {
        guard let e = entries[key], now.timeIntervalSince(e.stored) < lifetime else { return nil }
        return e.figure
    }

    mutating func store(_ figure: Figure, for key: Key, at now: Date) {
        serial += 1
        entries[key] = Entry(figure: figure, stored: now, serial: serial)
        order.append((key, serial))
        while entries.count > capacity, head < order.count {
            let (k, s) = order[head]
            head += 1
            if entries[k]?.serial == s { entries[k] = nil }
        }
        // Drop the lines already read, and the stale ones when they pile up.
        if head > capacity {
            order.removeFirst(head)
            head = 0
        }
        if order.count > 2 * capacity {
            order = order.filter { entries[$0.key]?.serial == $0.serial }
            head = 0
        }
    }
}
