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

/// Operators of one site (PRK-1) for the command line: the first operator of a site is granted
/// here; after that the site's operators grant each other.
extension Application {
    public enum SiteGrant: Sendable { case granted, noSuchSite, noSuchAccount }

    /// `siteCode` as in the site file; the account by email address or username.
    public func grantSiteOperator(siteCode: String, login: String) async throws -> SiteGrant {
        let s = waymark
        guard let site = try await s.parking.queries.site(code: siteCode) else { return .noSuchSite }
        return try await s.parking.siteOperators.grant(siteId: site.id, login: login, by: nil, now: s.now()) == nil ? .noSuchAccount : .granted
    }

    /// False when there is no such site or the account does not run it.
    public func revokeSiteOperator(siteCode: String, login: String) async throws -> Bool {
        let s = waymark
        guard let site = try await s.parking.queries.site(code: siteCode),
              let user = try await s.accounts.queries.account(login: login) else { return false }
        return try await s.parking.siteOperators.revoke(siteId: site.id, userId: user.id, by: nil, now: s.now())
    }
}
