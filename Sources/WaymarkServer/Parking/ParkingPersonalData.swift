import Foundation
import SQLKit
import WaymarkCore

/// What Parking keeps of a person (ACC-5, ACC-8): holds, bookings, lot reviews and the weekly
/// parking schedule.
struct ParkingPersonalData: PersonalData {
    /// The schedule blocks that fit beside the account's move over (PRK-16). A spot held as a
    /// guest stays held, unless the account holds one already (one hold per person).
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws {
        let kept = try await ScheduleStore.blocks(userId: accountId, on: sql)
        let incoming = try await ScheduleStore.blocks(userId: deviceId, on: sql)
        for block in WeeklySchedule.mergeable(incoming, into: kept) {
            try await sql.raw("UPDATE schedule_blocks SET user_id = \(bind: accountId) WHERE id = \(bind: block.id)").run()
        }
        if try await HoldStore.open(userId: accountId, sql: sql) == nil {
            try await sql.raw("UPDATE holds SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId) AND ended_at IS NULL").run()
        }
    }

    /// An open hold is released (its spot is free again); bookings still to come are cancelled
    /// and refunded; booking rows stay for the ledger and the lots' statistics, anonymised, and
    /// so do the changes made as an operator.
    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        try await HoldStore.release(userId: userId, at: now, sql: sql)
        try await BookingService.erase(userId: userId, now: now, sql: sql)
        try await OperatorChanges.erase(userId: userId, sql: sql)
        for table in ["holds", "lot_reviews", "schedule_blocks"] {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
    }
}
