import Foundation
import NIOConcurrencyHelpers
import Vapor

/// A local HTTP server that answers with prepared responses of a third party we cannot reach in
/// tests (Open-Meteo, OSRM, the card processor), counting the requests and remembering their paths and queries.
final class RecordedHTTPServer: Sendable {
    /// An answer; `delay` holds it back, for a service that is too slow.
    struct Recorded: Sendable { var status: HTTPStatus; var body: Data; var delay: Duration = .zero; var contentType = "application/json" }

    private let app: Application
    private let answer = NIOLockedValueBox<Recorded>(Recorded(status: .ok, body: Data()))
    private let answers = NIOLockedValueBox<[String: Recorded]>([:])
    private let queries = NIOLockedValueBox<[String]>([])
    private let paths = NIOLockedValueBox<[String]>([])
    private let posts = NIOLockedValueBox<[Posted]>([])
    let port: Int

    var url: String { "http://127.0.0.1:\(port)" }
    var requests: [String] { queries.withLockedValue { $0 } }
    /// The requests' paths, in the order they came.
    var requestPaths: [String] { paths.withLockedValue { $0 } }

    /// A POST as it came: its path, the headers a third party reads, and its body.
    struct Posted: Sendable { var path: String; var headers: [String: String]; var body: String }
    var posted: [Posted] { posts.withLockedValue { $0 } }

    /// Answers every request with `r` from now on, but those to a path given its own answer.
    func respond(_ r: Recorded) { answer.withLockedValue { $0 = r } }
    /// Answers requests to exactly `path` with `r` from now on.
    func respond(_ r: Recorded, path: String) { answers.withLockedValue { $0[path] = r } }

    private init(app: Application, port: Int) { self.app = app; self.port = port }

    static func start(path: String) async throws -> RecordedHTTPServer {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .warning
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        let box = NIOLockedValueBox<RecordedHTTPServer?>(nil)
        let root = PathComponent(stringLiteral: path.split(separator: "/").first.map(String.init) ?? "")
        app.on(.POST, root, .catchall, body: .collect(maxSize: "1mb")) { req -> Response in
            guard let server = box.withLockedValue({ $0 }) else { return Response(status: .serviceUnavailable) }
            var headers: [String: String] = [:]
            for (name, value) in req.headers { headers[name.lowercased()] = value }
            let body = req.body.data.map { String(buffer: $0) } ?? ""
            server.posts.withLockedValue { $0.append(Posted(path: req.url.path, headers: headers, body: body)) }
            server.paths.withLockedValue { $0.append(req.url.path) }
            let r = server.answers.withLockedValue { $0[req.url.path] } ?? server.answer.withLockedValue { $0 }
            return Response(status: r.status, headers: ["Content-Type": r.contentType], body: .init(data: r.body))
        }
        app.get(root, .catchall) { req -> Response in
            guard let server = box.withLockedValue({ $0 }) else { return Response(status: .serviceUnavailable) }
            server.queries.withLockedValue { $0.append(req.url.query ?? "") }
            server.paths.withLockedValue { $0.append(req.url.path) }
            let r = server.answers.withLockedValue { $0[req.url.path] } ?? server.answer.withLockedValue { $0 }
            if r.delay > .zero { try await Task.sleep(for: r.delay) }
            return Response(status: r.status, headers: ["Content-Type": r.contentType], body: .init(data: r.body))
        }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        guard let port = app.http.server.shared.localAddress?.port else { throw Abort(.internalServerError) }
        let server = RecordedHTTPServer(app: app, port: port)
        box.withLockedValue { $0 = server }
        return server
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }
}
