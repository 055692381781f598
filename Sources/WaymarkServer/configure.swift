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

    let services = try await makeServices(app: app, store: store, config: config, now: now)
    app.storage[WaymarkServicesKey.self] = services

    if config.loadDemo {
        try await DemoLoader(store: store, now: now, logger: app.logger).loadIfMissing()
        try await services.sensorIndexReload()
    }

    try await services.live.prime()
    try await services.notificationHub.prime()
    let background = BackgroundTasks()
    app.lifecycle.use(background)
    background.start { await services.live.run() }
    background.start { await services.notificationHub.run() }
    if config.runJobs {
        let job = SnapshotJob(store: store, now: now, liveRetention: config.liveRetention, logger: app.logger)
        background.start { await job.run() }
    }

    if config.runJobs {
        let holds = services.holds, logger = app.logger
        background.start { await holds.run(logger: logger) }
        let bookings = services.bookings
        background.start { await bookings.run(logger: logger) }
    }

    if config.runJobs {
        let sessions = services.sessions, throttles = services.throttles
        background.start {
            // Expired sessions and idle throttle counters are dead weight; an hour is soon enough.
            while !Task.isCancelled {
                try? await sessions.prune(now: now())
                try? await throttles.prune(now: now())
                try? await NotificationStore.prune(now: now(), sql: store.sql)
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }

    app.middleware = .init()
    // Outermost, so that problem responses (404s, 405s, 413s…) carry the headers too.
    app.middleware.use(SecurityHeadersMiddleware())
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

private func makeServices(app: Application, store: SQLStore, config: WaymarkConfiguration, now: @escaping @Sendable () -> Date) async throws -> WaymarkServices {
    let index = SensorIndex(store: store)
    try await index.reload(now: now())
    let live = LiveHub(store: store, pollInterval: store.isPostgres ? .milliseconds(100) : .milliseconds(500), logger: app.logger)
    let accountQueries = AccountQueries(store: store)
    let throttles = Throttles(store: store)
    // bcrypt gets threads of its own: on the application's pool, which SQLite's reads run on, a
    // burst of logins (a quarter of a second each) would hold every thread and stall all reads.
    let hashing = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
    hashing.start()
    app.lifecycle.use(ThreadPoolShutdown(pool: hashing))
    let hasher = try PasswordHasher(cost: config.passwordHashCost, threadPool: hashing)
    let accounts = AccountService(store: store, queries: accountQueries, hasher: hasher, throttles: throttles, now: now,
                                  identityLimit: config.identityLimitPerAddress)
    let mailer: (any Mailer)? = config.smtp.host == nil ? nil : SMTPMailer(settings: config.smtp, group: app.eventLoopGroup)
    let parking = ParkingQueries(store: store)
    let zone = AnalyticsZone(store: store)
    let latencies = OperationLatencies()
    let hub = NotificationHub(store: store, pollInterval: store.isPostgres ? .milliseconds(100) : .milliseconds(500), logger: app.logger)
    let notifier = Notifier(store: store, hub: hub, now: now)
    let alerts = LotAlertMonitor(store: store, notifier: notifier, logger: app.logger)
    var bookings = BookingService(store: store, now: now)
    bookings.observers = [SpaceFreedObserver(notifier: notifier, logger: app.logger)]
    let document = openAPIDocument()
    if document.isEmpty { app.logger.warning("openapi.yaml was not found beside the executable; /openapi.yaml will be empty") }
    return WaymarkServices(
        store: store,
        parking: parking,
        gateways: GatewayKeys(store: store),
        ingest: IngestService(store: store, index: index, live: live, alerts: alerts, notifier: notifier, now: now, logger: app.logger),
        live: live,
        spotStates: SpotStatesCache(),
        sensorIndex: index,
        sessions: Sessions(store: store),
        accountQueries: accountQueries,
        accounts: accounts,
        profiles: ProfileService(store: store, queries: accountQueries, now: now),
        schedule: ScheduleService(store: store, parking: parking, accounts: accountQueries, now: now),
        holds: HoldService(store: store, accounts: accountQueries, live: live, notifier: notifier, alerts: alerts, now: now),
        bookings: bookings,
        reviews: ReviewService(store: store, now: now),
        wallet: WalletService(store: store, provider: config.demoPayments ? DemoPaymentProvider() : nil, now: now),
        notifications: NotificationService(store: store, now: now),
        watches: WatchService(store: store, alerts: alerts, now: now),
        notificationHub: hub,
        passwordResets: PasswordResetService(store: store, queries: accountQueries, accounts: accounts, throttles: throttles,
                                             mailer: mailer, now: now, logger: app.logger),
        throttles: throttles,
        operators: Operators(store: store, queries: accountQueries),
        analytics: OperatorAnalyticsService(store: store, zone: zone, latencies: latencies, now: now),
        activity: ActivityRecorder(store: store, zone: zone, logger: app.logger),
        latencies: latencies,
        now: now,
        databaseKind: config.database.kind,
        openAPIDocument: document,
        clientConfig: .init(version: WaymarkVersion.current, tileURLTemplate: config.tileURLTemplate,
                            tileAttribution: config.tileAttribution, tileMaxZoom: config.tileMaxZoom),
        logger: app.logger)
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
