import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Keeps header values as HTTP has them. The generated code percent-encodes the header values
/// it writes and percent-decodes those it reads (apple/swift-openapi-generator#857, #529), so
/// `Cache-Control: no-cache, max-age=300` went out as `no-cache%2C%20max-age%3D300`, which
/// browsers ignore, and an `If-None-Match` with a stray `%` was silently dropped. HTTP header
/// values are not percent-encoded, so this undoes both sides.
///
/// It is also where the contract's header bounds are enforced, on the value as sent.
struct RawHeaderMiddleware: ServerMiddleware {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// Request headers the handlers read, with the contract's `maxLength` for each.
    static let requestLimits: [(name: HTTPField.Name, maxLength: Int)] = [
        (.ifNoneMatch, ETag.maxHeaderLength),
        (lastEventID, APIHandler.maxLastEventIDLength),
        (idempotencyKey, IdempotencyKeys.maxLength),
    ]

    /// 400 when a header of `requestLimits` is longer than its bound.
    static func checkLimits(_ value: (HTTPField.Name) -> String?) throws {
        for (name, maxLength) in requestLimits {
            if let v = value(name), v.unicodeScalars.count > maxLength {
                throw Problem.badRequest("\(name.rawName) must be at most \(maxLength) characters.")
            }
        }
    }

    /// Response headers the handlers set.
    static let responseHeaders: [HTTPField.Name] = [.eTag, .cacheControl, .contentDisposition]

    /// RFC 3986 unreserved characters: what the generated decoder leaves alone.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        try Self.checkLimits { request.headerFields[$0] }
        for (name, _) in Self.requestLimits {
            guard let value = request.headerFields[name] else { continue }
            // Encoded here so that the generated decoder hands the handler the value as sent.
            request.headerFields[name] = value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? value
        }
        var (response, responseBody) = try await next(request, body, metadata)
        for name in Self.responseHeaders {
            if let value = response.headerFields[name], let raw = value.removingPercentEncoding {
                response.headerFields[name] = raw
            }
        }
        return (response, responseBody)
    }
}
