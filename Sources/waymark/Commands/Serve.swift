import ArgumentParser
import Foundation
import Vapor
import WaymarkClient
import WaymarkServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (migrates the database first).")

    @OptionGroup var options: ServerOptions

    @ArgumentParser.Option(help: "Address to listen on (env WAYMARK_HOST).")
    var host: String?

    @ArgumentParser.Option(help: "Port to listen on; 0 picks a free one (env WAYMARK_PORT).")
    var port: Int?

    @ArgumentParser.Flag(help: "Load the demo data (the CSU Fullerton site, CSUSB venues, trails, Milan transit) where it is not there yet (env WAYMARK_DEMO).")
    var demo = false

    @ArgumentParser.Flag(inversion: .prefixedNo,
                         help: "Credit wallet top-ups at once without charging anyone; on with --demo (env WAYMARK_DEMO_PAYMENTS).")
    var demoPayments: Bool?

    @ArgumentParser.Flag(inversion: .prefixedNo,
                         help: "Issue demo transit tickets, marked not valid for travel; on with --demo (env WAYMARK_DEMO_TICKETS).")
    var demoTickets: Bool?

    @ArgumentParser.Flag(help: "Run the sensor gateway emulator against this server so the map moves (env WAYMARK_SIMULATE).")
    var simulate = false

    @ArgumentParser.Option(help: "Simulated seconds per real second for --simulate (env WAYMARK_SIMULATION_SPEED).")
    var speed: Double?

    @ArgumentParser.Option(help: "Serve the web app from this directory (env WAYMARK_WEB_DIRECTORY).")
    var web: String?

    @ArgumentParser.Option(help: "Serve HTTPS with this PEM certificate chain; needs --tls-key (env WAYMARK_TLS_CERTIFICATE).")
    var tlsCertificate: String?

    @ArgumentParser.Option(help: "The certificate's PEM private key (env WAYMARK_TLS_KEY).")
    var tlsKey: String?

    func run() async throws {
        var config = options.configuration()
        if let host { config.host = host }
        if let port { config.port = port }
        if demo { config.loadDemo = true }
        if let demoPayments { config.demoPayments = demoPayments } else if demo && ProcessInfo.processInfo.environment["WAYMARK_DEMO_PAYMENTS"] == nil {
            config.demoPayments = true
        }
        if let demoTickets { config.demoTickets = demoTickets } else if demo && ProcessInfo.processInfo.environment["WAYMARK_DEMO_TICKETS"] == nil {
            config.demoTickets = true
        }
        if simulate { config.simulate = true }
        if let speed { config.simulationSpeed = speed }
        if let web { config.webDirectory = web }
        if let tlsCertificate { config.tlsCertificatePath = tlsCertificate }
        if let tlsKey { config.tlsKeyPath = tlsKey }

        let app = try await buildApplication(config)
        do {
            try await app.startup()
            let port = app.http.server.shared.localAddress?.port ?? config.port
            let shownHost = config.host == "0.0.0.0" || config.host == "127.0.0.1" ? "localhost" : config.host
            let url = "\(config.tlsCertificatePath == nil ? "http" : "https")://\(shownHost):\(port)"
            // Written unbuffered so the line shows up at once even when output goes to a pipe.
            say("Waymark is running at \(url)  (API: \(url)/v1/sites, contract: \(url)/openapi.yaml; database: \(config.database.kind))")
            var emulator: Task<Void, Never>?
            if config.simulate {
                let key = try await app.createGateway(name: "built-in-emulator")
                // The emulator talks to this process; over HTTPS it would need to trust the certificate.
                let client = WaymarkClient(serverURL: URL(string: "\(config.tlsCertificatePath == nil ? "http" : "https")://127.0.0.1:\(port)")!, gatewayKey: key)
                let sim = GatewayEmulator(client: client, speed: config.simulationSpeed, progress: .quiet(app.logger))
                emulator = Task { await sim.runLogged() }
                say("The gateway emulator is running at \(config.simulationSpeed)× speed.")
            }
            try await app.running?.onStop.get()
            emulator?.cancel()
            try await app.asyncShutdown()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date, then exit.")
    @OptionGroup var options: ServerOptions

    func run() async throws {
        try await options.withApplication { _ in }
        print("The database schema is up to date (\(options.configuration().database.kind)).")
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Load the demo data (the CSU Fullerton site, CSUSB venues, trails, Milan transit) where it is not there yet, then exit.")
    @OptionGroup var options: ServerOptions

    func run() async throws {
        try await options.withApplication(adjusting: { $0.loadDemo = true }) { _ in }
        print("The demo site is loaded (\(options.configuration().database.kind)).")
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
