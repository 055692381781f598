import FluentKit
import Foundation
import Logging
import NIOCore
import SQLKit
import WaymarkCore

/// The database as the server uses it: SQLKit for every query (one dialect-neutral path for
/// SQLite and PostgreSQL), Fluent only for pooling and migrations.
struct SQLStore: Sendable {
    let database: any FluentKit.Database
    /// The thread write transactions run on and, on SQLite, their one connection (see `WriterLane`).
    let lane: WriterLane

    init(database: any FluentKit.Database, lane: WriterLane) {
        self.database = database
        self.lane = lane
    }

    var sql: any SQLDatabase {
        let base = database as! any SQLDatabase
        return base.dialect.name == "postgresql" ? base : SessionPerStatement(base: base)
    }
    var isPostgres: Bool { sql.dialect.name == "postgresql" }

    /// Runs `body` in one write transaction on one connection, on the writer lane. SQLite gets
    /// `BEGIN IMMEDIATE` so that the write lock is taken up front: a deferred transaction that
    /// reads and then writes can fail with SQLITE_BUSY instead of waiting its turn.
    ///
    /// A transaction, once asked for, runs to its end in a task of its own even when the caller
    /// is cancelled: a cancelled statement would otherwise skip its ROLLBACK too and leave the
    /// connection inside a transaction that every later writer would fail to begin.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let lane = lane, database = database
        return try await Task(executorPreference: lane.executor) {
            if let writer = lane.sqlite {
                return try await lane.withTurn { try await Self.transaction(on: writer, begin: "BEGIN IMMEDIATE", body) }
            }
            return try await database.withConnection { connection in
                try await Self.transaction(on: connection as! any SQLDatabase, begin: "BEGIN", body)
            }
        }.value
    }

    private static func transaction<T: Sendable>(
        on sql: any SQLDatabase, begin: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await sql.raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(sql)
            try await sql.raw("COMMIT").run()
            return result
        } catch {
            try? await sql.raw("ROLLBACK").run()
            throw error
        }
    }
}

/// SQLite through the pool hands every row of a result to the event loop as a task of its own;
/// on a session (one connection for the statement) the rows are collected on the thread that
/// ran it. Reads of thousands of rows, like a busy lot's spot states or the live tailer's
/// catch-up after a batch, paid a task per row.
struct SessionPerStatement: SQLDatabase {
    let base: any SQLDatabase

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try await base.withSession { try await $0.execute(sql: query, onRow) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await base.withSession(closure)
    }
}

extension SQLRow {
    /// A nullable column of the hot paths. Asking for `T?` takes the drivers' generic
    /// fallback (a decoder object per value); asking for `T` after a null check does not.
    func decodeOptional<T: Decodable>(column: String, as type: T.Type) throws -> T? {
        try decodeNil(column: column) ? nil : decode(column: column, as: T.self)
    }
}

extension Date {
    /// See `Millis`: a reported `.923` is stored as 923.
    var millis: Int64 { Millis.since1970(self) }
    init(millis: Int64) { self.init(timeIntervalSince1970: Double(millis) / 1000) }
}

enum JSONColumn {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }()

    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

extension Array {
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
