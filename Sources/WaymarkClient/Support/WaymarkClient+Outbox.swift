import Foundation
import WaymarkAPI
import WaymarkCore

/// What a write made, once it reached the server.
public enum WriteResult: Sendable {
    case booking(Booking)
    case permits(HeldPermits)
    case review(LotReview)
    case reviewDeleted(lotId: String)
    case scheduleBlock(Components.Schemas.ScheduleBlock)
    case scheduleBlockDeleted(id: String)
}

/// A write sent at once, or kept in the outbox because the server could not be reached.
public enum WriteOutcome: Sendable {
    case sent(WriteResult)
    case queued(Outbox.Write)
}

/// Writes that survive being offline (PRK-19). `send(_:)` makes the write now when it can and
/// queues it when the server cannot be reached; the app calls `flushOutbox()` when it is back
/// online (on a reachability change, at start, on a timer) and shows `outbox.writes`.
/// "Cannot be reached" is known only after `requestTimeout`: the HTTP client keeps trying to
/// connect until then.
extension WaymarkClient {
    public func send(_ action: Outbox.Write.Action) async throws -> WriteOutcome {
        let write = Outbox.Write(id: UUID().uuidString, action: action, createdAt: now(), state: .pending)
        do {
            return .sent(try await perform(write))
        } catch WaymarkClientError.unreachable {
            await outbox.append(write)
            return .queued(write)
        }
    }

    /// Sends what waits, oldest first, each once. Stops at the first write the network does
    /// not carry (it and the rest stay pending); a write the server refuses is kept as failed.
    /// Returns what happened to each write tried.
    @discardableResult
    public func flushOutbox() async -> [(write: Outbox.Write, result: Result<WriteResult, WaymarkClientError>)] {
        var done: [(write: Outbox.Write, result: Result<WriteResult, WaymarkClientError>)] = []
        for write in await outbox.writes where write.state == .pending {
            do {
                let result = try await perform(write)
                await outbox.remove(id: write.id)
                done.append((write, .success(result)))
            } catch let error as WaymarkClientError {
                if Self.isTransient(error) { break }
                let reason: String
                if case let .problem(_, _, title, detail) = error { reason = detail ?? title } else { reason = error.description }
                await outbox.fail(id: write.id, reason: reason)
                done.append((write, .failure(error)))
            } catch {
                await outbox.fail(id: write.id, reason: String(describing: error))
                done.append((write, .failure(.unexpectedStatus(0))))
            }
        }
        return done
    }

    /// Unreachable, overloaded or throttled: try again later rather than call it refused.
    static func isTransient(_ error: WaymarkClientError) -> Bool {
        switch error {
        case .unreachable: true
        case let .problem(status, _, _, _), let .unexpectedStatus(status): status >= 500 || status == 429
        }
    }

    func perform(_ write: Outbox.Write) async throws -> WriteResult {
        switch write.action {
        case let .book(lotId, start, end):
            .booking(try await book(lotId: lotId, start: start, end: end, idempotencyKey: write.id))
        case let .cancelBooking(bookingId):
            .booking(try await cancelBooking(id: bookingId))
        case let .setPermits(permits):
            .permits(try await setPermits(permits))
        case let .putReview(lotId, stars, text):
            .review(try await putReview(lotId: lotId, stars: stars, text: text, idempotencyKey: write.id))
        case let .deleteReview(lotId):
            try await { () async throws -> WriteResult in
                try await deleteReview(lotId: lotId)
                return .reviewDeleted(lotId: lotId)
            }()
        case let .putScheduleBlock(id, weekday, startSlot, endSlot, lotId):
            .scheduleBlock(try await updateScheduleBlock(id: id, weekday: weekday, startSlot: startSlot, endSlot: endSlot, lotId: lotId))
        case let .deleteScheduleBlock(id):
            try await { () async throws -> WriteResult in
                do {
                    try await deleteScheduleBlock(id: id)
                } catch WaymarkClientError.problem(404, _, _, _) {
                    // Already gone, or added and deleted while offline so the add was never sent.
                }
                return .scheduleBlockDeleted(id: id)
            }()
        }
    }
}
