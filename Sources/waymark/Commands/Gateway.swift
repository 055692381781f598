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
        @Option(help: "The code of the only site it reports for (as 'waymark import site' printed it); without it, any site.")
        var site: String?

        func run() async throws {
            let secret: String
            do {
                secret = try await options.withApplication { try await $0.createGateway(name: name, siteCode: site) }
            } catch let error as GatewayCommandError {
                throw ValidationError(error.description)
            }
            print(secret)
            FileHandle.standardError.write(Data("Gateway '\(name)' created. The secret above is shown only now; send it as 'Authorization: Bearer <secret>'.\n".utf8))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a gateway's secret.")
        @OptionGroup var options: ServerOptions
        @Argument var name: String
        @Option(help: "The code of the site the gateway reports for, when it was made for one.")
        var site: String?

        func run() async throws {
            let revoked: Bool
            do {
                revoked = try await options.withApplication { try await $0.revokeGateway(name: name, siteCode: site) }
            } catch let error as GatewayCommandError {
                throw ValidationError(error.description)
            }
            guard revoked else {
                throw ValidationError("No active gateway named '\(name)'\(site.map { " for site '\($0)'" } ?? " for any site").")
            }
            print("Gateway '\(name)' revoked.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List gateways.")
        @OptionGroup var options: ServerOptions

        func run() async throws {
            for g in try await options.withApplication({ try await $0.listGateways() }) {
                print("\(g.name)\t\(g.siteCode.map { "site \($0)" } ?? "any site")\t\(g.revoked ? "revoked" : "active")\tcreated \(g.createdAt)")
            }
        }
    }
}
