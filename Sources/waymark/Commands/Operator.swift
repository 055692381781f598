import ArgumentParser
import Foundation
import WaymarkServer

/// Operators may see the operator analytics (PRK-17). Only this command makes one.
struct Operator: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Grant, revoke and list operators: of the whole Waymark (the analytics, every site), or of one site with --site.",
        subcommands: [Grant.self, Revoke.self, List.self])

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account an operator.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's email address (or username).")
        var email: String
        @Option(help: "Only of this site (its code, as in the site file): its lots, spots and operators.")
        var site: String?

        func run() async throws {
            if let site {
                switch try await options.withApplication({ try await $0.grantSiteOperator(siteCode: site, login: email) }) {
                case .granted: print("'\(email)' is an operator of site '\(site)'.")
                case .noSuchSite: throw ValidationError("No site has the code '\(site)'.")
                case .noSuchAccount: throw ValidationError("No account with the email address or username '\(email)'.")
                }
                return
            }
            guard try await options.withApplication({ try await $0.grantOperator(login: email) }) else {
                throw ValidationError("No account with the email address or username '\(email)'.")
            }
            print("'\(email)' is an operator.")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop an account being an operator.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's email address (or username).")
        var email: String
        @Option(help: "Only of this site (its code).")
        var site: String?

        func run() async throws {
            if let site {
                guard try await options.withApplication({ try await $0.revokeSiteOperator(siteCode: site, login: email) }) else {
                    throw ValidationError("'\(email)' is not an operator of site '\(site)'.")
                }
                print("'\(email)' is no longer an operator of site '\(site)'.")
                return
            }
            guard try await options.withApplication({ try await $0.revokeOperator(login: email) }) else {
                throw ValidationError("'\(email)' is not an operator.")
            }
            print("'\(email)' is no longer an operator.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List operators.")
        @OptionGroup var options: ServerOptions

        func run() async throws {
            for o in try await options.withApplication({ try await $0.listOperators() }) {
                print("\(o.email ?? "-")\t\(o.username ?? "-")\tsince \(o.grantedAt)")
            }
        }
    }
}
