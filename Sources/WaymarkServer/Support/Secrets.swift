import Crypto
import Foundation

/// Random secrets handed to clients once and stored only as SHA-256. They carry 256 bits of
/// randomness, so a fast hash is enough: nobody can guess a preimage, and each request is
/// checked without a slow KDF.
enum Secrets {
    /// `prefix` + 43 base64url characters. The prefix tells a leaked secret's kind at a glance
    /// (and lets secret scanners find it).
    static func make(prefix: String) -> String {
        prefix + randomBytes(32).base64URL
    }

    /// Bytes from the system's secure generator.
    static func randomBytes(_ count: Int) -> Data {
        var rng = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &rng) })
    }

    /// Every gateway request and every signed-in request hashes its bearer secret, so the hex
    /// is written by hand: `String(format:)` per byte cost more than the SHA-256 itself.
    static func hash(_ secret: String) -> String {
        hex(SHA256.hash(data: Array(secret.utf8)))
    }

    /// Lower-case hex of the bytes.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A uniformly random 6-digit code, "000000"…"999999".
    static func sixDigitCode() -> String {
        var rng = SystemRandomNumberGenerator()
        let n = Int.random(in: 0..<1_000_000, using: &rng)
        let s = String(n)
        return String(repeating: "0", count: 6 - s.count) + s
    }

    /// Compares without an early exit, so the time taken says nothing about where they differ.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
