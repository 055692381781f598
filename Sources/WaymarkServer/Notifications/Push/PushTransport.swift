import AsyncHTTPClient
import Foundation
import NIOCore

/// One encrypted message on its way to a browser's push service (RFC 8030).
struct PushMessage: Sendable {
    var endpoint: URL
    var headers: [(name: String, value: String)]
    var body: Data
}

enum PushOutcome: Sendable, Equatable {
    case delivered
    /// The service no longer knows the subscription (404, 410): forget it.
    case gone
    case failed(String)
}

/// The way out to push services: third parties, so tests may put a recorder here.
protocol PushTransport: Sendable {
    func send(_ message: PushMessage) async -> PushOutcome
}

/// Posts to the push service over HTTP. Redirects are not followed: the endpoint was checked
/// against the allowed hosts, a redirect's target was not.
struct HTTPPushTransport: PushTransport {
    let client: HTTPClient
    var timeout: TimeAmount = .seconds(10)

    func send(_ message: PushMessage) async -> PushOutcome {
        var request = HTTPClientRequest(url: message.endpoint.absoluteString)
        request.method = .POST
        for header in message.headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: message.body))
        do {
            let response = try await client.execute(request, timeout: timeout)
            let text = try? await response.body.collect(upTo: 16 * 1024)
            switch response.status.code {
            case 200..<300: return .delivered
            case 404, 410: return .gone
            default:
                let detail = text.map { String(buffer: $0).prefix(200) } ?? ""
                return .failed("HTTP \(response.status.code) \(detail)")
            }
        } catch {
            return .failed(String(describing: error))
        }
    }
}
