import Crypto
import Foundation
import NIOPosix
import Vapor

/// bcrypt on a thread pool: one hash at cost 12 takes about a quarter of a second, which must
/// not stall the event loops or the cooperative pool that every other request shares.
struct PasswordHasher: Sendable {
    let cost: Int
    let threadPool: NIOThreadPool

    /// Verified against when the username does not exist, so that a wrong username costs as much
    /// time as a wrong password and timing does not tell which names are registered.
    private let decoy: String

    init(cost: Int, threadPool: NIOThreadPool) throws {
        guard (4...31).contains(cost) else { throw Problem.badRequest("bcrypt cost must be 4…31") }
        self.cost = cost
        self.threadPool = threadPool
        self.decoy = try Bcrypt.hash("decoy-password-never-matches", cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let input = Self.prepared(password)
        return try await threadPool.runIfActive { try Bcrypt.hash(input, cost: cost) }
    }

    /// bcrypt reads at most 72 bytes and stops at a NUL byte, so two long passwords with a common
    /// start, or "secret\0anything", would match each other. It gets the base64 of the
    /// password's SHA-256 instead: 44 bytes, no NUL, every byte of the password counts.
    static func prepared(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// False for a nil hash, after spending the same time as a real check.
    func verify(_ password: String, against stored: String?) async throws -> Bool {
        let target = stored ?? decoy
        let input = Self.prepared(password)
        let ok = try await threadPool.runIfActive { try Bcrypt.verify(input, created: target) }
        return ok && stored != nil
    }
}
