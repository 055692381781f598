import Foundation

/// One gateway report about one sensor (PRK-2).
public struct SensorReport: Hashable, Sendable, Codable {
    public var sensorId: String
    public var occupied: Bool
    public var observedAt: Date
    public var sequence: Int64

    public init(sensorId: String, occupied: Bool, observedAt: Date, sequence: Int64) {
        self.sensorId = sensorId
        self.occupied = occupied
        self.observedAt = observedAt
        self.sequence = sequence
    }

    /// Position in the sensor's history. Millisecond precision because that is what is stored;
    /// the sequence breaks ties between reports of the same millisecond.
    public var position: ReportPosition {
        ReportPosition(observedAtMillis: Millis.since1970(observedAt), sequence: sequence)
    }
}

/// Instants as Waymark stores and orders them: whole milliseconds since 1970.
public enum Millis {
    /// Rounded down, after rounding to the microsecond: a reported `.923` parses to a binary
    /// fraction a hair below it, and flooring that directly would store `.922`. A Double
    /// resolves present-day instants far below a microsecond, so the first rounding is exact.
    /// (WaymarkAPI's date transcoder rounds the same way.)
    public static func since1970(_ date: Date) -> Int64 {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        return micros >= 0 ? micros / 1000 : (micros - 999) / 1000
    }
}

public struct ReportPosition: Hashable, Sendable, Comparable, Codable {
    public var observedAtMillis: Int64
    public var sequence: Int64

    public init(observedAtMillis: Int64, sequence: Int64) {
        self.observedAtMillis = observedAtMillis
        self.sequence = sequence
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.observedAtMillis, a.sequence) < (b.observedAtMillis, b.sequence)
    }
}

public enum IngestOutcome: String, CaseIterable, Sendable, Codable {
    case accepted, duplicate, stale, unknownSensor, invalid
}

/// What a spot knows about its sensor: the state shown and the newest report applied.
public struct SpotSensorState: Hashable, Sendable {
    public var state: SpotState
    public var lastReport: ReportPosition?

    public init(state: SpotState, lastReport: ReportPosition?) {
        self.state = state
        self.lastReport = lastReport
    }
}

public enum SensorIngest {
    /// Reports from further ahead than this are taken to come from a sensor with a broken clock;
    /// accepting one would freeze the spot, since every true report after it would look stale.
    public static let maxClockSkew: TimeInterval = 300
    public static let maxSensorIdLength = 128

    public static func isValid(_ report: SensorReport, now: Date) -> Bool {
        !report.sensorId.isEmpty
            && report.sensorId.utf8.count <= maxSensorIdLength
            && report.sequence >= 0
            && report.observedAt.timeIntervalSince1970 >= 946_684_800 // 2000-01-01: no sensor reports from before
            && report.observedAt.timeIntervalSince(now) <= maxClockSkew
    }

    /// The shown state after a sensor report. Reservations outlive an empty reading (the driver
    /// is still on the way); a car on the spot always shows as occupied; closed stays closed.
    public static func state(after current: SpotState, occupied: Bool) -> SpotState {
        switch (current, occupied) {
        case (.closed, _): .closed
        case (_, true): .occupied
        case (.held, false), (.booked, false): current
        case (_, false): .free
        }
    }

    /// Applies one report to a spot. Returns the outcome and the spot's new sensor state.
    public static func apply(_ report: SensorReport, to spot: SpotSensorState) -> (IngestOutcome, SpotSensorState) {
        let position = report.position
        if let last = spot.lastReport {
            if position == last { return (.duplicate, spot) }
            if position < last { return (.stale, spot) }
        }
        return (.accepted, SpotSensorState(state: state(after: spot.state, occupied: report.occupied), lastReport: position))
    }
}
