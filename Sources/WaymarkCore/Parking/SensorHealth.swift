import Foundation

/// What a sensor says about itself beside the car (PRK-2): battery and, over LoRaWAN, how well
/// its gateway heard it. Any part may be missing; gateways report what they know.
public struct SensorVitals: Hashable, Sendable, Codable {
    /// Percent, 0…100.
    public var battery: Int?
    /// Received signal strength at the gateway, dBm.
    public var rssi: Double?
    /// Signal-to-noise ratio at the gateway, dB.
    public var snr: Double?

    /// Nil when nothing is given or a value is outside what any radio or battery reports, so a
    /// gateway's garbage never shows as a sensor's health.
    public init?(battery: Int?, rssi: Double?, snr: Double?) {
        if battery == nil, rssi == nil, snr == nil { return nil }
        if let battery, !(0...100).contains(battery) { return nil }
        if let rssi, !(rssi.isFinite && (-200...0).contains(rssi)) { return nil }
        if let snr, !(snr.isFinite && (-50...50).contains(snr)) { return nil }
        self.battery = battery
        self.rssi = rssi
        self.snr = snr
    }
}

/// Which sensors an operator should look at, and why (PRK-1).
public enum SensorHealth {
    public enum Concern: String, CaseIterable, Sendable, Comparable {
        /// Reported once, then quiet for longer than the keep-alive: its spot shows unknown.
        case silent
        case lowBattery
        case weakSignal

        public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// Below this a battery is due for replacement within weeks on a typical parking sensor.
    public static let lowBatteryBelow = 20
    /// LoRa gateways still decode well below these, but a sensor there loses uplinks in rain
    /// or behind a parked van.
    public static let weakRSSIBelow = -120.0
    public static let weakSNRBelow = -12.0

    /// Nil when the sensor has never reported (a new site before its sensors are installed).
    public static func concerns(lastReport: Date?, vitals: SensorVitals?, keepAlive: TimeInterval, now: Date) -> [Concern]? {
        guard let lastReport else { return nil }
        var found: [Concern] = []
        if now.timeIntervalSince(lastReport) > keepAlive { found.append(.silent) }
        if let battery = vitals?.battery, battery < lowBatteryBelow { found.append(.lowBattery) }
        if (vitals?.rssi).map({ $0 < weakRSSIBelow }) == true || (vitals?.snr).map({ $0 < weakSNRBelow }) == true {
            found.append(.weakSignal)
        }
        return found
    }
}
