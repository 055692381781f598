import AsyncHTTPClient
import Foundation
import Logging
import NIOPosix
import Vapor

/// What handlers need, one value per area, built once in `configure` from the environment.
struct WaymarkServices: Sendable {
    let environment: WaymarkEnvironment
    let accounts: AccountsServices
    let parking: ParkingServices
    let wayfinding: WayfindingServices
    let planner: PlannerServices
    let trails: TrailsServices
    let notifications: NotificationsServices
    let operations: OperationsServices

    var store: SQLStore { environment.store }
    var now: @Sendable () -> Date { environment.now }
    var logger: Logger { environment.logger }

    /// Builds every area from one environment. A new area adds a property above and a line here.
    static func make(app: Application, store: SQLStore, config: WaymarkConfiguration, now: @escaping @Sendable () -> Date) async throws -> WaymarkServices {
        // Its own client for calls out (push services, the weather): redirects are not followed (see HTTPPushTransport).
        let pushClient = HTTPClient(eventLoopGroup: app.eventLoopGroup, configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(10))))
        app.lifecycle.use(HTTPClientShutdown(client: pushClient))
        let environment = WaymarkEnvironment(
            store: store, now: now, logger: app.logger,
            mailer: config.smtp.host == nil ? nil : SMTPMailer(settings: config.smtp, group: app.eventLoopGroup),
            payments: config.demoPayments ? DemoPaymentProvider() : nil,
            card: cardProcessor(client: pushClient, config: config, logger: app.logger),
            push: HTTPPushTransport(client: pushClient),
            configuration: config)
        // bcrypt gets threads of its own: on the application's pool, which SQLite's reads run on, a
        // burst of logins (a quarter of a second each) would hold every thread and stall all reads.
        let hashing = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
        hashing.start()
        app.lifecycle.use(ThreadPoolShutdown(pool: hashing))
        let hasher = try PasswordHasher(cost: config.passwordHashCost, threadPool: hashing)
        let document = openAPIDocument()
        if document.isEmpty { app.logger.warning("openapi.yaml was not found beside the executable; /openapi.yaml will be empty") }

        let accounts = AccountsServices(environment, hasher: hasher)
        let notifications = NotificationsServices(environment)
        let parking = try await ParkingServices(environment, accounts: accounts, notifications: notifications)
        // What each area keeps of a person, for erasure and a device's move into an account.
        accounts.personalData.register(ParkingPersonalData())
        accounts.personalData.register(NotificationsPersonalData())
        let wayfinding = WayfindingServices(environment)
        let planner = PlannerServices(environment, parking: parking, wayfinding: wayfinding, notifications: notifications,
                                      streets: streetRouterClient(app: app, config: config))
        accounts.personalData.register(PlannerPersonalData())
        let trails = TrailsServices(environment, weather: config.weatherURL.map { OpenMeteoProvider(client: pushClient, baseURL: $0) },
                                   notifications: notifications)
        accounts.personalData.register(TrailsPersonalData())
        accounts.personalData.register(SocialPersonalData())
        let operations = OperationsServices(environment, accounts: accounts, openAPIDocument: document)
        return WaymarkServices(environment: environment, accounts: accounts, parking: parking, wayfinding: wayfinding, planner: planner, trails: trails,
                               notifications: notifications, operations: operations)
    }

    /// The card processor, when all its keys are set; a partial set is named in the log, since
    /// top-ups then stay with the demo provider or off.
    private static func cardProcessor(client: HTTPClient, config: WaymarkConfiguration, logger: Logger) -> (any CardProcessor)? {
        guard let secret = config.cardSecretKey, let webhook = config.cardWebhookSecret, let publishable = config.cardPublishableKey else {
            let missing = [("WAYMARK_CARD_SECRET_KEY", config.cardSecretKey), ("WAYMARK_CARD_WEBHOOK_SECRET", config.cardWebhookSecret),
                           ("WAYMARK_CARD_PUBLISHABLE_KEY", config.cardPublishableKey)].filter { $0.1 == nil }.map(\.0)
            if missing.count < 3 { logger.warning("card payments are off: \(missing.joined(separator: ", ")) not set") }
            return nil
        }
        return StripeCardProcessor(client: client, baseURL: config.cardAPIURL, secretKey: secret, webhookSecret: webhook,
                                   publishableKey: publishable)
    }

    /// A client for the street routers (PLN-5), when any is configured. Its own, with short
    /// timeouts: a plan waits for it, and falls back to the ground estimate when it is slow.
    private static func streetRouterClient(app: Application, config: WaymarkConfiguration) -> HTTPClient? {
        guard config.osrmFootURL != nil || config.osrmBikeURL != nil || config.osrmCarURL != nil else { return nil }
        let client = HTTPClient(eventLoopGroup: app.eventLoopGroup, configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(2), read: .seconds(5))))
        app.lifecycle.use(HTTPClientShutdown(client: client))
        return client
    }

    /// The operations that need a signed-in person, each area's own list; a new area adds its
    /// list here.
    static let signedInOperations: Set<String> = AccountsServices.signedInOperations
        .union(ParkingServices.signedInOperations)
        .union(WayfindingServices.signedInOperations)
        .union(PlannerServices.signedInOperations)
        .union(TrailsServices.signedInOperations)
        .union(SocialServices.signedInOperations)
        .union(NotificationsServices.signedInOperations)
        .union(OperationsServices.signedInOperations)

    /// Reads where each live log ends.
    func prime() async throws {
        try await parking.live.prime()
        try await notifications.hub.prime()
        try await trails.social.hub.prime()
        try await notifications.pusher.prime()
    }

    /// Starts what runs beside the requests: the live tails always, the scheduled jobs
    /// (expiry, snapshots, clean-up) when `jobs` is set.
    func start(_ background: BackgroundTasks, jobs: Bool) {
        parking.start(background, jobs: jobs, environment: environment)
        notifications.start(background, jobs: jobs, environment: environment)
        accounts.start(background, jobs: jobs, environment: environment)
        wayfinding.start(background, jobs: jobs)
        trails.start(background, jobs: jobs)
        trails.social.start(background, jobs: jobs, environment: environment)
        planner.start(background, jobs: jobs, every: environment.configuration.leaveAlertSeconds, now: environment.now, logger: environment.logger)
        operations.start(background, logger: environment.logger)
    }
}

struct HTTPClientShutdown: LifecycleHandler {
    let client: HTTPClient
    func shutdownAsync(_ application: Application) async { try? await client.shutdown() }
}
