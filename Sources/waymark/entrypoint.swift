import ArgumentParser
import Foundation

@main
struct Waymark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waymark",
        abstract: "Waymark: find parking, find the room, find the trail, plan the day.",
        subcommands: [Serve.self, Migrate.self, Demo.self, Import.self, Export.self, Venues.self, Gateway.self, Operator.self, Simulate.self],
        defaultSubcommand: Serve.self)
}
