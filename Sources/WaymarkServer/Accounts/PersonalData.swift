import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// What an area keeps of a person, so that Accounts can erase a person (ACC-5) and move a
/// device's data into the account it signs in to (ACC-8) without knowing the area's tables.
/// Each area registers one with `AccountsServices.personalData` when its services are made.
protocol PersonalData: Sendable {
    /// Moves what the device has into the account, inside the sign-in's transaction; what is
    /// left behind is erased with the device right after.
    func move(from deviceId: String, to accountId: String, now: Date, sql: any SQLDatabase) async throws
    /// Erases everything the area has of the person, inside the deletion's transaction.
    func erase(userId: String, now: Date, sql: any SQLDatabase) async throws
}

/// The areas' `PersonalData`, filled while the services are made.
final class PersonalDataRegistry: Sendable {
    private let owners = NIOLockedValueBox<[any PersonalData]>([])

    func register(_ owner: any PersonalData) { owners.withLockedValue { $0.append(owner) } }
    var all: [any PersonalData] { owners.withLockedValue { $0 } }
}
