import ArgumentParser
import Foundation
import WaymarkServer

/// Operators may see the operator analytics (PRK-17). Only this command makes one.
struct Operator: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Grant, revoke and list operators (who may see the operator analytics).",
        subcommands: [Grant.self, Revoke.self, List.self])

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an account an operator.")
        @OptionGroup var options: ServerOptions
        @Argument(help: "The account's email address (or username).")
        var email: String

        func run() async throws {
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

        func run() async throws {
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
