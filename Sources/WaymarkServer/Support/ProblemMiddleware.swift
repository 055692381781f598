import Foundation
import HTTPTypes
import OpenAPIRuntime
import Vapor
import WaymarkAPI

/// Renders every error as `application/problem+json` (RFC 9457). It replaces Vapor's error
/// middleware so that no stack trace, SQL text or internal type name reaches a client, and so
/// that errors from the generated OpenAPI layer (bad JSON, wrong types, wrong content type)
/// become the 4xx they are rather than a 500.
struct ProblemMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            let problem = Self.problem(for: error)
            if problem.status >= 500 {
                // Only the underlying error: the OpenAPI layer's own description carries the
                // decoded input, which may hold passwords and tokens.
                let cause = (error as? ServerError)?.underlyingError ?? error
                let level: Logger.Level = problem.status == 503 ? .warning : .error
                request.logger.log(level: level, "request failed", metadata: [
                    "path": .string(request.url.path), "status": .stringConvertible(problem.status),
                    "error": .string(String(reflecting: cause)),
                ])
            }
            return Self.response(for: problem, path: request.url.path)
        }
    }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes]
        return e
    }()

    static func response(for problem: Problem, path: String) -> Response {
        var problem = problem
        problem.instance = path
        let body = (try? Self.encoder.encode(problem)) ?? Data()
        let response = Response(status: .init(statusCode: problem.status), body: .init(data: body))
        response.headers.replaceOrAdd(name: .contentType, value: "application/problem+json")
        if problem.status == 401 { response.headers.replaceOrAdd(name: .wwwAuthenticate, value: "Bearer") }
        if let seconds = problem.retryAfter { response.headers.replaceOrAdd(name: .retryAfter, value: String(seconds)) }
        return response
    }

    static func problem(for error: any Error) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let serverError as ServerError:
            if let problem = serverError.underlyingError as? Problem { return problem }
            if serverError.underlyingError is ConnectionPoolTimeoutError { return problem(for: serverError.underlyingError) }
            let status = Int(serverError.httpStatus.code)
            guard (400..<500).contains(status) else { return .internalError }
            return problem(status: status, detail: describe(serverError))
        case let abort as any AbortError:
            let status = Int(abort.status.code)
            guard (400..<500).contains(status) else { return .internalError }
            return problem(status: status, detail: abort.reason)
        case is DecodingError:
            return .badRequest("The body is not valid JSON for this operation.")
        case ConnectionPoolTimeoutError.connectionRequestTimeout:
            // Every database connection stayed busy for the whole pool timeout: overload,
            // which a client should retry, not a fault.
            var busy = Problem.unavailable("The server is busy; try again in a moment.")
            busy.retryAfter = 1
            return busy
        default:
            return .internalError
        }
    }

    private static func problem(status: Int, detail: String) -> Problem {
        switch status {
        case 400: .badRequest(detail)
        case 401: .unauthorized
        case 404: Problem(type: "not-found", title: "Not found", status: 404, detail: detail)
        case 405: Problem(type: "method-not-allowed", title: "Method not allowed", status: 405, detail: detail)
        case 406: Problem(type: "not-acceptable", title: "Not acceptable", status: 406, detail: detail)
        case 413: Problem(type: "too-large", title: "The request body is too large", status: 413, detail: detail)
        case 415: Problem(type: "unsupported-media-type", title: "Unsupported content type", status: 415, detail: detail)
        default: Problem(type: "client-error", title: "The request cannot be served", status: status, detail: detail)
        }
    }

    /// A decoding error names the field that failed, which helps the caller; everything else
    /// about the request stays out of the answer.
    private static func describe(_ error: ServerError) -> String {
        if let decoding = error.underlyingError as? DecodingError { return schemaMismatch(decoding).detail ?? "" }
        return error.causeDescription
    }

    /// A body that does not decode into the operation's schema.
    static func schemaMismatch(_ error: DecodingError) -> Problem {
        .badRequest("The body does not match the schema: " + describe(error))
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return p.isEmpty ? "the body" : String(p.drop(while: { $0 == "." }))
        }
        switch error {
        case .typeMismatch(_, let c): return "\(path(c)) has the wrong type."
        case .valueNotFound(_, let c): return "\(path(c)) must not be null."
        case .keyNotFound(let key, let c): return "\(path(c) == "the body" ? "" : path(c) + ".")\(key.stringValue) is required."
        case .dataCorrupted(let c):
            // The date transcoder is not told where the date was, so its error has no path.
            if c.debugDescription == WaymarkDateTranscoder.invalidDateMessage { return c.debugDescription }
            return c.codingPath.isEmpty ? "the body is not valid JSON." : "\(path(c)) is not valid."
        @unknown default: return "the body is not valid."
        }
    }
}

/// Rejects bodies over the configured size before they are read, and cuts off streamed bodies
/// (no Content-Length) at the same size.
struct BodyLimitMiddleware: ServerMiddleware {
    let maxBytes: Int
    /// Larger limits for a few operations, by operation id.
    var largeBodies: [String: Int] = [:]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, nil, metadata) }
        let limit = largeBodies[operationID] ?? maxBytes
        if case .known(let length) = body.length, length > limit {
            throw Problem.tooLarge(limit: limit)
        }
        let limited = HTTPBody(
            LimitedSequence(base: body, limit: limit),
            length: body.length,
            iterationBehavior: .single
        )
        return try await next(request, limited, metadata)
    }
}

private struct LimitedSequence: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let base: HTTPBody
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let limit: Int
        var seen = 0
        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard let chunk = try await base.next() else { return nil }
            seen += chunk.count
            if seen > limit { throw Problem.tooLarge(limit: limit) }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}
