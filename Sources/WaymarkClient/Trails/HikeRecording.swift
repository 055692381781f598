import Foundation
import WaymarkCore

/// A hike being recorded (TRL-6): positions go in as the device reports them, the live figures
/// come out as the Current Hike card shows them, and the recording is saved under the id it got
/// when it started, so saving it again after a lost answer stores it once. It is a value: keep
/// it wherever the app keeps state (it is `Codable`) so a restart loses nothing.
public struct HikeRecording: Hashable, Sendable, Codable {
    public let id: String
    public let trailId: String
    public let startedAt: Date
    public private(set) var fixes: [HikeFix] = []
    public var body: HikerBody

    public init(trailId: String, startedAt: Date = Date(), body: HikerBody = HikerBody(), id: String = UUID().uuidString.lowercased()) {
        self.trailId = trailId; self.startedAt = startedAt; self.body = body; self.id = id
    }

    /// Adds a position; one older than the last (a device replaying its cache) is ignored.
    /// The figures are those of the hike up to this fix.
    @discardableResult
    public mutating func add(_ fix: HikeFix) -> HikeStatistics {
        if fix.time >= startedAt, fix.time > (fixes.last?.time ?? .distantPast) { fixes.append(fix) }
        return statistics(at: max(fix.time, fixes.last?.time ?? startedAt))
    }

    /// The figures at a moment: the stopwatch runs on between positions.
    public func statistics(at now: Date) -> HikeStatistics {
        HikeStatistics(fixes: fixes, start: startedAt, end: max(now, startedAt), body: body)
    }
}

extension WaymarkClient {
    /// Records from a stream of positions: each one's live figures, and the recording at the end
    /// of the stream, ready to save.
    public func record<Positions: AsyncSequence & Sendable>(
        _ recording: HikeRecording, from positions: Positions, figures: @Sendable (HikeStatistics) -> Void = { _ in }
    ) async throws -> HikeRecording where Positions.Element == HikeFix {
        var r = recording
        for try await fix in positions { figures(r.add(fix)) }
        return r
    }

    /// Saves a recording stopped at `endedAt` to History.
    @discardableResult
    public func saveHike(_ r: HikeRecording, endedAt: Date) async throws -> Hike {
        try await saveHike(id: r.id, trailId: r.trailId, startedAt: r.startedAt, endedAt: endedAt, fixes: r.fixes)
    }
}
