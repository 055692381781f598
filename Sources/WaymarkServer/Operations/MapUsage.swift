import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import WaymarkCore

/// Map images this server hands out per day (PRK-20: a map provider's budget), and directions
/// opened in the phone's maps app, on the day the operators' analytics count in. Counts wait
/// in memory and are added to the day's row every few seconds, so an image costs no write;
/// past the daily limit an image is refused until the next day. With several server processes each knows the others' counts from their last
/// writes, so together they may pass the limit by what they handed out in those seconds.
final class MapUsage: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        /// Map images; these have the daily limit.
        case tiles
        /// Directions opened in the phone's maps app, counted, never refused.
        case directions
    }

    struct Day: Sendable, Equatable {
        var day: LocalDay
        var tiles: Int
        var directions: Int
    }

    private struct State {
        var day = ""
        /// What the day's row held when this process last read or wrote it.
        var stored: [Kind: Int]?
        /// Counted here and not written yet, by day and kind.
        var pending: [String: [Kind: Int]] = [:]
        /// Being written by a flush: still counted until the row is read again.
        var writing: [String: [Kind: Int]] = [:]

        func used(_ kind: Kind, on day: String) -> Int {
            (self.day == day ? stored?[kind] ?? 0 : 0) + (pending[day]?[kind] ?? 0) + (writing[day]?[kind] ?? 0)
        }
    }

    let tileDailyLimit: Int?
    private let store: SQLStore
    private let zone: AnalyticsZone
    private let state = NIOLockedValueBox(State())

    init(store: SQLStore, zone: AnalyticsZone, tileDailyLimit: Int?) {
        self.store = store
        self.zone = zone
        self.tileDailyLimit = tileDailyLimit
    }

    /// Counts one request of `kind`; false, counting nothing, when the day's limit is reached.
    func take(_ kind: Kind, at now: Date) async throws -> Bool {
        let day = try await today(at: now)
        let limit = kind == .tiles ? tileDailyLimit : nil
        return state.withLockedValue { s in
            if let limit, s.used(kind, on: day) >= limit { return false }
            s.pending[day, default: [:]][kind, default: 0] += 1
            return true
        }
    }

    /// Whether today's map images are spent.
    func isSpent(at now: Date) async throws -> Bool {
        guard let limit = tileDailyLimit else { return false }
        let day = try await today(at: now)
        return state.withLockedValue { $0.used(.tiles, on: day) >= limit }
    }

    /// Today's key, with what the day's row held read once a day.
    private func today(at now: Date) async throws -> String {
        let day = LocalDay(containing: now, timeZone: try await zone.current()).description
        if state.withLockedValue({ $0.day != day || $0.stored == nil }) {
            let stored = try await Self.read(day: day, sql: store.sql)
            state.withLockedValue { s in
                if s.day != day { s.day = day; s.stored = nil }
                if s.stored == nil { s.stored = stored }
            }
        }
        return day
    }

    /// Adds what was counted since the last flush to the days' rows.
    func flush() async throws {
        let (batch, current) = state.withLockedValue { s -> ([String: [Kind: Int]], String) in
            // One flush at a time: another one's batch is still being written.
            guard s.writing.isEmpty else { return ([:], s.day) }
            s.writing = s.pending
            s.pending = [:]
            return (s.writing, s.day)
        }
        guard !batch.isEmpty else { return }
        do {
            let today = try await store.write { sql -> [Kind: Int]? in
                for (day, counts) in batch {
                    for (kind, n) in counts where n > 0 {
                        try await sql.raw("""
                            INSERT INTO map_usage (day, kind, requests) VALUES (\(bind: day), \(bind: kind.rawValue), \(bind: n))
                            ON CONFLICT (day, kind) DO UPDATE SET requests = map_usage.requests + excluded.requests
                            """).run()
                    }
                }
                return batch[current] == nil ? nil : try await Self.read(day: current, sql: sql)
            }
            // The row now holds this batch and every other process's counts written so far.
            state.withLockedValue { s in
                if let today, s.day == current { s.stored = today }
                s.writing = [:]
            }
        } catch {
            // Not lost on a failed write: counted again with the next flush.
            state.withLockedValue { s in
                for (day, counts) in s.writing { for (kind, n) in counts { s.pending[day, default: [:]][kind, default: 0] += n } }
                s.writing = [:]
            }
            throw error
        }
    }

    func run(logger: Logger, every interval: Duration = .seconds(5)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            do { try await flush() } catch {
                logger.error("map usage flush failed", metadata: ["error": .string(String(reflecting: error))])
            }
        }
        try? await flush()
    }

    /// Each day of `days` with what was handed out, none left out.
    func days(_ days: ClosedRange<LocalDay>) async throws -> [Day] {
        try await flush()
        var counts: [String: [Kind: Int]] = [:]
        for row in try await store.sql.raw("""
            SELECT day, kind, requests FROM map_usage
            WHERE day >= \(bind: days.lowerBound.description) AND day <= \(bind: days.upperBound.description)
            """).all() {
            guard let kind = Kind(rawValue: try row.decode(column: "kind", as: String.self)) else { continue }
            counts[try row.decode(column: "day", as: String.self), default: [:]][kind] = try row.decode(column: "requests", as: Int.self)
        }
        return (days.lowerBound.number...days.upperBound.number).map { n in
            let day = LocalDay(number: n)
            let c = counts[day.description] ?? [:]
            return Day(day: day, tiles: c[.tiles] ?? 0, directions: c[.directions] ?? 0)
        }
    }

    /// Seconds from `now` until the next day begins on the analytics' clock.
    func secondsToNextDay(from now: Date) async throws -> Int {
        let zone = try await zone.current()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let next = calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0), matchingPolicy: .nextTime) ?? now.addingTimeInterval(86_400)
        return max(1, Int(next.timeIntervalSince(now).rounded(.up)))
    }

    private static func read(day: String, sql: any SQLDatabase) async throws -> [Kind: Int] {
        var out: [Kind: Int] = [:]
        for row in try await sql.raw("SELECT kind, requests FROM map_usage WHERE day = \(bind: day)").all() {
            if let kind = Kind(rawValue: try row.decode(column: "kind", as: String.self)) {
                out[kind] = try row.decode(column: "requests", as: Int.self)
            }
        }
        return out
    }
}
