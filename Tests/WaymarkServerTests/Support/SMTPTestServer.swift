import Foundation

/// A real SMTP server for the tests: Python's aiosmtpd writing every message it receives into a
/// maildir (`pip install aiosmtpd`; CI installs it).
final class SMTPTestServer: @unchecked Sendable {
    let port: Int
    let maildir: URL
    private let process: Process

    init() throws {
        maildir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-mail-\(UUID().uuidString)")
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)",
                             "-c", "aiosmtpd.handlers.Mailbox", maildir.path]
        // Nothing of the test run's own input or output: a mail server left running must not
        // hold the pipe a CI job reads the run's output from.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while !Self.accepts(port: port) {
            if !process.isRunning {
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw TestFailure("aiosmtpd did not start (pip install aiosmtpd): \(message)")
            }
            if Date() > deadline { stop(); throw TestFailure("aiosmtpd did not listen on \(port)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    func stop() {
        // aiosmtpd ignores SIGTERM while its loop runs.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: maildir)
    }

    /// The raw messages received so far.
    func messages() -> [String] {
        let dir = maildir.appendingPathComponent("new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().compactMap { try? String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8) }
    }

    /// Waits until `count` messages have arrived.
    func waitForMessages(_ count: Int, timeout: TimeInterval = 10) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = messages()
            if all.count >= count { return all }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("expected \(count) messages, got \(messages().count)")
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
