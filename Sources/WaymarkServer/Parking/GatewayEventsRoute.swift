import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Vapor
import WaymarkAPI

/// `POST /v1/gateway/events` (PRK-2) served by a Vapor route of its own instead of through the
/// generated server and its middleware chain: the route a busy gateway calls for every
/// reading, where that chain cost more CPU than the ingest itself (see Benchmarks/README.md).
///
/// It does what the generated route does, with the same code where there is code to share:
/// the checks of the middlewares that act on this operation (header bounds, the gateway's
/// secret, the body's JSON text), the runtime's own content-type and `Accept` rules, the
/// generated `Codable` types with the contract's date format, and `APIHandler.ingestSensorEvents`
/// for the work. Errors become the same problems; requests are counted under the operation's id.
/// The one difference: an `Accept` that rules out JSON is refused before the events are stored
/// rather than after.
struct GatewayEventsRoute: Sendable {
    static let method = HTTPRequest.Method.post
    static let path = "/v1/gateway/events"
    static let operation = "ingestSensorEvents"

    let services: WaymarkServices
    let metrics: RequestMetrics
    /// The body limit (Vapor's collection enforces it too, but not for a body handed over whole).
    let maxBytes: Int

    private static let converter = Converter(configuration: .waymark)

    private static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = WaymarkDateTranscoder.decodingStrategy
        return d
    }()

    func register(on routes: any RoutesBuilder) {
        // Not an async route: that would run the handler on the cooperative pool, and its
        // answer would cross back to the connection's event loop. The task runs on the
        // connection's own event loop instead, where the request arrived and the answer leaves.
        routes.on(.POST, CollectingTransport.components(Self.path), body: .collect) { request -> EventLoopFuture<Response> in
            let promise = request.eventLoop.makePromise(of: Response.self)
            Task(executorPreference: EventLoopTaskExecutor(loop: request.eventLoop)) {
                do {
                    promise.succeed(try await metrics.measure(operation: Self.operation, status: { Int($0.status.code) }) {
                        try await respond(to: request)
                    })
                } catch {
                    promise.fail(error)
                }
            }
            return promise.futureResult
        }
    }

    func respond(to request: Request) async throws -> Response {
        let headers = request.headers
        try RawHeaderMiddleware.checkLimits { headers.first(name: $0.rawName) }
        let bytes = request.body.data.map { Array($0.readableBytesView) } ?? []
        if bytes.count > maxBytes { throw Problem.tooLarge(limit: maxBytes) }
        let gateway = try await GatewayAuthMiddleware.gateway(authorization: headers.first(name: .authorization), keys: services.parking.gateways,
                                                                now: services.now())
        // The generated code checks the content type's value, but lets a missing one through.
        guard let contentType = headers.first(name: .contentType) else { throw Problem.unsupportedMediaType }
        try GatewayBodyMiddleware.checkJSONText(bytes)
        var fields = HTTPFields()
        fields[.contentType] = contentType
        for accept in headers[.accept] { fields.append(HTTPField(name: .accept, value: accept)) }
        let batch: Components.Schemas.SensorEventBatch
        do {
            let _: [AcceptHeaderContentType<Operations.IngestSensorEvents.AcceptableContentType>] =
                try Self.converter.extractAcceptHeaderIfPresent(in: fields)
            _ = try Self.converter.bestContentType(received: Self.converter.extractContentTypeIfPresent(in: fields), options: ["application/json"])
            try Self.converter.validateAcceptIfPresent("application/json", in: fields)
            batch = try Self.decoder.decode(Components.Schemas.SensorEventBatch.self, from: Data(bytes))
        } catch let problem as Problem {
            throw problem
        } catch let decoding as DecodingError {
            throw ProblemMiddleware.schemaMismatch(decoding)
        } catch {
            // The runtime's errors carry their status; the problem middleware renders them as it
            // does for the generated routes.
            throw ServerError(operationID: Self.operation, request: HTTPRequest(method: Self.method, scheme: nil, authority: nil, path: Self.path),
                              requestBody: nil, requestMetadata: .init(), causeDescription: String(describing: error), underlyingError: error)
        }
        let output = try await RequestContext.$gateway.withValue(gateway) {
            try await APIHandler(services: services).ingestSensorEvents(.init(body: .json(batch)))
        }
        var answer = HTTPFields()
        let body = try Self.converter.setResponseBodyAsJSON(try output.ok.body.json, headerFields: &answer, contentType: "application/json; charset=utf-8")
        let response = Response(status: .ok, body: .init(buffer: ByteBuffer(bytes: try await [UInt8](collecting: body, upTo: .max))))
        for field in answer { response.headers.replaceOrAdd(name: field.name.rawName, value: field.value) }
        return response
    }
}
