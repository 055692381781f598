import ArgumentParser
import Foundation
import WaymarkServer

struct Gateway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage sensor gateways and their secrets.",
        subcommands: [Create.self, Revoke.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a gateway (or replace its secret) and print the secret once.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "A name for the gateway, e.g. the building it serves.")
        var name: String

        func run() async throws {
            var config = options.configuration()
            config.runJobs = false
            let app = try await buildApplication(config)
            let secret = try await app.createGateway(name: name)
            try await app.asyncShutdown()
            print(secret)
            FileHandle.standardError.write(Data("Gateway '\(name)' created. The secret above is shown only now; send it as 'Authorization: Bearer <secret>'.\n".utf8))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a gateway's secret.")
        @OptionGroup var options: ServerOptions
        @Argument var name: String

        func run() async throws {
            var config = options.configuration()
            config.runJobs = false
            let app = try await buildApplication(config)
            let revoked = try await app.revokeGateway(name: name)
            try await app.asyncShutdown()
            if revoked { print("Gateway '\(name)' revoked.") } else { throw ValidationError("No active gateway named '\(name)'.") }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List gateways.")
        @OptionGroup var options: ServerOptions

        func run() async throws {
            var config = options.configuration()
            config.runJobs = false
            let app = try await buildApplication(config)
            let all = try await app.listGateways()
            try await app.asyncShutdown()
            for g in all { print("\(g.name)\t\(g.revoked ? "revoked" : "active")\tcreated \(g.createdAt)") }
        }
    }
}
