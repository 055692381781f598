import Foundation
import WaymarkAPI

public typealias OperatorAnalyticsReport = Components.Schemas.OperatorAnalytics

/// The operator's figures (PRK-17). Needs an operator's session: anyone else gets
/// `WaymarkClientError` with status 403 and type `operator-required`.
extension WaymarkClient {
    /// `from` and `to` are site-local days, `YYYY-MM-DD`, both included; nil for the last 14 days.
    public func operatorAnalytics(from: String? = nil, to: String? = nil) async throws -> OperatorAnalyticsReport {
        let output = try await call { try await client.getOperatorAnalytics(query: .init(from: from, to: to)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }
}
