import Foundation
import OpenAPIRuntime
import WaymarkAPI

extension APIHandler {
    /// Most events a reconnecting client is sent from the table before it is told to reset:
    /// past this, refetching the snapshot is cheaper than replaying.
    static let maxReplay = 10_000

    func streamSiteLive(_ input: Operations.StreamSiteLive.Input) async throws -> Operations.StreamSiteLive.Output {
        let siteId = input.path.siteId
        guard try await services.parking.site(id: siteId) != nil else { throw Problem.notFound("site") }
        var resumeFrom = input.query.lastEventId
        if let header = input.headers.lastEventID?.trimmingCharacters(in: .whitespaces), !header.isEmpty {
            guard let id = Int64(header), id >= 0 else { throw Problem.badRequest("Last-Event-ID must be an event id from this stream.") }
            resumeFrom = id
        }
        if let from = resumeFrom, from < 0 { throw Problem.badRequest("lastEventId must not be negative.") }

        // Subscribe first, then replay from the table up to the subscription's cursor: together
        // they cover every event after `resumeFrom` exactly once.
        let (cursor, frames) = services.live.subscribe(siteId: siteId)
        let store = services.store
        let (body, out) = AsyncStream<ArraySlice<UInt8>>.makeStream(bufferingPolicy: .bufferingOldest(LiveHub.subscriberBuffer))
        let pump = Task {
            out.yield(ArraySlice("retry: 2000\n: connected\n\n".utf8))
            if let from = resumeFrom {
                do {
                    let bounds = try await EventLog.bounds(sql: store.sql)
                    let replay = from > cursor || (bounds.min > from + 1 && from < bounds.max)
                        ? nil
                        : try await EventLog.read(siteId: siteId, after: from, upTo: cursor, limit: Self.maxReplay + 1, sql: store.sql)
                    if let replay, replay.count <= Self.maxReplay {
                        for row in replay { out.yield(ArraySlice(LiveEncoding.frame(id: row.id, kind: row.kind, payload: row.payload))) }
                    } else {
                        out.yield(ArraySlice(LiveEncoding.frame(id: cursor, kind: "reset", payload: "{}")))
                    }
                } catch {
                    out.yield(ArraySlice(LiveEncoding.frame(id: cursor, kind: "reset", payload: "{}")))
                }
            }
            for await frame in frames {
                // A client that cannot keep up is cut off; it resumes with Last-Event-ID.
                if case .dropped = out.yield(ArraySlice(frame.bytes)) { break }
            }
            out.finish()
        }
        let keepAlive = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(15))
                out.yield(ArraySlice(": keep-alive\n\n".utf8))
            }
        }
        out.onTermination = { _ in
            pump.cancel()
            keepAlive.cancel()
        }
        return .ok(.init(body: .textEventStream(HTTPBody(body, length: .unknown, iterationBehavior: .single))))
    }
}
