import SQLKit

/// Parking's advisory locks (see `AdvisoryLocks`): a transaction takes a user's lock before
/// any lot's lock, never the other way round.
extension AdvisoryLocks {
    /// Everything that counts or changes the booked capacity of a lot.
    static let lotSpace = 0x5759_0002
    /// A site's own gateways: their names and how many are active.
    static let siteGatewaysSpace = 0x5759_0004
    /// The permits a site issues, which lot settings are checked against; taken after a lot's lock.
    static let sitePermitsSpace = 0x5759_0005
    /// One instance at a time sweeps bookings (forfeit, complete).
    static let bookingSweep = 1

    static func lockLot(_ lotId: String, sql: any SQLDatabase) async throws {
        try await lock(space: lotSpace, id: lotId, sql: sql)
    }

    static func lockSitePermits(_ siteId: String, sql: any SQLDatabase) async throws {
        try await lock(space: sitePermitsSpace, id: siteId, sql: sql)
    }

    static func lockSiteGateways(_ siteId: String, sql: any SQLDatabase) async throws {
        try await lock(space: siteGatewaysSpace, id: siteId, sql: sql)
    }
}
