import Foundation
import SQLKit

/// What Trails keeps of a person (ACC-5, ACC-8): favourites, the trails suggested to them, comments,
/// votes, forum posts and reports (which need an account, so a device has none to move), recorded hikes and
/// the body figures told for them. A device's favourites, hikes and body figures join the
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
        // Hikes recorded before signing up are the account's; what the account told of its body stays.
        try await sql.raw("UPDATE hikes SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId)").run()
        try await sql.raw("""
            INSERT INTO hiker_bodies (user_id, height_cm, weight_kg, birth_year, updated_at)
            SELECT \(bind: accountId), height_cm, weight_kg, birth_year, updated_at FROM hiker_bodies WHERE user_id = \(bind: deviceId)
            ON CONFLICT (user_id) DO NOTHING
            """).run()
        try await sql.raw("DELETE FROM hiker_bodies WHERE user_id = \(bind: deviceId)").run()
        try await sql.raw("""
            INSERT INTO scavenger_finds (user_id, trail_id, point_id, found_at)
            SELECT \(bind: accountId), trail_id, point_id, found_at FROM scavenger_finds WHERE user_id = \(bind: deviceId)
            ON CONFLICT (user_id, trail_id, point_id) DO NOTHING
            """).run()
        try await sql.raw("DELETE FROM scavenger_finds WHERE user_id = \(bind: deviceId)").run()
    }

    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM trail_favourites WHERE user_id = \(bind: userId)").run()
        try await sql.raw("DELETE FROM trail_suggestions WHERE user_id = \(bind: userId)").run()
        // The person's votes leave the scores they counted in.
        try await sql.raw("""
            UPDATE trail_comments SET score = score - (SELECT v.vote FROM trail_comment_votes v WHERE v.comment_id = trail_comments.id AND v.user_id = \(bind: userId))
            WHERE id IN (SELECT comment_id FROM trail_comment_votes WHERE user_id = \(bind: userId))
            """).run()
        for table in ["trail_comment_votes", "trail_comment_reports", "trail_comments", "trail_forum_reports", "trail_forum_posts", "hikes", "hiker_bodies", "scavenger_finds"] {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
    }
}
