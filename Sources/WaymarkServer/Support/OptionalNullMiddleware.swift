import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Refuses an explicit `null` for an optional field of a JSON request body. The generated
/// decoder reads it as "absent", so `{"units": null}` would pass as a valid profile update and
/// `{"lotId": null}` as a block without a lot, though the contract allows neither: a client
/// that sends null has a bug it should hear about. Only the optional fields the contract names
/// are checked (a required one that is null already fails to decode); other members a body may
/// carry are ignored as before. The gateway operations have their own check.
struct OptionalNullMiddleware: ServerMiddleware {
    /// Operation id → the optional properties of its JSON body, as in the contract
    /// (`APIHandler.optionalBodyFields`).
    let fields: [String: [String]]
    let maxBytes: Int

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let fields = self.fields[operationID], let body else { return try await next(request, body, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: maxBytes)
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
           let field = fields.first(where: { object[$0] is NSNull }) {
            throw Problem.badRequest("\(field) must not be null; leave it out instead.")
        }
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
