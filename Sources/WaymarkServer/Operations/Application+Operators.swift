import Foundation
import Vapor

public struct OperatorListing: Sendable {
    public var username: String?
    public var email: String?
    public var grantedAt: Date
}

/// Operator administration (PRK-17) for the command line and tests.
extension Application {
    /// By email address or username; false when no account has it.
    public func grantOperator(login: String) async throws -> Bool {
        let s = waymark
        return try await s.operations.operators.grant(login: login, now: s.now()) != nil
    }

    /// False when no such account is an operator.
    public func revokeOperator(login: String) async throws -> Bool {
        try await waymark.operations.operators.revoke(login: login)
    }

    public func listOperators() async throws -> [OperatorListing] {
        try await waymark.operations.operators.list().map { OperatorListing(username: $0.username, email: $0.email, grantedAt: $0.grantedAt) }
    }
}
