import Foundation
import SQLKit

/// What Parking keeps of a person (ACC-5, ACC-8): holds, bookings and lot reviews.
struct ParkingPersonalData: PersonalData {
    /// A spot held as a guest stays held, unless the account holds one already (one hold per person).
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws {
        if try await HoldStore.open(userId: accountId, sql: sql) == nil {
            try await sql.raw("UPDATE holds SET user_id = \(bind: accountId) WHERE user_id = \(bind: deviceId) AND ended_at IS NULL").run()
        }
    }

    /// An open hold is released (its spot is free again); bookings still to come are cancelled
    /// and refunded; booking rows stay for the ledger and the lots' statistics, anonymised.
    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws {
        try await HoldStore.release(userId: userId, at: now, sql: sql)
        try await BookingService.erase(userId: userId, now: now, sql: sql)
        for table in ["holds", "lot_reviews"] {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
    }
}
