import Crypto
import Foundation

/// Checks the processor's `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
/// "<t>.<body>" keyed with the endpoint's signing secret>` (several `v1` while secrets roll).
/// A signature older or newer than five minutes is refused, so a captured webhook cannot be
/// replayed later; one replayed within them is caught by the event's id (`card_events`).
enum CardWebhookSignature {
    static let tolerance: TimeInterval = 300

    enum Failure: Error, Equatable, CustomStringConvertible {
        case missing
        case malformed
        case stale
        case mismatch

        var description: String {
            switch self {
            case .missing: "The Stripe-Signature header is missing."
            case .malformed: "The Stripe-Signature header has no timestamp or no v1 signature."
            case .stale: "The signature's timestamp is more than five minutes from now."
            case .mismatch: "No v1 signature matches the body."
            }
        }
    }

    static func verify(payload: Data, header: String?, secret: String, now: Date) throws(Failure) {
        guard let header, !header.isEmpty else { throw .missing }
        var timestamp: Int?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int(pair[1]) } else if pair[0] == "v1" { signatures.append(pair[1].lowercased()) }
        }
        guard let timestamp, !signatures.isEmpty else { throw .malformed }
        guard abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= tolerance else { throw .stale }
        let expected = sign(payload: payload, timestamp: timestamp, secret: secret)
        guard signatures.contains(where: { constantTimeEqual($0, expected) }) else { throw .mismatch }
    }

    /// The hex signature of `payload` at `timestamp`: what the processor sends, and what tests sign with.
    static func sign(payload: Data, timestamp: Int, secret: String) -> String {
        var signed = Data("\(timestamp).".utf8)
        signed.append(payload)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
