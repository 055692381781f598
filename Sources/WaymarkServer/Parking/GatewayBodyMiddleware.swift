import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Holds the gateway operations' JSON bodies to RFC 8259 and the contract where the generated
/// decoder (Foundation's JSONDecoder) is lenient: it accepts a body without Content-Type, a
/// UTF-16 body, trailing commas, and an explicit null for an optional field (read as absent,
/// so `"received_at": null` would quietly become "now"). Bodies are read here once more, after
/// the size limit and the gateway check, so only authenticated, bounded bodies are scanned; a
/// scan is one pass over at most `maxBytes`.
struct GatewayBodyMiddleware: ServerMiddleware {
    static let uplinkOperation = "ingestThingsStackUplink"

    /// The optional fields of an uplink the server reads, as key paths into the body.
    static let uplinkOptionalFields: [[String]] = [
        ["received_at"], ["end_device_ids", "dev_eui"], ["uplink_message", "f_cnt"], ["uplink_message", "received_at"],
        ["uplink_message", "rx_metadata"],
    ]

    let maxBytes: Int

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard GatewayAuthMiddleware.operations.contains(operationID) else { return try await next(request, body, metadata) }
        // The generated code checks the content type's value, but lets a missing one through.
        guard request.headerFields[.contentType] != nil else { throw Problem.unsupportedMediaType }
        guard let body else { return try await next(request, nil, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: maxBytes)
        try Self.checkJSONText(bytes)
        if operationID == Self.uplinkOperation,
           let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] {
            for path in Self.uplinkOptionalFields where Self.isNull(object, path) {
                throw Problem.badRequest("\(path.joined(separator: ".")) must not be null; leave it out instead.")
            }
        }
        return try await next(request, HTTPBody(bytes), metadata)
    }

    /// UTF-8 without a byte order mark, and no trailing comma, else 400.
    static func checkJSONText(_ bytes: [UInt8]) throws {
        guard String(validating: bytes, as: UTF8.self) != nil, !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else {
            throw Problem.badRequest("The body must be JSON in UTF-8 (without a byte order mark).")
        }
        if hasTrailingComma(bytes) {
            throw Problem.badRequest("The body is not valid JSON: a comma ends a list or an object.")
        }
    }

    /// A `,` followed (after whitespace) by `]` or `}`, outside strings.
    static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false
        var escaped = false
        var pendingComma = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if pendingComma { return true }
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            pendingComma = b == UInt8(ascii: ",")
        }
        return false
    }

    static func isNull(_ object: [String: Any], _ path: [String]) -> Bool {
        var current: Any = object
        for key in path {
            guard let dictionary = current as? [String: Any], let value = dictionary[key] else { return false }
            current = value
        }
        return current is NSNull
    }
}
