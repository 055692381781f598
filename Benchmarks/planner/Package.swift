// swift-tools-version: 6.0
import PackageDescription

// The day-planner benchmark: Waymark's planner on generated days, timed in-process, for cpsat.py
// to set beside OR-Tools CP-SAT on the same days. A package of its own so the app's build does not
// carry it.
let package = Package(
    name: "planner-benchmark",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Waymark", path: "../..")],
    targets: [
        .executableTarget(
            name: "planner-benchmark",
            dependencies: [.product(name: "WaymarkCore", package: "Waymark")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
