import Foundation
import HTTPTypes
import OpenAPIRuntime
import Vapor

/// Serves the generated handlers from Vapor routes. Request bodies are collected by Vapor before
/// the handler runs (at most the routes' body limit, else 413), and a response of known length
/// is written in one piece; only a response of unknown length (a live stream) is streamed.
///
/// The contract's bodies are small JSON documents. Reading one as a stream from a task meant a
/// hop between the event loop and the task for every chunk and for the end, and writing every
/// response as a stream meant a task of its own per response and a hop per write: together
/// about a third of the server's CPU per ingest request (measured against a route serving the
/// same handler from a collected body).
struct CollectingTransport: ServerTransport {
    let routes: any RoutesBuilder
    /// Operations that have a route of their own (method and contract path): not registered here.
    var servedElsewhere: [(method: HTTPRequest.Method, path: String)] = []
    /// Operations whose bodies may be larger than the routes' limit (an archive upload).
    var largeBodies: [(method: HTTPRequest.Method, path: String, maxBytes: Int)] = []

    func register(
        _ handler: @Sendable @escaping (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        if servedElsewhere.contains(where: { $0.method == method && $0.path == path }) { return }
        let components = Self.components(path)
        let parameters = components.compactMap { component -> String? in
            if case .parameter(let name) = component { return name }
            return nil
        }
        let limit = largeBodies.first { $0.method == method && $0.path == path }.map { ByteCount(integerLiteral: $0.maxBytes) }
        routes.on(HTTPMethod(rawValue: method.rawValue), components, body: .collect(maxSize: limit)) { request async throws -> Response in
            var fields = HTTPFields()
            for (name, value) in request.headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let query = request.url.query.map { "?\($0)" } ?? ""
            let head = HTTPRequest(method: method, scheme: nil, authority: nil, path: request.url.path + query, headerFields: fields)
            var pathParameters: [String: Substring] = [:]
            for name in parameters {
                guard let value = request.parameters.get(name) else { throw Abort(.notFound) }
                pathParameters[name] = Substring(value)
            }
            let body = request.body.data.map { HTTPBody(Array($0.readableBytesView)) } ?? HTTPBody()
            let (response, responseBody) = try await handler(head, body, ServerRequestMetadata(pathParameters: pathParameters))

            var headers = HTTPHeaders()
            for field in response.headerFields { headers.add(name: field.name.rawName, value: field.value) }
            let out = Response(status: HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase),
                               headers: headers)
            guard let responseBody else { return out }
            if case .known(let length) = responseBody.length {
                out.body = .init(buffer: ByteBuffer(bytes: try await [UInt8](collecting: responseBody, upTo: Int(length))))
            } else {
                out.body = Self.stream(responseBody)
            }
            return out
        }
    }

    /// `/v1/lots/{lotId}/spots` as route components.
    static func components(_ path: String) -> [PathComponent] {
        path.split(separator: "/").map { part in
            part.first == "{" && part.last == "}" ? .parameter(String(part.dropFirst().dropLast())) : .constant(String(part))
        }
    }

    /// A body of unknown length, written chunk by chunk as it is produced.
    static func stream(_ body: HTTPBody) -> Response.Body {
        .init(asyncStream: { writer in
            do {
                for try await chunk in body {
                    try await writer.write(.buffer(ByteBuffer(bytes: chunk)))
                }
                try await writer.write(.end)
            } catch {
                try? await writer.write(.error(error))
            }
        })
    }
}
