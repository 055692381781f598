import Foundation

/// What is wrong in an archive: the file, the feature and the rule, in words for the person who
/// edits the data.
public struct IMDFProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The feature (or the archive, for an archive-wide rule) cannot be used and was left out.
        case error
        /// Used anyway, with the stated repair.
        case warning
    }

    public var severity: Severity
    public var file: String
    public var featureId: String?
    public var rule: String

    public init(_ severity: Severity, file: String, featureId: String? = nil, rule: String) {
        self.severity = severity
        self.file = file
        self.featureId = featureId
        self.rule = rule
    }

    public var description: String {
        "\(severity.rawValue): \(file)\(featureId.map { ", feature \($0)" } ?? ""): \(rule)"
    }
}

extension [IMDFProblem] {
    /// "1. error: unit.geojson, feature …: …", one line per problem, numbered from 1.
    public var numbered: [String] {
        enumerated().map { "\($0.offset + 1). \($0.element)" }
    }
    public var errors: Int { count { $0.severity == .error } }
    public var warnings: Int { count { $0.severity == .warning } }
}
