import Crypto
import Foundation

/// The server's identity towards push services (VAPID, RFC 8292): one P-256 key pair, made by
/// the server the first time it starts and kept in the database, so that every instance signs
/// with the same key and subscriptions outlive restarts. Browsers subscribe with its public
/// half (`applicationServerKey`).
struct VAPIDKey: Sendable {
    let privateKey: P256.Signing.PrivateKey

    /// The uncompressed public point in base64url: what browsers and the `k` parameter take.
    var publicKey: String { privateKey.publicKey.x963Representation.base64URL }

    /// The `Authorization` header for a push to an endpoint of `audience` (its origin).
    /// Push services refuse tokens that live longer than a day.
    func authorization(audience: String, subject: String, expires: Date) throws -> String {
        let header = Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8).base64URL
        let claims = try JSONSerialization.data(
            withJSONObject: ["aud": audience, "exp": Int(expires.timeIntervalSince1970), "sub": subject],
            options: [.sortedKeys, .withoutEscapingSlashes]).base64URL
        let input = header + "." + claims
        // JWS ES256 wants the raw r‖s form, not DER.
        let signature = try privateKey.signature(for: Data(input.utf8)).rawRepresentation.base64URL
        return "vapid t=\(input).\(signature), k=\(publicKey)"
    }

    /// The origin of a push endpoint, the token's audience.
    static func audience(of endpoint: URL) -> String? {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host?.lowercased() else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = endpoint.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}
