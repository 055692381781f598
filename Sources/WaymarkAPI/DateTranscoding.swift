import Foundation
import OpenAPIRuntime

/// RFC 3339 instants as Waymark writes and reads them: written with milliseconds (sensor
/// reports are ordered to the millisecond), read with or without fractional seconds, since
/// gateways and webhooks (e.g. The Things Stack) send both.
public struct WaymarkDateTranscoder: DateTranscoder {
    public init() {}

    public func encode(_ date: Date) throws -> String {
        RFC3339.format(millis: RFC3339.millis(date))
    }

    /// Whole milliseconds since 1970 as Waymark stores and orders instants.
    public static func millis(_ date: Date) -> Int64 { RFC3339.millis(date) }

    /// What `encode` writes for the instant `millis` milliseconds after 1970.
    public static func string(millis: Int64) -> String { RFC3339.format(millis: millis) }

    public func decode(_ string: String) throws -> Date {
        if let d = RFC3339.parse(string) { return d }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: Self.invalidDateMessage))
    }

    /// Says what was wrong when a date-time cannot be read. The value itself is left out: it is
    /// the caller's input, and the message may be shown back to them.
    public static let invalidDateMessage = "A date-time is not RFC 3339 (e.g. 2026-11-22T16:00:00.000Z)."

    /// For JSON coded outside the generated code (live event data).
    public static var encodingStrategy: JSONEncoder.DateEncodingStrategy {
        .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(try WaymarkDateTranscoder().encode(date))
        }
    }

    public static var decodingStrategy: JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let c = try decoder.singleValueContainer()
            return try WaymarkDateTranscoder().decode(try c.decode(String.self))
        }
    }
}

extension Configuration {
    /// The coding configuration every Waymark server and client uses: compact JSON (the
    /// generator's default pretty-prints, which costs bytes on every phone request).
    public static var waymark: Configuration {
        Configuration(dateTranscoder: WaymarkDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    }
}
