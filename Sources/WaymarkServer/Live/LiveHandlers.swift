import Foundation
import OpenAPIRuntime
import WaymarkAPI

extension APIHandler {
    /// Most events a reconnecting client is sent from the table before it is told to reset:
    /// past this, refetching the snapshot is cheaper than replaying.
    static let maxReplay = 10_000

    /// The contract's bound on the Last-Event-ID header (enforced by `RawHeaderMiddleware`).
    static let maxLastEventIDLength = 32

    func streamSiteLive(_ input: Operations.StreamSiteLive.Input) async throws -> Operations.StreamSiteLive.Output {
        let siteId = input.path.siteId
        guard try await services.parking.queries.site(id: siteId) != nil else { throw Problem.notFound("site") }
        // Checked even when the header wins: a request the contract calls invalid is refused.
        if let from = input.query.lastEventId, from < 0 { throw Problem.badRequest("lastEventId must not be negative.") }
        var resumeFrom = input.query.lastEventId
        // An id this stream never sent is an unknown position, which the contract answers with
        // `reset` (refetch, then keep reading) rather than an error: EventSource resends
        // whatever id it last saw, and the client cannot do better than start over. (Its
        // length is bounded by `RawHeaderMiddleware`.)
        var unknownPosition = false
        if let header = input.headers.lastEventID?.trimmingCharacters(in: .whitespaces), !header.isEmpty {
            if let id = Int64(header), id >= 0 { resumeFrom = id } else { unknownPosition = true }
        }

        // Subscribe first, then replay from the table up to the subscription's cursor: together
        // they cover every event after `resumeFrom` exactly once.
        let (cursor, frames) = services.parking.live.subscribe(siteId: siteId)
        let store = services.store
        let body = EventStream.body(frames: frames, buffer: LiveHub.subscriberBuffer) { [resumeFrom, unknownPosition] in
            let reset = [LiveEncoding.frame(id: cursor, kind: "reset", payload: "{}")]
            if unknownPosition { return reset }
            guard let from = resumeFrom else { return [] }
            do {
                let bounds = try await EventLog.bounds(sql: store.sql)
                if from > cursor || (bounds.min > from + 1 && from < bounds.max) { return reset }
                let replay = try await EventLog.events(siteId: siteId, after: from, upTo: cursor, limit: Self.maxReplay, sql: store.sql)
                return replay?.map(\.frame) ?? reset
            } catch {
                return reset
            }
        }
        return .ok(.init(body: .textEventStream(body)))
    }
}
