import FluentKit
import FluentPostgresDriver
import Foundation
import Vapor
@testable import WaymarkServer

/// The databases every server test runs against: a fresh SQLite file always, and a fresh
/// PostgreSQL database when WAYMARK_TEST_POSTGRES_URL names a server (CI starts one).
enum TestDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    var description: String { rawValue }

    static var available: [TestDatabase] {
        ProcessInfo.processInfo.environment["WAYMARK_TEST_POSTGRES_URL"].map { _ in [.sqlite, .postgres] } ?? [.sqlite]
    }

    /// A new, empty database and a way to drop it.
    func make() async throws -> (location: WaymarkConfiguration.DatabaseLocation, drop: @Sendable () async -> Void) {
        let name = "waymark_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        switch self {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).sqlite").path
            return (.sqlite(path: path), {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            })
        case .postgres:
            let admin = ProcessInfo.processInfo.environment["WAYMARK_TEST_POSTGRES_URL"]!
            try await Self.adminExecute("CREATE DATABASE \(name)", url: admin)
            var components = URLComponents(string: admin)!
            components.path = "/\(name)"
            return (.postgres(url: components.string!), {
                try? await Self.adminExecute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", url: admin)
            })
        }
    }

    private static func adminExecute(_ statement: String, url: String) async throws {
        let config = try SQLPostgresConfiguration(url: url)
        let connection = try await PostgresConnection.connect(
            configuration: config.coreConfiguration, id: 1, logger: Logger(label: "test-admin"))
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test-admin"))
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
