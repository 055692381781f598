import AsyncHTTPClient
import Foundation
import NIOSSL
import Testing
import Vapor
@testable import WaymarkServer

@Suite("HTTPS without a reverse proxy (QLT-2)")
struct ServerTLSTests {
    /// A self-signed certificate for 127.0.0.1, made with the system's openssl for this test only.
    static func selfSigned(in dir: URL) throws -> (certificate: String, key: String) {
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                       "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                       "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestFailure("openssl could not make a certificate") }
        return (cert, key)
    }

    @Test("QLT-2 serve --tls-certificate/--tls-key answers HTTPS with HTTP/2 where the client offers it and HTTP/1.1 where not; half a pair refuses to start")
    func https() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (cert, key) = try Self.selfSigned(in: dir)

        var config = WaymarkConfiguration()
        config.database = .sqlite(path: dir.appendingPathComponent("tls.sqlite").path)
        config.port = 0
        config.host = "127.0.0.1"
        config.runJobs = false
        config.logLevel = "warning"
        config.weatherURL = nil
        config.tlsCertificatePath = cert
        config.tlsKeyPath = key
        let app = try await buildApplication(config)
        do {
            try await app.startup()
            let port = try #require(app.http.server.shared.localAddress?.port)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(cert))
            for (version, expected) in [(HTTPClient.Configuration.HTTPVersion.automatic, HTTPVersion.http2), (.http1Only, .http1_1)] {
                var clientConfig = HTTPClient.Configuration(tlsConfiguration: tls)
                clientConfig.httpVersion = version
                let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfig)
                do {
                    let response = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/health"), timeout: .seconds(10))
                    #expect(response.status == .ok && response.version == expected, "\(response.status) \(response.version)")
                    let sites = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/v1/sites"), timeout: .seconds(10))
                    #expect(sites.status == .ok)
                } catch {
                    try? await client.shutdown()
                    throw error
                }
                try await client.shutdown()
            }
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()

        var half = config
        half.tlsKeyPath = nil
        half.database = .sqlite(path: dir.appendingPathComponent("half.sqlite").path)
        await #expect(throws: ConfigurationError.self) { let app = try await buildApplication(half); try? await app.asyncShutdown() }
    }
}
