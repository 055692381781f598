import Foundation
import WaymarkCore

/// The feed of the version the row names, and each service day's `Timetable` built from it.
/// Reading a city's feed and laying out a day take a while, so each is done once per version (and
/// day) and every request asking meanwhile waits for that one.
actor TransitCache {
    let store: TransitStore
    /// Days kept laid out: today, tomorrow and a few a person looks ahead to.
    let daysKept: Int
    private var feed: (version: Int, task: Task<TransitFeed, any Error>)?
    private var days: [Key: Task<Timetable, Never>] = [:]
    private var used: [Key] = []

    struct Key: Hashable { var version: Int; var date: TransitFeed.ServiceDate }

    init(store: TransitStore, daysKept: Int = 4) {
        self.store = store
        self.daysKept = daysKept
    }

    func feed(for row: TransitFeedRow) async throws -> TransitFeed {
        if let f = feed, f.version >= row.version { return try await f.task.value }
        let task = Task.detached { [store] in try await Self.load(row, store) }
        feed = (row.version, task)
        do { return try await task.value } catch {
            // Not kept: the next request tries again.
            if feed?.version == row.version { feed = nil }
            throw error
        }
    }

    func timetable(for row: TransitFeedRow, on date: TransitFeed.ServiceDate) async throws -> Timetable {
        let key = Key(version: row.version, date: date)
        used.removeAll { $0 == key }
        used.append(key)
        if let task = days[key] { return try await task.value }
        let source = try await feed(for: row)
        let task = Task.detached { Timetable(feed: source, date: date) }
        days[key] = task
        // Days of older versions go first, then the least recently asked for.
        for old in days.keys where old.version < row.version { days[old] = nil }
        used.removeAll { days[$0] == nil }
        while used.count > daysKept { days[used.removeFirst()] = nil }
        return await task.value
    }

    /// An importer that has just read the feed gives it here, so the first request finds it.
    func install(version: Int, _ source: TransitFeed) {
        if (feed?.version ?? .min) <= version { feed = (version, Task { source }) }
    }

    private static func load(_ row: TransitFeedRow, _ store: TransitStore) async throws -> TransitFeed {
        guard let files = try await store.files(version: row.version), let source = GTFSReader.read(files: files).feed else {
            throw Problem(type: "timetable-unreadable", title: "The stored timetable cannot be read", status: 503,
                          detail: "Import the feed again with `waymark import gtfs`.")
        }
        return source
    }
}
