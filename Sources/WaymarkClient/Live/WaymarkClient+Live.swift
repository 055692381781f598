import Foundation
import OpenAPIRuntime
import WaymarkAPI

/// What the live stream delivers.
public enum LiveEvent: Sendable {
    /// A spot changed; `id` is the stream position.
    case spot(id: Int64, Components.Schemas.SpotChange)
    /// A lot's counts moved with no spot changing: a booked driver became expected, arrived,
    /// cancelled or forfeited.
    case lot(id: Int64, Components.Schemas.LotOccupancy)
    /// The stream could not resume without a gap: refetch the occupancy and spot states.
    case reset(id: Int64)
}

extension WaymarkClient {
    /// Occupancy changes of a site as they happen. Reconnects by itself after a dropped
    /// connection, resuming from the last event it delivered, so no event is missed or repeated.
    /// Ends when the consuming task is cancelled.
    public func live(siteId: String, lastEventId: Int64? = nil, reconnectDelay: Duration = .seconds(1)) -> AsyncThrowingStream<LiveEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = lastEventId
                while !Task.isCancelled {
                    do {
                        let output = try await streamingClient.streamSiteLive(
                            path: .init(siteId: siteId), headers: .init(lastEventID: last.map(String.init)))
                        switch output {
                        case .ok(let ok):
                            let events = try ok.body.textEventStream.asDecodedServerSentEvents()
                            for try await event in events {
                                guard let idText = event.id, let id = Int64(idText) else { continue }
                                switch event.event {
                                case "spot":
                                    guard let data = event.data else { continue }
                                    let change = try Self.liveDecoder.decode(Components.Schemas.SpotChange.self, from: Data(data.utf8))
                                    continuation.yield(.spot(id: id, change))
                                case "lot":
                                    guard let data = event.data else { continue }
                                    let lot = try Self.liveDecoder.decode(Components.Schemas.LotOccupancy.self, from: Data(data.utf8))
                                    continuation.yield(.lot(id: id, lot))
                                case "reset":
                                    continuation.yield(.reset(id: id))
                                default:
                                    continue
                                }
                                last = id
                            }
                        case .notFound(let nf):
                            continuation.finish(throwing: WaymarkClientError.from(try nf.body.applicationProblemJson))
                            return
                        case .badRequest(let br):
                            continuation.finish(throwing: WaymarkClientError.from(try br.body.applicationProblemJson))
                            return
                        case .undocumented:
                            break
                        }
                    } catch is CancellationError {
                        break
                    } catch {
                        // Dropped connection or server restart: try again after a pause.
                    }
                    try? await Task.sleep(for: reconnectDelay)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static let liveDecoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = WaymarkDateTranscoder.decodingStrategy
        return d
    }()
}
