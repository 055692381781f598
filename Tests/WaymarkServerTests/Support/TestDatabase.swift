import FluentKit
import FluentPostgresDriver
import Foundation
import Vapor
import WaymarkCore
@testable import WaymarkServer

/// The databases every server test runs against: SQLite always, and PostgreSQL when
/// WAYMARK_TEST_POSTGRES_URL names a server (CI starts one). Each test gets a database of its
/// own, copied from a template that was migrated and loaded with the test's site once per run.
enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    var description: String { rawValue }

    static var available: [TestDatabase] {
        ProcessInfo.processInfo.environment["WAYMARK_TEST_POSTGRES_URL"].map { _ in [.sqlite, .postgres] } ?? [.sqlite]
    }

    typealias Made = (location: WaymarkConfiguration.DatabaseLocation, drop: @Sendable () async -> Void)

    /// A new, empty database and a way to drop it.
    func make() async throws -> Made {
        let name = Self.uniqueName("waymark_test")
        switch self {
        case .sqlite:
            let path = Self.sqlitePath(name)
            return (.sqlite(path: path), { Self.removeSQLite(path) })
        case .postgres:
            try await Self.adminExecute("CREATE DATABASE \(name)")
            return (Self.postgresLocation(name), { try? await Self.adminExecute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") })
        }
    }

    /// A new database holding `site` as loaded at `loadedAt` by a migrated application: a copy
    /// of this run's template for that site (a file copy on SQLite, `CREATE DATABASE … TEMPLATE`
    /// on PostgreSQL), made on first use.
    func make(site: SitePlan, loadedAt: Date) async throws -> Made {
        let template = try await TemplateDatabases.shared.template(self, site: site, loadedAt: loadedAt)
        let name = Self.uniqueName("waymark_test")
        switch self {
        case .sqlite:
            let path = Self.sqlitePath(name)
            try FileManager.default.copyItem(atPath: template, toPath: path)
            return (.sqlite(path: path), { Self.removeSQLite(path) })
        case .postgres:
            try await Self.copyPostgres(template: template, to: name)
            return (Self.postgresLocation(name), { try? await Self.adminExecute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") })
        }
    }

    /// A name that is also a valid unquoted SQL identifier, with the time it was made in it
    /// so that templates left by an interrupted run can be recognised and removed.
    static func uniqueName(_ prefix: String) -> String {
        let random = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        return "\(prefix)_\(Int(Date().timeIntervalSince1970))_\(random)"
    }

    static func sqlitePath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name).sqlite").path
    }

    static func removeSQLite(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func postgresLocation(_ name: String) -> WaymarkConfiguration.DatabaseLocation {
        var components = URLComponents(string: adminURL)!
        components.path = "/\(name)"
        return .postgres(url: components.string!)
    }

    static var adminURL: String { ProcessInfo.processInfo.environment["WAYMARK_TEST_POSTGRES_URL"]! }

    /// PostgreSQL refuses to copy a database while anyone is connected to it; the template's
    /// own application has just closed its connections, which the server notices a moment later.
    private static func copyPostgres(template: String, to name: String) async throws {
        var attempt = 0
        while true {
            do {
                return try await adminExecute("CREATE DATABASE \(name) TEMPLATE \(template)")
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55006" && attempt < 100 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    static func adminExecute(_ statement: String) async throws {
        try await withAdminConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test-admin"))
        }
    }

    static func adminRows(_ statement: String) async throws -> [String] {
        try await withAdminConnection { connection in
            var names: [String] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test-admin")) {
                names.append(try row.decode(String.self))
            }
            return names
        }
    }

    private static func withAdminConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let config = try SQLPostgresConfiguration(url: adminURL)
        let connection = try await PostgresConnection.connect(
            configuration: config.coreConfiguration, id: 1, logger: Logger(label: "test-admin"))
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// This run's templates, one per database kind, site and load time; each is made once, by the
/// first test that asks, while the others wait for it.
actor TemplateDatabases {
    static let shared = TemplateDatabases()

    private var templates: [String: Task<String, any Error>] = [:]
    private var swept = false

    /// The template's SQLite path or PostgreSQL database name.
    func template(_ kind: TestDatabase, site: SitePlan, loadedAt: Date) async throws -> String {
        let key = "\(kind) \(loadedAt.timeIntervalSince1970) \(String(reflecting: site))"
        if let made = templates[key] { return try await made.value }
        if !swept {
            swept = true
            await Self.sweepLeftovers(kind)
        }
        let task = Task { try await Self.makeTemplate(kind, site: site, loadedAt: loadedAt) }
        templates[key] = task
        return try await task.value
    }

    private static func makeTemplate(_ kind: TestDatabase, site: SitePlan, loadedAt: Date) async throws -> String {
        let (location, drop) = try await kind.make()
        var config = WaymarkConfiguration()
        config.database = location
        config.runJobs = false
        config.logLevel = "warning"
        do {
            let app = try await buildApplication(config, now: { loadedAt })
            do {
                var loader = DemoLoader(store: app.waymark.store, now: { loadedAt }, logger: app.logger)
                loader.plan = site
                loader.synthesizeActivity = false
                try await loader.loadIfMissing()
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
        } catch {
            await drop()
            throw error
        }
        switch location {
        case .sqlite(let path):
            // Closing the last connection folds the write-ahead log into the file; a copy of
            // the file alone is then the whole database.
            if let wal = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int, wal > 0 {
                throw TemplateError(description: "\(path)-wal still holds \(wal) bytes after the template's application stopped")
            }
            return path
        case .postgres(let url):
            return String(URL(string: url)!.path.dropFirst())
        }
    }

    /// Templates older than a day were left by runs that were stopped before they could drop them.
    private static func sweepLeftovers(_ kind: TestDatabase) async {
        let cutoff = Int(Date().timeIntervalSince1970) - 86_400
        func isOld(_ name: String) -> Bool {
            let parts = name.split(separator: "_")
            return parts.count >= 4 && (Int(parts[2]).map { $0 < cutoff } ?? false)
        }
        switch kind {
        case .sqlite:
            let dir = FileManager.default.temporaryDirectory.path
            for file in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where file.hasPrefix("waymark_test_") && isOld(file) {
                try? FileManager.default.removeItem(atPath: dir + "/" + file)
            }
        case .postgres:
            let names = (try? await TestDatabase.adminRows("SELECT datname::text FROM pg_database WHERE datname LIKE 'waymark_test_%'")) ?? []
            for name in names where isOld(name) {
                try? await TestDatabase.adminExecute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        }
    }
}

struct TemplateError: Error, CustomStringConvertible {
    let description: String
}
