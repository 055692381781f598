import Foundation
import SQLKit

/// What Trails keeps of a person (ACC-5, ACC-8): favourites and the trails suggested to them. A device's favourites join the
/// account's on sign-in.
struct TrailsPersonalData: PersonalData {
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO trail_favourites (user_id, trail_id, created_at)
            SELECT \(bind: accountId), trail_id, created_at FROM trail_favourites WHERE user_id = \(bind: deviceId)
            ON CONFLICT (user_id, trail_id) DO NOTHING
            """).run()
        try await sql.raw("DELETE FROM trail_favourites WHERE user_id = \(bind: deviceId)").run()
        // What was suggested to the device is not suggested again to the account.
        try await sql.raw("""
            INSERT INTO trail_suggestions (user_id, week, trail_ids, created_at)
            SELECT \(bind: accountId), week, trail_ids, created_at FROM trail_suggestions WHERE user_id = \(bind: deviceId)
            ON CONFLICT (user_id, week) DO NOTHING
            """).run()
        try await sql.raw("DELETE FROM trail_suggestions WHERE user_id = \(bind: deviceId)").run()
    }

    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM trail_favourites WHERE user_id = \(bind: userId)").run()
        try await sql.raw("DELETE FROM trail_suggestions WHERE user_id = \(bind: userId)").run()
    }
}
