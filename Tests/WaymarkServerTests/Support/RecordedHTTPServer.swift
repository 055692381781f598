import Foundation
import NIOConcurrencyHelpers
import Vapor

/// A local HTTP server that answers with recorded responses of a third party we cannot reach in
/// tests (Open-Meteo), counting the requests and remembering their queries.
final class RecordedHTTPServer: Sendable {
    struct Recorded: Sendable { var status: HTTPStatus; var body: Data }

    private let app: Application
    private let answer = NIOLockedValueBox<Recorded>(Recorded(status: .ok, body: Data()))
    private let queries = NIOLockedValueBox<[String]>([])
    let port: Int

    var url: String { "http://127.0.0.1:\(port)" }
    var requests: [String] { queries.withLockedValue { $0 } }

    /// Answers every request with `r` from now on.
    func respond(_ r: Recorded) { answer.withLockedValue { $0 = r } }

    private init(app: Application, port: Int) { self.app = app; self.port = port }

    static func start(path: String) async throws -> RecordedHTTPServer {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .warning
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        let box = NIOLockedValueBox<RecordedHTTPServer?>(nil)
        app.get(PathComponent(stringLiteral: path.split(separator: "/").first.map(String.init) ?? ""), .catchall) { req -> Response in
            guard let server = box.withLockedValue({ $0 }) else { return Response(status: .serviceUnavailable) }
            server.queries.withLockedValue { $0.append(req.url.query ?? "") }
            let r = server.answer.withLockedValue { $0 }
            return Response(status: r.status, headers: ["Content-Type": "application/json"], body: .init(data: r.body))
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
