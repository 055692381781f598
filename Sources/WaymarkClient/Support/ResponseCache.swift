import Foundation

/// Last good responses on disk, one JSON file per key (dates kept exactly, as reference-date
/// seconds), written atomically so that a crash
/// mid-write leaves the previous copy.
struct ResponseCache: Sendable {
    let directory: URL

    private struct Entry<Value: Codable>: Codable {
        var fetchedAt: Date
        var value: Value
    }

    private func url(_ key: String) -> URL {
        let safe = key.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        return directory.appendingPathComponent(String(safe) + ".json")
    }

    func store<Value: Codable>(_ value: Value, key: String, fetchedAt: Date) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            try encoder.encode(Entry(fetchedAt: fetchedAt, value: value)).write(to: url(key), options: .atomic)
        } catch {
            // A cache that cannot be written only costs the offline fallback.
        }
    }

    func load<Value: Codable>(_ type: Value.Type, key: String) -> (value: Value, fetchedAt: Date)? {
        guard let data = try? Data(contentsOf: url(key)) else { return nil }
        let decoder = JSONDecoder()
        guard let entry = try? decoder.decode(Entry<Value>.self, from: data) else { return nil }
        return (entry.value, entry.fetchedAt)
    }

    func remove(key: String) {
        try? FileManager.default.removeItem(at: url(key))
    }
}
