import Foundation
import OpenAPIRuntime

/// RFC 3339 instants as Waymark writes and reads them: written with milliseconds (sensor
/// reports are ordered to the millisecond), read with or without fractional seconds, since
/// gateways and webhooks (e.g. The Things Stack) send both.
public struct WaymarkDateTranscoder: DateTranscoder {
    public init() {}

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let plain = Date.ISO8601FormatStyle()

    public func encode(_ date: Date) throws -> String {
        Self.withFraction.format(date)
    }

    public func decode(_ string: String) throws -> Date {
        if let d = try? Self.withFraction.parse(string) { return d }
        if let d = try? Self.plain.parse(string) { return d }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected an RFC 3339 date-time, got '\(string)'."))
    }

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
