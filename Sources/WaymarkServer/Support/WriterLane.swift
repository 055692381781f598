import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteKit
import SQLKit

/// A thread of its own for write transactions: where a writer's code runs between statements
/// and, on SQLite, the one writer connection's blocking calls.
///
/// A transaction is a chain of statements, and the next one can only start when the previous
/// one's result has reached the code that sends it. On the shared threads each result waited in
/// line behind request handling, and taking the connection from a pool cost several more such
/// trips: together more than the statements themselves for a group commit of a few dozen
/// events, and the commit is what every ingest request waits for. On SQLite the writer's code
/// runs on the very thread that makes SQLite's calls, so a statement's result reaches the code
/// that sends the next one without waking anything; on PostgreSQL it runs on an event loop of
/// its own. Writers take turns in the order they came.
final class WriterLane: Sendable {
    /// Run a task with this preference and its code, including the nonisolated async
    /// functions it calls and the default actors it enters, runs on the lane's thread.
    let executor: any TaskExecutor
    private let group: MultiThreadedEventLoopGroup
    private let threadPool: NIOThreadPool
    private let connection: SQLiteConnection?
    private let turns = Turns()

    /// `sqlitePath`: the file whose one writer connection lives on the lane (nil: PostgreSQL,
    /// whose connections stay in the application's pool).
    init(sqlitePath: String?, logger: Logger) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        do {
            if let sqlitePath {
                let connection = try await SQLiteConnection.open(storage: .file(path: sqlitePath), threadPool: threadPool, logger: logger, on: group.next())
                // What the driver's pool does for every connection it opens.
                _ = try await connection.query("PRAGMA foreign_keys = ON")
                // A commit's multi-row statements need a statement journal, and by default each
                // one opened, and closed again, a temporary file.
                _ = try await connection.query("PRAGMA temp_store = MEMORY")
                self.connection = connection
            } else {
                connection = nil
            }
        } catch {
            try? await threadPool.shutdownGracefully()
            try? await group.shutdownGracefully()
            throw error
        }
        self.group = group
        self.threadPool = threadPool
        executor = sqlitePath == nil ? EventLoopTaskExecutor(loop: group.next()) : ThreadPoolTaskExecutor(pool: threadPool)
    }

    /// The SQLite writer connection, when the lane has one. Use it only inside `withTurn`.
    var sqlite: (any SQLDatabase)? { connection?.sql(queryLogLevel: nil) }

    /// Runs `body` when the writers before it have finished, one at a time in arrival order.
    func withTurn<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await turns.take()
        defer { turns.pass() }
        return try await body()
    }

    func shutdown() async {
        try? await connection?.close()
        try? await threadPool.shutdownGracefully()
        try? await group.shutdownGracefully()
    }

    /// A first-come, first-served lock for async code.
    private final class Turns: Sendable {
        private struct State {
            var busy = false
            /// Few at a time: writers that found the lane busy.
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        private let state = NIOLockedValueBox(State())

        func take() async {
            await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
                let now: Bool = state.withLockedValue { s in
                    if s.busy { s.waiting.append(turn); return false }
                    s.busy = true
                    return true
                }
                if now { turn.resume() }
            }
        }

        func pass() {
            let next: CheckedContinuation<Void, Never>? = state.withLockedValue { s in
                if s.waiting.isEmpty { s.busy = false; return nil }
                return s.waiting.removeFirst()
            }
            next?.resume()
        }
    }
}

/// Runs a task's jobs on one event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs a task's jobs on a thread pool; with one thread, the thread whose blocking calls the
/// task waits for, so that the task goes on where the call's result is, on a thread that is
/// already awake.
final class ThreadPoolTaskExecutor: TaskExecutor {
    let pool: NIOThreadPool

    init(pool: NIOThreadPool) { self.pool = pool }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
