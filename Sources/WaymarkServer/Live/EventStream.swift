import Foundation
import OpenAPIRuntime

/// The body of a Server-Sent-Events response: an opening that sets the client's reconnect
/// delay, then what `catchUp` returns (events missed since the client's Last-Event-ID, or a
/// reset), then the subscription's frames as they come, with a comment every 15 seconds so
/// that proxies keep the connection open. It ends when the client goes away, when the client
/// falls too far behind (it reconnects with Last-Event-ID), or when the tail stops at shutdown.
enum EventStream {
    static let keepAliveInterval: Duration = .seconds(15)

    /// - Parameters:
    ///   - skipThrough: frames with ids up to this one are not passed on (the client has them,
    ///     or the stream starts after them) although the tail may still deliver them.
    static func body(
        frames: AsyncStream<LiveFrame>,
        buffer: Int,
        skipThrough: Int64? = nil,
        catchUp: @escaping @Sendable () async -> [[UInt8]] = { [] }
    ) -> HTTPBody {
        let (body, out) = AsyncStream<ArraySlice<UInt8>>.makeStream(bufferingPolicy: .bufferingOldest(buffer))
        let pump = Task {
            out.yield(ArraySlice("retry: 2000\n: connected\n\n".utf8))
            // Missed events go out in writes of about 64 KiB rather than one write each.
            var pending: [UInt8] = []
            for frame in await catchUp() {
                pending += frame
                if pending.count >= 65_536 { out.yield(pending[...]); pending = [] }
            }
            if !pending.isEmpty { out.yield(pending[...]) }
            for await frame in frames {
                guard let bytes = frame.after(skipThrough) else { continue }
                if case .dropped = out.yield(bytes) { break }
            }
            out.finish()
        }
        let keepAlive = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: keepAliveInterval)
                out.yield(ArraySlice(": keep-alive\n\n".utf8))
            }
        }
        out.onTermination = { _ in
            pump.cancel()
            keepAlive.cancel()
        }
        return HTTPBody(body, length: .unknown, iterationBehavior: .single)
    }
}
