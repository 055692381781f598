import Foundation
import SQLKit

/// What Notifications keeps of a person (ACC-5, ACC-8): the inbox, watched lots, the browsers
/// pushed to and the kinds switched off.
struct NotificationsPersonalData: PersonalData {
    /// Watched lots and the inbox come along (PRK-15), a lot both watch stays watched once;
    /// the browser pushed to as a device is pushed to as the account (PRK-22).
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE lot_watches SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)
            AND lot_id NOT IN (SELECT lot_id FROM lot_watches WHERE user_id = \(bind: accountId))
            """).run()
        try await sql.raw("UPDATE notifications SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)").run()
        try await sql.raw("UPDATE push_subscriptions SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)").run()
    }

    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        for table in ["notifications", "lot_watches", "push_subscriptions", "push_preferences"] {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
    }
}
