import Foundation
import HTTPTypes
import Vapor

/// Puts the client's address in a header only the server sets, for the OpenAPI layer (which
/// sees no connection). An incoming header of that name is dropped, so clients cannot forge it.
struct ClientAddressMiddleware: AsyncMiddleware {
    static let name = "X-Waymark-Client-Address"
    static let field = HTTPField.Name(name)!
    let trustForwardedFor: Bool

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        request.headers.remove(name: Self.name)
        var address = request.remoteAddress?.ipAddress ?? "unknown"
        if trustForwardedFor, let forwarded = request.headers.first(name: .xForwardedFor)?
            .split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !forwarded.isEmpty, forwarded.count <= 64 {
            address = forwarded
        }
        request.headers.replaceOrAdd(name: Self.name, value: address)
        return try await next.respond(to: request)
    }
}
