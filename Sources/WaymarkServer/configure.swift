import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Builds a ready application: database connected and migrated, services and background jobs
/// started, routes registered. Used by `waymark serve` and by the tests.
public func buildApplication(
    _ config: WaymarkConfiguration,
    now: @escaping @Sendable () -> Date = { Date() }
) async throws -> Application {
    // Our own command line parses the flags; Vapor must not read them again.
    let app = try await Application.make(Environment(name: "production", arguments: ["waymark"]))
    do {
        try await configure(app, config, now: now)
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
    return app
}

func configure(_ app: Application, _ config: WaymarkConfiguration, now: @escaping @Sendable () -> Date) async throws {
    // Vapor's HTTP layer, requests and the database share this logger: mask credentials first.
    let base = app.logger.handler
    app.logger = Logger(label: app.logger.label) { _ in RedactingLogHandler(base: base) }
    app.logger.logLevel = Logger.Level(rawValue: config.logLevel) ?? .info
    // A mistyped origin would silently lock its web app out: refuse to start instead.
    if let bad = config.corsOrigins.first(where: { CORSMiddleware.normalise($0) == nil }) {
        throw ConfigurationError("WAYMARK_CORS_ORIGINS: \"\(bad)\" is not an origin like https://app.example.com")
    }
    app.http.server.configuration.hostname = config.host
    app.http.server.configuration.port = config.port
    app.http.server.configuration.serverName = "Waymark"
    // JSON, scripts and styles compress several-fold; the live stream stays uncompressed.
    app.http.server.configuration.responseCompression = .enabledForCompressibleTypes
    app.routes.defaultMaxBodySize = ByteCount(integerLiteral: config.maxBodyBytes)
    try ServerTLS.apply(config, to: app)

    switch config.database {
    case .sqlite(let path):
        // One connection per event loop, and every write waits for the one writer: under a
        // burst a request may wait longer than the default 10 s for a connection.
        app.databases.use(.sqlite(.file(path), connectionPoolTimeout: .seconds(30), sqlLogLevel: nil), as: .sqlite)
    case .postgres(let url):
        app.databases.use(try .postgres(url: url, maxConnectionsPerEventLoop: 4, connectionPoolTimeout: .seconds(30), sqlLogLevel: .trace), as: .psql)
    }
    let sqlitePath: String? = if case .sqlite(let path) = config.database { path } else { nil }
    if sqlitePath != nil {
        // WAL lets readers run beside the writer; the journal mode is stored in the file.
        // synchronous stays FULL (the default), so a commit is on disk before it is acknowledged.
        _ = try await (app.db as! any SQLDatabase).raw("PRAGMA journal_mode=WAL").all()
    }
    let lane = try await WriterLane(sqlitePath: sqlitePath, logger: app.logger)
    app.lifecycle.use(WriterLaneShutdown(lane: lane))
    let store = SQLStore(database: app.db, lane: lane)
    app.migrations.add(Migrations.all)
    try await app.autoMigrate()

    let services = try await WaymarkServices.make(app: app, store: store, config: config, now: now)
    app.storage[WaymarkServicesKey.self] = services

    if config.loadDemo {
        try await DemoLoader(store: store, now: now, logger: app.logger).loadIfMissing()
        try await services.parking.reloadSensorIndex()
        try await WayfindingDemo(wayfinding: services.wayfinding).loadIfMissing()
        try await TrailsDemo(trails: services.trails).loadIfMissing()
        try await TransitDemo(transit: services.planner.transit, now: now).loadIfMissing()
    }

    // Live tails start at the end of their logs before the server takes requests, so that
    // the first snapshot already names a real stream position.
    try await services.prime()
    let background = BackgroundTasks()
    app.lifecycle.use(background)
    services.start(background, jobs: config.runJobs)

    app.middleware = .init()
    // Outermost, so that problem responses (404s, 405s, 413s…) carry the headers too.
    app.middleware.use(SecurityHeadersMiddleware(tileTemplates: [config.tileURLTemplate, config.satelliteTileURLTemplate],
                                                 cardPayments: config.cardPayments))
    // Outside the problem middleware, so a page on an allowed origin can read problems too.
    app.middleware.use(CORSMiddleware(origins: config.corsOrigins))
    app.middleware.use(ProblemMiddleware())
    app.middleware.use(ClientAddressMiddleware(trustForwardedFor: config.trustForwardedFor))
    app.middleware.use(MethodNotAllowedMiddleware())
    if config.writeRatePerSecond > 0 {
        app.middleware.use(WriteRateLimitMiddleware(limiter: WriteRateLimiter(perSecond: config.writeRatePerSecond, burst: config.writeBurst)))
    }
    if let web = config.webDirectory ?? defaultWebDirectory() {
        app.middleware.use(WebAppMiddleware(directory: web))
    }
    try routes(app, services: services, config: config)
}

/// `Web/` in the working directory, as when run from a checkout.
func defaultWebDirectory() -> String? {
    let path = FileManager.default.currentDirectoryPath + "/Web"
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path + "/index.html", isDirectory: &isDirectory) ? path : nil
}

/// The contract as shipped with the executable. Looked up by hand rather than with
/// `Bundle.module`, which stops the process when the resource bundle is missing.
func openAPIDocument() -> String {
    let name = "Waymark_WaymarkServer.resources/openapi.yaml"
    let candidates = [
        Bundle.main.bundleURL.appendingPathComponent(name),
        Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent(name),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi.yaml"),
    ].compactMap { $0 }
    for url in candidates {
        if let text = try? String(contentsOf: url, encoding: .utf8) { return text }
    }
    return ""
}

/// Stops the writer lane after everything that might still write has stopped.
struct WriterLaneShutdown: LifecycleHandler {
    let lane: WriterLane

    func shutdownAsync(_ application: Application) async { await lane.shutdown() }
}

struct ThreadPoolShutdown: LifecycleHandler {
    let pool: NIOThreadPool

    func shutdownAsync(_ application: Application) async { try? await pool.shutdownGracefully() }
}

struct WaymarkServicesKey: StorageKey {
    typealias Value = WaymarkServices
}

extension Application {
    var waymark: WaymarkServices {
        guard let s = storage[WaymarkServicesKey.self] else { fatalError("configure(_:) has not run") }
        return s
    }
}

/// Tasks that live as long as the application and are cancelled (and awaited) when it shuts down.
final class BackgroundTasks: LifecycleHandler, Sendable {
    private let tasks = NIOLockedValueBox([Task<Void, Never>]())

    func start(_ body: @escaping @Sendable () async -> Void) {
        tasks.withLockedValue { $0.append(Task { await body() }) }
    }

    func shutdownAsync(_ application: Application) async {
        let all = tasks.withLockedValue { t in defer { t.removeAll() }; return t }
        for t in all { t.cancel() }
        for t in all { await t.value }
    }
}
