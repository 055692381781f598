import Foundation
import WaymarkClient
@testable import WaymarkServer

/// An app whose server goes away and comes back (PRK-19). Its launches share one outbox file
/// and one session, as a phone's do; the server comes back on the same address and database.
struct OfflineApp: Sendable {
    let cache: URL
    let tokens = InMemoryTokenStore()
    let configure: @Sendable (inout WaymarkConfiguration) -> Void
    let server: LiveServer

    static func start(_ label: String, configure: @escaping @Sendable (inout WaymarkConfiguration) -> Void) async throws -> OfflineApp {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-\(label)-\(UUID().uuidString)")
        return OfflineApp(cache: cache, configure: configure, server: try await LiveServer.start(configure: configure))
    }

    /// A launch of the app. A generous timeout while the server is up (the suite runs many
    /// servers at once); a short one while it is down, because the HTTP client keeps retrying
    /// a refused connection until the deadline.
    func launch(online: Bool) -> WaymarkClient {
        WaymarkClient(serverURL: server.url, cacheDirectory: cache, tokenStore: tokens, requestTimeout: .seconds(online ? 15 : 2))
    }

    /// Runs `body` while the server is up, then stops the server, also when `body` throws.
    func beforeGoingDown<T>(_ body: () async throws -> T) async throws -> T {
        do {
            let result = try await body()
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Starts the server again where it was, runs `body`, then stops it, also when `body` throws.
    func whenBack(_ body: () async throws -> Void) async throws {
        let port = server.url.port
        let back = try await LiveServer.start(databasePath: server.databasePath) { config in
            configure(&config)
            if let port { config.port = port }
        }
        do {
            try await body()
        } catch {
            try? await back.stop()
            throw error
        }
        try await back.stop()
    }

    /// The outbox file and the database.
    func remove() {
        try? FileManager.default.removeItem(at: cache)
        server.removeDatabase()
    }
}
