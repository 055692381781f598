import Foundation
import Logging

/// Keeps credentials out of the log. At `trace` Vapor logs every request head, Authorization
/// header included, and any message may quote input that carries a secret; this handler masks
/// bearer credentials and gateway secrets in messages and metadata before the real handler
/// writes them. Messages without either pattern (nearly all) pass through untouched.
struct RedactingLogHandler: LogHandler {
    var base: any LogHandler

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }
    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }
    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Self.redact(event.message.description))
        event.metadata = event.metadata?.mapValues(Self.redact)
        base.log(event: event)
    }

    /// `Bearer <anything>` and `wmg_<secret>` become `Bearer [redacted]` and `wmg_[redacted]`.
    static func redact(_ text: String) -> String {
        guard text.contains("wmg_") || text.range(of: "bearer", options: .caseInsensitive) != nil else { return text }
        var out = text
        for (pattern, template) in [("(?i)(bearer)\\s+[^\\s;,\"'}]+", "$1 [redacted]"), ("wmg_[A-Za-z0-9_\\-]+", "wmg_[redacted]")] {
            let regex = try! NSRegularExpression(pattern: pattern)
            out = regex.stringByReplacingMatches(in: out, range: NSRange(out.startIndex..., in: out), withTemplate: template)
        }
        return out
    }

    static func redact(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let s): .string(redact(s))
        case .stringConvertible(let c): .string(redact(c.description))
        case .array(let a): .array(a.map(redact))
        case .dictionary(let d): .dictionary(d.mapValues(redact))
        }
    }
}
