import Foundation
import OpenAPIRuntime

/// One Server-Sent Event as a test reads it.
struct TestEvent {
    var event: String
    var id: String?
    var json: [String: Any]
}

enum TestEventStream {
    /// Reads a stream's events (comments and events without JSON data are skipped) until `count`
    /// of them arrived; a test's time limit stops it if they never do.
    static func read(_ body: HTTPBody, count: Int) async throws -> [TestEvent] {
        var got: [TestEvent] = []
        var text = ""
        for try await chunk in body {
            text += String(decoding: chunk, as: UTF8.self)
            while let end = text.range(of: "\n\n") {
                let frame = String(text[..<end.lowerBound])
                text = String(text[end.upperBound...])
                let lines = frame.split(separator: "\n")
                guard let event = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                      let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                      let json = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { continue }
                got.append(TestEvent(event: String(event), id: lines.first(where: { $0.hasPrefix("id: ") }).map { String($0.dropFirst(4)) }, json: json))
            }
            if got.count >= count { break }
        }
        return got
    }
}
