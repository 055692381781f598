// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Waymark",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "WaymarkCore", targets: ["WaymarkCore"]),
        .library(name: "WaymarkAPI", targets: ["WaymarkAPI"]),
        .library(name: "WaymarkClient", targets: ["WaymarkClient"]),
        .library(name: "WaymarkServer", targets: ["WaymarkServer"]),
        .executable(name: "waymark", targets: ["waymark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
    ],
    targets: [
        // Pure domain rules: Foundation only, no I/O, builds for Linux and Apple platforms.
        .target(name: "WaymarkCore"),

        // Types generated from Sources/openapi.yaml, shared by server and client.
        .target(
            name: "WaymarkAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),

        .target(
            name: "WaymarkServer",
            dependencies: [
                "WaymarkCore",
                "WaymarkAPI",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "CSV", package: "CSV.swift"),
            ],
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),

        // The SDK a native app uses.
        .target(
            name: "WaymarkClient",
            dependencies: [
                "WaymarkCore",
                "WaymarkAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),

        .executableTarget(
            name: "waymark",
            dependencies: [
                "WaymarkCore",
                "WaymarkServer",
                "WaymarkClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "WaymarkCoreTests", dependencies: ["WaymarkCore"], exclude: ["Fixtures"]),
        .testTarget(
            name: "WaymarkServerTests",
            dependencies: [
                "WaymarkServer",
                "WaymarkCore",
                "WaymarkAPI",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // Read by path (`#filePath`), like the core tests' fixtures.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "WaymarkClientTests",
            dependencies: ["WaymarkClient", "WaymarkServer", "WaymarkCore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
