import ArgumentParser
import Foundation
import Vapor
import WaymarkServer

/// Flags shared by the commands that open the database. Flags win over `WAYMARK_*` variables,
/// which win over the defaults.
struct ServerOptions: ParsableArguments {
    @ArgumentParser.Option(help: "A SQLite file path or a postgres:// URL (env WAYMARK_DATABASE).")
    var database: String?

    @ArgumentParser.Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env WAYMARK_LOG_LEVEL).")
    var logLevel: String?

    func configuration() -> WaymarkConfiguration {
        var c = WaymarkConfiguration.fromEnvironment()
        if let database { c.database = .init(database) }
        if let logLevel { c.logLevel = logLevel }
        return c
    }

    /// For the one-shot commands: an application with migrations run and no background jobs,
    /// shut down after `body` whether it succeeds or not.
    func withApplication<T: Sendable>(
        adjusting adjust: (inout WaymarkConfiguration) -> Void = { _ in },
        _ body: (Application) async throws -> T
    ) async throws -> T {
        var config = configuration()
        config.runJobs = false
        adjust(&config)
        let app = try await buildApplication(config)
        do {
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
