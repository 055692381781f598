import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
@_exported import WaymarkAPI
import WaymarkCore

/// The Waymark SDK: what a native app (or the gateway emulator) uses to talk to a server.
///
/// Reads that a person needs while walking to the car (occupancy, spot states) keep their last
/// good answer on disk and return it, with its age, when the server cannot be reached; writes
/// made then wait in `outbox` (see `send(_:)`).
public final class WaymarkClient: Sendable {
    public let serverURL: URL
    let client: Client
    /// The live stream needs a transport whose deadline outlasts a single request.
    let streamingClient: Client
    let cache: ResponseCache?
    let now: @Sendable () -> Date
    /// The session token of the signed-in account or device identity, kept where the app chose.
    public let tokenStore: (any TokenStore)?
    /// Writes made offline, waiting to be sent (PRK-19); on disk in `cacheDirectory` when given.
    public let outbox: Outbox

    /// - Parameters:
    ///   - cacheDirectory: where last good responses and the outbox are kept; nil keeps them in memory only.
    ///   - gatewayKey: the bearer secret sent with gateway operations.
    ///   - tokenStore: where the session token lives; nil for clients that never sign in.
    public init(
        serverURL: URL,
        cacheDirectory: URL? = nil,
        gatewayKey: String? = nil,
        tokenStore: (any TokenStore)? = nil,
        httpClient: HTTPClient = WaymarkClient.defaultHTTPClient,
        requestTimeout: Duration = .seconds(20),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.serverURL = serverURL
        self.now = now
        self.cache = cacheDirectory.map(ResponseCache.init(directory:))
        self.tokenStore = tokenStore
        self.outbox = Outbox(file: cacheDirectory?.appendingPathComponent("outbox.json"))
        let middlewares: [any ClientMiddleware] = [
            ProblemMiddleware(), BearerMiddleware(gatewayKey: gatewayKey), SessionMiddleware(store: tokenStore),
        ]
        let seconds = requestTimeout.components.seconds
        self.client = Client(
            serverURL: serverURL,
            configuration: .waymark,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .seconds(max(1, seconds)))),
            middlewares: middlewares)
        self.streamingClient = Client(
            serverURL: serverURL,
            configuration: .waymark,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .hours(24))),
            middlewares: middlewares)
    }
}

extension WaymarkClient {
    /// Like `HTTPClient.shared`, but with a decompression limit by size rather than ratio: spot
    /// states of a quiet lot ("ffff…") and ingest outcomes compress far beyond a ratio limit.
    public static let defaultHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.decompression = .enabled(limit: .size(64 << 20))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

/// A value with where it came from: fresh from the server, or the last good copy on disk.
public struct Cached<Value: Sendable>: Sendable {
    public var value: Value
    public var fetchedAt: Date
    public var isFromCache: Bool

    public func age(now: Date = Date()) -> TimeInterval { now.timeIntervalSince(fetchedAt) }
}

public enum WaymarkClientError: Error, Sendable, CustomStringConvertible {
    /// The server answered with a problem (RFC 9457).
    case problem(status: Int, type: String, title: String, detail: String?)
    /// The server answered with a status the API does not document.
    case unexpectedStatus(Int)
    /// The server could not be reached and nothing is cached.
    case unreachable(String)

    public var description: String {
        switch self {
        case let .problem(status, _, title, detail): "\(status) \(title)" + (detail.map { ": \($0)" } ?? "")
        case let .unexpectedStatus(status): "unexpected HTTP status \(status)"
        case let .unreachable(why): "server unreachable: \(why)"
        }
    }

    /// The last part of a problem's type URI ("username-taken"), or nil for other errors.
    public var problemKind: String? {
        guard case let .problem(_, type, _, _) = self else { return nil }
        return type.split(separator: "/").last.map(String.init)
    }

    public var status: Int? {
        switch self {
        case let .problem(status, _, _, _): status
        case let .unexpectedStatus(status): status
        case .unreachable: nil
        }
    }

    static func from(_ problem: Components.Schemas.Problem) -> Self {
        .problem(status: problem.status, type: problem._type, title: problem.title, detail: problem.detail)
    }
}

/// Adds the gateway secret to gateway operations only, so it is never sent where it is not needed.
struct BearerMiddleware: ClientMiddleware {
    let gatewayKey: String?
    static let gatewayOperations: Set<String> = ["ingestSensorEvents", "ingestThingsStackUplink"]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let key = gatewayKey, Self.gatewayOperations.contains(operationID) {
            request.headerFields[.authorization] = "Bearer \(key)"
        }
        return try await next(request, body, baseURL)
    }
}
