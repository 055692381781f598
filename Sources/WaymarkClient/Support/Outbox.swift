import Foundation
import WaymarkCore

/// Writes made while the server could not be reached (PRK-19, QLT-1), kept on disk beside the
/// cached reads and sent by `WaymarkClient.flushOutbox()` when the app is back online.
///
/// Every write has its own id, made when the person acted, and is sent with it as the
/// `Idempotency-Key`: a write whose answer was lost on the way is made once however often it
/// is sent. A write the server refuses (no space left, too little in the wallet) stays, marked
/// failed with the server's words, until the app retries or discards it, so the person can see
/// what did not happen.
public actor Outbox {
    public struct Write: Codable, Sendable, Hashable, Identifiable {
        public enum Action: Codable, Sendable, Hashable {
            case book(lotId: String, start: Date, end: Date)
            case cancelBooking(bookingId: String)
            /// The whole set: a later one replaces an earlier one still waiting.
            case setPermits(HeldPermits)
            /// Your review of a lot (PRK-14); a later one for the same lot replaces one still waiting.
            case putReview(lotId: String, stars: Int, text: String)
            case deleteReview(lotId: String)
            /// A block of the weekly schedule (PRK-16) under its id; an id made by the app adds it.
            /// A later write of the same block replaces one still waiting.
            case putScheduleBlock(id: String, weekday: Int, startSlot: Int, endSlot: Int, lotId: String?)
            case deleteScheduleBlock(id: String)
        }

        public enum State: Codable, Sendable, Hashable {
            case pending
            case failed(reason: String)
        }

        /// Also the write's `Idempotency-Key`.
        public let id: String
        public let action: Action
        public let createdAt: Date
        public internal(set) var state: State
    }

    private var items: [Write]
    private let file: URL?

    init(file: URL?) {
        self.file = file
        self.items = file.flatMap { try? Data(contentsOf: $0) }.flatMap { try? JSONDecoder().decode([Write].self, from: $0) } ?? []
    }

    /// Everything waiting or failed, oldest first.
    public var writes: [Write] { items }

    /// Drops a write the person no longer wants (typically a failed one).
    public func discard(id: String) {
        items.removeAll { $0.id == id }
        save()
    }

    /// Puts a failed write back in line for the next `flushOutbox()`.
    public func retry(id: String) {
        guard let i = items.firstIndex(where: { $0.id == id }) else { return }
        items[i].state = .pending
        save()
    }

    func append(_ write: Write) {
        items.removeAll { $0.id == write.id || Self.replaces(write.action, $0) }
        items.append(write)
        save()
    }

    func remove(id: String) {
        items.removeAll { $0.id == id }
        save()
    }

    func fail(id: String, reason: String) {
        guard let i = items.firstIndex(where: { $0.id == id }) else { return }
        items[i].state = .failed(reason: reason)
        save()
    }

    /// Signing out: nothing of the account may be sent as whoever signs in next (ACC-3).
    func removeAll() {
        items.removeAll()
        save()
    }

    private static func replaces(_ new: Write.Action, _ old: Write) -> Bool {
        guard old.state == .pending else { return false }
        switch (new, old.action) {
        case (.setPermits, .setPermits): return true
        case let (.putReview(lot, _, _), .putReview(waiting, _, _)), let (.putReview(lot, _, _), .deleteReview(waiting)),
             let (.deleteReview(lot), .putReview(waiting, _, _)), let (.deleteReview(lot), .deleteReview(waiting)):
            return lot == waiting
        case let (.putScheduleBlock(block, _, _, _, _), .putScheduleBlock(waiting, _, _, _, _)),
             let (.putScheduleBlock(block, _, _, _, _), .deleteScheduleBlock(waiting)),
             let (.deleteScheduleBlock(block), .putScheduleBlock(waiting, _, _, _, _)),
             let (.deleteScheduleBlock(block), .deleteScheduleBlock(waiting)):
            return block == waiting
        default: return false
        }
    }

    private func save() {
        guard let file else { return }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            if items.isEmpty {
                try? FileManager.default.removeItem(at: file)
            } else {
                // Atomic: a crash mid-write leaves the previous queue, never half of one.
                try JSONEncoder().encode(items).write(to: file, options: .atomic)
            }
        } catch {
            // The queue still lives in memory for this run; only a restart would lose it.
        }
    }
}
