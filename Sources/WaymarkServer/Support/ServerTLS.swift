import Foundation
import NIOSSL
import Vapor

/// HTTPS without a reverse proxy (QLT-2, PRK-19): the certificate chain and key from PEM files,
/// HTTP/2 offered by ALPN beside HTTP/1.1.
enum ServerTLS {
    static func apply(_ config: WaymarkConfiguration, to app: Application) throws {
        switch (config.tlsCertificatePath, config.tlsKeyPath) {
        case (nil, nil):
            return
        case (let certificate?, let key?):
            let chain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey
            do { chain = try NIOSSLCertificate.fromPEMFile(certificate) } catch {
                throw ConfigurationError("WAYMARK_TLS_CERTIFICATE: cannot read a PEM certificate from \(certificate) (\(error))")
            }
            guard !chain.isEmpty else { throw ConfigurationError("WAYMARK_TLS_CERTIFICATE: \(certificate) holds no certificate") }
            do { privateKey = try NIOSSLPrivateKey(file: key, format: .pem) } catch {
                throw ConfigurationError("WAYMARK_TLS_KEY: cannot read a PEM private key from \(key) (\(error))")
            }
            app.http.server.configuration.tlsConfiguration = .makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
            app.http.server.configuration.supportVersions = [.one, .two]
        default:
            throw ConfigurationError("HTTPS needs both a certificate and its key (--tls-certificate and --tls-key).")
        }
    }
}
