// swift-tools-version: 6.0
import PackageDescription

// The transit benchmark (PLN-5): Waymark's GTFS reader and RAPTOR journey planner on a
// city-sized feed, timed in-process; `run.py` puts pyraptor beside it on the same queries.
// A package of its own, like the other benchmarks, so that the app never builds it.
// The `milan` subcommand writes the demo's Milan feed (`MilanTransit`) out as a second feed.

let package = Package(
    name: "transit-benchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Waymark", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "transit-benchmark",
            dependencies: [
                .product(name: "WaymarkCore", package: "Waymark"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
