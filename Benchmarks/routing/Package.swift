// swift-tools-version: 6.0
import PackageDescription

// The routing benchmark: Waymark's router beside SwiftGraph's Dijkstra on the same venue graph.
// A package of its own so that the app does not depend on a library only the benchmark uses.
let package = Package(
    name: "routing-benchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Waymark", path: "../.."),
        .package(url: "https://github.com/davecom/SwiftGraph", exact: "4.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "routing-benchmark",
            dependencies: [
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "SwiftGraph", package: "SwiftGraph"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
