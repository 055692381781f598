import Foundation

/// Where the SDK keeps the session token between launches. The app chooses: the Keychain on
/// Apple platforms (implement this protocol over it), a file, or memory only.
public protocol TokenStore: Sendable {
    func load() -> String?
    /// nil removes the token (sign out, account deleted).
    func save(_ token: String?)
}

/// Forgets the token when the process ends.
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var token: String?

    public init(_ token: String? = nil) { self.token = token }

    public func load() -> String? { lock.withLock { token } }
    public func save(_ token: String?) { lock.withLock { self.token = token } }
}

/// A file readable by its owner only.
public final class FileTokenStore: TokenStore, @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()

    public init(url: URL) { self.url = url }

    public func load() -> String? {
        lock.withLock {
            (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        }
    }

    public func save(_ token: String?) {
        lock.withLock {
            guard let token else {
                try? FileManager.default.removeItem(at: url)
                return
            }
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: url.path, contents: Data(token.utf8), attributes: [.posixPermissions: 0o600])
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
