import Foundation
import Vapor

/// `POST /v1/payments/card/events`: where the card processor posts what happened to payments
/// (its webhook endpoint). Outside the contract: the body is the processor's, and its signature
/// is over the exact bytes, so it is read raw and checked before anything is parsed.
struct CardEventsRoute: Sendable {
    static let path: [PathComponent] = ["v1", "payments", "card", "events"]
    /// The processor's events are a few kilobytes.
    static let maxBytes = 256 * 1024

    let service: CardTopUpService

    func register(on routes: any RoutesBuilder) {
        routes.on(.POST, Self.path, body: .collect(maxSize: ByteCount(value: Self.maxBytes))) { req async throws -> Response in
            guard let body = req.body.data else { throw Problem.badRequest("The event has no body.") }
            try await service.receive(payload: Data(buffer: body), signatureHeader: req.headers.first(name: "Stripe-Signature"))
            let response = Response(status: .ok, body: .init(string: #"{"received":true}"#))
            response.headers.contentType = .json
            return response
        }
    }
}
