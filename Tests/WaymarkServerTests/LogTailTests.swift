import Foundation
import Logging
import NIOConcurrencyHelpers
import OpenAPIRuntime
import Testing
@testable import WaymarkServer

/// The one live machinery every stream uses (PRK-5, PRK-15): tested on a log kept in memory, so
/// that what it promises is checked apart from any one table.
@Suite("Live machinery (PRK-5, PRK-15)")
struct LogTailTests {
    /// An append-only log in memory: row n has id n and the topic it was appended with.
    final class MemoryLog: TailedLog {
        struct Row: Sendable { var id: Int64; var topic: String }
        private let rows = NIOLockedValueBox([Row]())

        func append(_ topics: String...) {
            rows.withLockedValue { r in for t in topics { r.append(Row(id: Int64(r.count + 1), topic: t)) } }
        }

        func newest() async throws -> Int64 { rows.withLockedValue { Int64($0.count) } }
        func rows(after: Int64, limit: Int) async throws -> [Row] {
            rows.withLockedValue { Array($0.dropFirst(Int(after)).prefix(limit)) }
        }
        func lastId(of row: Row) -> Int64 { row.id }
        func topic(of row: Row) -> String { row.topic }
        func frames(of row: Row) -> [LiveFrame] { [LiveFrame(id: row.id, bytes: Array("id: \(row.id)\n\n".utf8))] }
    }

    static func tail(_ log: MemoryLog, buffer: Int = 100) -> LogTail<MemoryLog> {
        LogTail(log, name: "test", pollInterval: .seconds(3600), readLimit: 2, subscriberBuffer: buffer, logger: Logger(label: "test"))
    }

    @Test("PRK-5 PRK-15 a subscriber gets its topic's rows after its cursor, in order, across reads of several pages")
    func topics() async throws {
        let log = MemoryLog()
        log.append("a", "b")
        let tail = Self.tail(log)
        try await tail.prime()
        let (cursor, frames) = tail.subscribe(topic: "a")
        #expect(cursor == 2, "starts at the end of the log")
        log.append("a", "b", "a", "a", "c")
        try await tail.pollOnce()
        #expect(tail.cursor == 7)
        var ids: [Int64] = []
        for await frame in frames {
            ids += Self.events(frame)
            if ids.count >= 3 { break }
        }
        #expect(ids == [3, 5, 6])
    }

    /// The events a frame carries: a poll's events of one topic go out as one batch.
    static func events(_ frame: LiveFrame) -> [Int64] { frame.starts.isEmpty ? [frame.id] : frame.starts.map(\.id) }

    @Test("PRK-5 a subscriber that falls a whole buffer behind is cut off, and the others go on")
    func overflow() async throws {
        let log = MemoryLog()
        // One batch per read of two rows: the second read's batch no longer fits.
        let tail = Self.tail(log, buffer: 1)
        try await tail.prime()
        let (_, slow) = tail.subscribe(topic: "busy")
        let (_, quiet) = tail.subscribe(topic: "quiet")
        log.append("busy", "busy", "busy", "quiet")
        try await tail.pollOnce()
        var got: [Int64] = []
        for await frame in slow { got += Self.events(frame) }
        #expect(got == [1, 2], "the stream ends after what fitted; its client resumes with Last-Event-ID")
        #expect(tail.subscriberCount == 1)
        var iterator = quiet.makeAsyncIterator()
        #expect(await iterator.next()?.id == 4)
    }

    @Test("PRK-5 PRK-15 a stream's body: the opening, what it catches up on, then live frames after the point it skips to; it ends when the tail stops")
    func eventStream() async throws {
        let log = MemoryLog()
        let tail = Self.tail(log)
        try await tail.prime()
        let (_, frames) = tail.subscribe(topic: "a")
        let body = EventStream.body(frames: frames, buffer: 100, skipThrough: 1) { [Array("caught up\n\n".utf8)] }
        log.append("a", "a")
        let running = Task { await tail.run() }
        tail.poke()
        var text = ""
        for try await chunk in body {
            text += String(decoding: chunk, as: UTF8.self)
            if text.contains("id: 2") { running.cancel() }
        }
        #expect(text == "retry: 2000\n: connected\n\ncaught up\n\nid: 2\n\n", "id 1 is skipped from its batch; the body ends after shutdown")
        await running.value
        #expect(tail.subscriberCount == 0)
    }
}
