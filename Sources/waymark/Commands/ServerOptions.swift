import ArgumentParser
import Foundation
import WaymarkServer

/// Flags shared by the commands that open the database. Flags win over `WAYMARK_*` variables,
/// which win over the defaults.
struct ServerOptions: ParsableArguments {
    @Option(help: "A SQLite file path or a postgres:// URL (env WAYMARK_DATABASE).")
    var database: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env WAYMARK_LOG_LEVEL).")
    var logLevel: String?

    func configuration() -> WaymarkConfiguration {
        var c = WaymarkConfiguration.fromEnvironment()
        if let database { c.database = .init(database) }
        if let logLevel { c.logLevel = logLevel }
        return c
    }
}
