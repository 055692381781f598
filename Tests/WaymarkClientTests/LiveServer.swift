import Foundation
import Vapor
import WaymarkClient
import WaymarkCore
@testable import WaymarkServer

/// A real server on a free port with the demo site, for the SDK to talk to.
struct LiveServer: Sendable {
    let app: Application
    let url: URL
    let gatewayKey: String
    let siteId: String
    let databasePath: String

    static func start(databasePath: String? = nil, configure: (inout WaymarkConfiguration) -> Void = { _ in }) async throws -> LiveServer {
        let path: String
        if let databasePath {
            path = databasePath
        } else {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-client-\(UUID().uuidString).sqlite").path
            try FileManager.default.copyItem(atPath: try await DemoTemplate.shared.path(), toPath: path)
        }
        var config = WaymarkConfiguration()
        config.database = .sqlite(path: path)
        config.port = 0
        config.runJobs = false
        config.logLevel = "warning"
        // bcrypt's lowest cost; the server tests check the default.
        config.passwordHashCost = 4
        config.weatherURL = nil
        configure(&config)
        let app = try await buildApplication(config)
        do {
            var loader = DemoLoader(store: app.waymark.store, now: { Date() }, logger: app.logger)
            loader.synthesizeActivity = false
            let siteId = try await loader.loadIfMissing()
            try await app.waymark.parking.reloadSensorIndex()
            let key = try await app.createGateway(name: "sdk-test")
            try await app.startup()
            let port = try boundPort(app)
            return LiveServer(app: app, url: URL(string: "http://127.0.0.1:\(port)")!, gatewayKey: key, siteId: siteId, databasePath: path)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Runs `body` against a new server, then stops it and removes its database, also when
    /// `body` throws.
    static func with(configure: (inout WaymarkConfiguration) -> Void = { _ in }, _ body: (LiveServer) async throws -> Void) async throws {
        let server = try await start(configure: configure)
        defer { server.removeDatabase() }
        do {
            try await body(server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    func stop() async throws {
        app.running?.stop()
        try await app.asyncShutdown()
    }

    func removeDatabase() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
    }
}

struct NoBoundPort: Error {}

private func boundPort(_ app: Application) throws -> Int {
    guard let port = app.http.server.shared.localAddress?.port else { throw NoBoundPort() }
    return port
}

/// The demo campus migrated and loaded once per test run; each server starts on a copy of it
/// (loading 8,000 spots took most of a server's start).
actor DemoTemplate {
    static let shared = DemoTemplate()
    private var made: Task<String, any Error>?

    func path() async throws -> String {
        if let made { return try await made.value }
        let task = Task { try await Self.make() }
        made = task
        return try await task.value
    }

    private static func make() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-client-template-\(UUID().uuidString).sqlite").path
        var config = WaymarkConfiguration()
        config.database = .sqlite(path: path)
        config.runJobs = false
        config.logLevel = "warning"
        let app = try await buildApplication(config)
        do {
            var loader = DemoLoader(store: app.waymark.store, now: { Date() }, logger: app.logger)
            loader.synthesizeActivity = false
            try await loader.loadIfMissing()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
        return path
    }
}
