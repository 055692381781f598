import Foundation

/// The Notifications area: a person's inbox, its live stream and its pushes to the person's
/// browsers, watched lots and the alerts they raise, and the notifier other areas tell a
/// person through.
struct NotificationsServices: Sendable {
    let hub: NotificationHub
    let notifier: Notifier
    let inbox: NotificationService
    let alerts: LotAlertMonitor
    let watches: WatchService
    let pusher: Pusher
    let push: PushSubscriptionService

    init(_ env: WaymarkEnvironment) {
        let pusher = Pusher(store: env.store, transport: env.push, contact: Self.pushContact(env.configuration),
                            now: env.now, logger: env.logger)
        self.pusher = pusher
        push = PushSubscriptionService(store: env.store, pusher: pusher, allowedHosts: env.configuration.pushHosts, now: env.now)
        // What the inbox tail reads is what is pushed.
        hub = NotificationHub(store: env.store, pollInterval: env.livePollInterval, logger: env.logger,
                              observe: { _ in pusher.poke() })
        notifier = Notifier(store: env.store, hub: hub, now: env.now)
        inbox = NotificationService(store: env.store, now: env.now)
        alerts = LotAlertMonitor(store: env.store, notifier: notifier, logger: env.logger)
        watches = WatchService(store: env.store, alerts: alerts, now: env.now)
    }

    /// The inbox streams' tail; with jobs, an hourly removal of notifications past their age.
    func start(_ background: BackgroundTasks, jobs: Bool, environment env: WaymarkEnvironment) {
        let hub = hub, pusher = pusher
        background.start { await hub.run() }
        guard jobs else { return }
        background.start { await pusher.run() }
        background.start {
            while !Task.isCancelled {
                try? await NotificationStore.prune(now: env.now(), sql: env.store.sql)
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }

    /// RFC 8292's contact: the configured one, else the mail sender's address.
    static func pushContact(_ config: WaymarkConfiguration) -> String {
        if let contact = config.pushContact { return contact }
        let from = config.smtp.from
        let address = from.split(separator: "<").last.map { $0.split(separator: ">").first.map(String.init) ?? "" } ?? from
        return "mailto:" + address.trimmingCharacters(in: .whitespaces)
    }
}

extension NotificationsServices {
    /// The area's operations that need a signed-in person (`UserAuthMiddleware`).
    static let signedInOperations: Set<String> = [
        "listNotifications", "markNotificationRead", "markAllNotificationsRead", "deleteNotification",
        "streamNotifications", "listWatches", "watchLot", "unwatchLot", "listPushSubscriptions",
        "createPushSubscription", "deletePushSubscription", "getPushPreferences", "setPushPreferences",
    ]
}
