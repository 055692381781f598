import Foundation

/// The Parking area: sites, lots and spots, sensor ingest and the site's live stream, holds,
/// bookings, reviews and the weekly parking schedule.
struct ParkingServices: Sendable {
    let queries: ParkingQueries
    let gateways: GatewayKeys
    let sensorIndex: SensorIndex
    let live: LiveHub
    let spotStates: SpotStatesCache
    let ingest: IngestService
    let holds: HoldService
    let bookings: BookingService
    let reviews: ReviewService
    let schedule: ScheduleService
    let siteOperators: SiteOperators
    let operate: OperateService
    let siteGateways: SiteGateways
    let silentSensors: SilentSensors
    let traffic: SensorTraffic
    private let now: @Sendable () -> Date

    init(_ env: WaymarkEnvironment, accounts: AccountsServices, notifications: NotificationsServices) async throws {
        let store = env.store, now = env.now
        self.now = now
        queries = ParkingQueries(store: store)
        gateways = GatewayKeys(store: store)
        sensorIndex = SensorIndex(store: store)
        try await sensorIndex.reload(now: now())
        live = LiveHub(store: store, pollInterval: env.livePollInterval, logger: env.logger)
        spotStates = SpotStatesCache()
        ingest = IngestService(store: store, index: sensorIndex, live: live, alerts: notifications.alerts,
                               notifier: notifications.notifier, now: now, logger: env.logger)
        holds = HoldService(store: store, accounts: accounts.queries, live: live, notifier: notifications.notifier,
                            alerts: notifications.alerts, now: now)
        var bookings = BookingService(store: store, now: now)
        bookings.overlapLimit = env.configuration.overlappingBookingsLimit
        bookings.live = live
        bookings.observers = [SpaceFreedObserver(notifier: notifications.notifier, logger: env.logger)]
        self.bookings = bookings
        reviews = ReviewService(store: store, now: now)
        schedule = ScheduleService(store: store, parking: queries, accounts: accounts.queries, now: now)
        siteOperators = SiteOperators(store: store, accounts: accounts.queries)
        operate = OperateService(store: store, operators: siteOperators, live: live, notifier: notifications.notifier, now: now)
        siteGateways = SiteGateways(store: store, operators: siteOperators, keys: gateways, now: now)
        silentSensors = SilentSensors(store: store, live: live, keepAlive: env.configuration.sensorKeepAlive, now: now)
        traffic = SensorTraffic(store: store, now: now)
    }

    /// Reads the sensors anew after sites, lots or sensors were added (an import, the demo).
    func reloadSensorIndex() async throws { try await sensorIndex.reload(now: now()) }

    /// The site streams' tail; with jobs, half-hourly snapshots and the live log's trimming,
    /// hold expiry, the booking sweep and the silent sensors' spots.
    func start(_ background: BackgroundTasks, jobs: Bool, environment env: WaymarkEnvironment) {
        let live = live, holds = holds, bookings = bookings, silentSensors = silentSensors, traffic = traffic, logger = env.logger
        background.start { await live.run() }
        background.start { await traffic.run(logger: logger) }
        guard jobs else { return }
        let snapshots = SnapshotJob(store: env.store, now: env.now, liveRetention: env.configuration.liveRetention, logger: logger)
        background.start { await snapshots.run() }
        background.start { await holds.run(logger: logger) }
        background.start { await bookings.run(logger: logger) }
        background.start { await silentSensors.run(logger: logger) }
    }
}

extension ParkingServices {
    /// The area's operations that need a signed-in person (`UserAuthMiddleware`).
    static let signedInOperations: Set<String> = [
        "getSchedule", "createScheduleBlock", "updateScheduleBlock", "deleteScheduleBlock",
        "getScheduleLotAdvice", "createHold", "listHolds", "getHold", "cancelHold", "answerHold",
        "createBooking", "listBookings", "getBooking", "modifyBooking", "cancelBooking", "checkInBooking",
        "createBookingSeries", "getBookingSeries", "cancelBookingSeries",
        "putMyLotReview", "deleteMyLotReview",
        "listOperatedSites", "listSiteOperators", "grantSiteOperator", "revokeSiteOperator", "listOperatorChanges",
        "getLotSettings", "updateLotSettings", "setSitePermits", "setSpotOpening", "getSensorHealth", "addLotClosure", "liftLotClosure",
        "listSiteGateways", "addSiteGateway", "revokeSiteGateway", "replaceSiteGatewaySecret",
    ]
}
