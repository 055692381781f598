import Foundation

/// The Notifications area: a person's inbox and its live stream, watched lots and the alerts
/// they raise, and the notifier other areas tell a person through.
struct NotificationsServices: Sendable {
    let hub: NotificationHub
    let notifier: Notifier
    let inbox: NotificationService
    let alerts: LotAlertMonitor
    let watches: WatchService

    init(_ env: WaymarkEnvironment) {
        hub = NotificationHub(store: env.store, pollInterval: env.livePollInterval, logger: env.logger)
        notifier = Notifier(store: env.store, hub: hub, now: env.now)
        inbox = NotificationService(store: env.store, now: env.now)
        alerts = LotAlertMonitor(store: env.store, notifier: notifier, logger: env.logger)
        watches = WatchService(store: env.store, alerts: alerts, now: env.now)
    }

    /// The inbox streams' tail; with jobs, an hourly removal of notifications past their age.
    func start(_ background: BackgroundTasks, jobs: Bool, environment env: WaymarkEnvironment) {
        let hub = hub
        background.start { await hub.run() }
        guard jobs else { return }
        background.start {
            while !Task.isCancelled {
                try? await NotificationStore.prune(now: env.now(), sql: env.store.sql)
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }
}
