import Foundation
import Logging
import WaymarkAPI
import WaymarkCore

/// Implements the generated `APIProtocol`; one extension per area (`ParkingHandlers.swift`, …)
/// translates between API and core types and calls the area's queries and services.
struct APIHandler: APIProtocol {
    let services: WaymarkServices
}

/// What handlers need, built once in `configure`.
struct WaymarkServices: Sendable {
    let store: SQLStore
    let parking: ParkingQueries
    let gateways: GatewayKeys
    let ingest: IngestService
    let live: LiveHub
    let spotStates: SpotStatesCache
    let sensorIndex: SensorIndex
    let sessions: Sessions
    let accountQueries: AccountQueries
    let accounts: AccountService
    let profiles: ProfileService
    let schedule: ScheduleService
    let holds: HoldService
    let bookings: BookingService
    let reviews: ReviewService
    let wallet: WalletService
    let notifications: NotificationService
    let watches: WatchService
    let notificationHub: NotificationHub
    let passwordResets: PasswordResetService
    let throttles: Throttles
    let operators: Operators
    let analytics: OperatorAnalyticsService
    let activity: ActivityRecorder
    let latencies: OperationLatencies
    let now: @Sendable () -> Date
    let databaseKind: String
    let openAPIDocument: String
    let clientConfig: Components.Schemas.ClientConfig
    let logger: Logger

    func sensorIndexReload() async throws { try await sensorIndex.reload(now: now()) }
}
