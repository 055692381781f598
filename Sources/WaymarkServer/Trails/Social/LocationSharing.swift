import Foundation
import SQLKit
import WaymarkCore

/// Location sharing with friends (TRL-9). Off until the person turns it on. While on, one row
/// holds their latest position (each report replaces the last, so no trace is kept); turning it
/// off deletes the row in the same statement. A friend's position is visible only while both
/// share, and only to friends.
struct LocationSharing: Sendable {
    let store: SQLStore
    let now: @Sendable () -> Date

    /// How often the app reports while sharing (the seed's 60 seconds).
    static let reportInterval: TimeInterval = 60

    struct Position: Sendable {
        var latitude: Double
        var longitude: Double
        var accuracy: Double
        var reportedAt: Date
    }

    struct FriendPosition: Sendable {
        var friend: PersonCard
        var position: Position
    }

    /// Whether the person shares, and their position as stored.
    func state(_ me: Principal) async throws -> (sharing: Bool, position: Position?) {
        try Friends.requireAccount(me)
        guard let r = try await store.sql.raw("""
            SELECT latitude, longitude, accuracy, reported_at FROM location_shares WHERE user_id = \(bind: me.userId)
            """).first() else { return (false, nil) }
        return (true, try Self.position(r))
    }

    private static func position(_ r: any SQLRow) throws -> Position? {
        guard let lat = try r.decode(column: "latitude", as: Double?.self), let lon = try r.decode(column: "longitude", as: Double?.self),
              let at = try r.decode(column: "reported_at", as: Int64?.self) else { return nil }
        return Position(latitude: lat, longitude: lon, accuracy: try r.decode(column: "accuracy", as: Double?.self) ?? 0, reportedAt: Date(millis: at))
    }

    func setSharing(_ me: Principal, on: Bool) async throws {
        try Friends.requireAccount(me)
        let now = now()
        try await store.write { sql in
            if on {
                try await sql.raw("""
                    INSERT INTO location_shares (user_id, since) VALUES (\(bind: me.userId), \(bind: now.millis))
                    ON CONFLICT (user_id) DO NOTHING
                    """).run()
            } else {
                try await sql.raw("DELETE FROM location_shares WHERE user_id = \(bind: me.userId)").run()
            }
        }
    }

    /// Replaces the person's position; refused while they do not share, so nothing is stored then.
    func report(_ me: Principal, latitude: Double, longitude: Double, accuracy: Double) async throws -> Position {
        try Friends.requireAccount(me)
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw Problem.badRequest("latitude must be -90…90 and longitude -180…180.")
        }
        guard accuracy.isFinite, (0...100_000).contains(accuracy) else { throw Problem.badRequest("accuracy must be 0–100000 metres.") }
        let now = now()
        let updated = try await store.write { sql in
            try await !sql.raw("""
                UPDATE location_shares SET latitude = \(bind: latitude), longitude = \(bind: longitude), accuracy = \(bind: accuracy),
                       reported_at = \(bind: now.millis)
                WHERE user_id = \(bind: me.userId) RETURNING user_id
                """).all().isEmpty
        }
        guard updated else {
            throw Problem.conflict("sharing-off", "Location sharing is off, so your position was not kept. Turn it on in Friends to share it.")
        }
        return Position(latitude: latitude, longitude: longitude, accuracy: accuracy, reportedAt: now)
    }

    /// The latest positions of friends who share, while the person shares too; the age tells
    /// the app when to show a position as last seen.
    func friendsPositions(_ me: Principal) async throws -> [FriendPosition] {
        try Friends.requireAccount(me)
        return try await store.sql.raw("""
            SELECT \(PersonCard.columns), s.latitude, s.longitude, s.accuracy, s.reported_at
            FROM friendships f JOIN location_shares s ON s.user_id = f.friend_id JOIN users u ON u.id = f.friend_id
            WHERE f.user_id = \(bind: me.userId) AND s.reported_at IS NOT NULL
              AND EXISTS (SELECT 1 FROM location_shares mine WHERE mine.user_id = \(bind: me.userId))
            ORDER BY u.username
            """).all().compactMap { r in try Self.position(r).map { FriendPosition(friend: try PersonCard(r), position: $0) } }
    }
}
