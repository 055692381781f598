import Foundation
import Testing
@testable import WaymarkCore

@Suite("Sensor ingest rules (PRK-2)")
struct SensorIngestTests {
    let t0 = Date(timeIntervalSince1970: 1_795_021_200)

    func report(_ occupied: Bool, _ dt: TimeInterval, seq: Int64) -> SensorReport {
        SensorReport(sensorId: "s1", occupied: occupied, observedAt: t0.addingTimeInterval(dt), sequence: seq)
    }

    @Test("PRK-2 a report's millisecond is the one it was sent with (found by the crash test)")
    func millisecondsSurviveParsing() {
        // A Date counts from 2001; parsed dates are built that way, and the move to 1970 lands
        // about one in nine milliseconds a hair below the true value: flooring gave ms - 1.
        for ms in stride(from: Int64(1_795_319_535_000), to: 1_795_319_536_000, by: 1) {
            let date = Date(timeIntervalSinceReferenceDate: Double(ms / 1000 - 978_307_200) + Double(ms % 1000) / 1000)
            #expect(Millis.since1970(date) == ms)
        }
        #expect(Millis.since1970(Date(timeIntervalSince1970: -0.0005)) == -1)
    }

    @Test("PRK-2 newer reports apply, equal ones are duplicates, older ones are stale")
    func ordering() {
        var spot = SpotSensorState(state: .unknown, lastReport: nil)
        var outcome: IngestOutcome
        (outcome, spot) = SensorIngest.apply(report(true, 0, seq: 1), to: spot)
        #expect(outcome == .accepted && spot.state == .occupied)
        (outcome, spot) = SensorIngest.apply(report(true, 0, seq: 1), to: spot)
        #expect(outcome == .duplicate && spot.state == .occupied)
        (outcome, spot) = SensorIngest.apply(report(false, -1, seq: 99), to: spot)
        #expect(outcome == .stale && spot.state == .occupied)
        (outcome, spot) = SensorIngest.apply(report(false, 0, seq: 0), to: spot)
        #expect(outcome == .stale)
        (outcome, spot) = SensorIngest.apply(report(false, 0, seq: 2), to: spot)
        #expect(outcome == .accepted && spot.state == .free)
    }

    @Test("PRK-2 property: any shuffle of a sensor's reports ends in the newest report's state")
    func shuffledReportsConverge() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let reports = (0..<Int.random(in: 1...30, using: &rng)).map { i in
                report(Bool.random(using: &rng), Double(Int.random(in: 0...5, using: &rng)), seq: Int64(i))
            }
            let newest = reports.max { $0.position < $1.position }!
            var spot = SpotSensorState(state: .unknown, lastReport: nil)
            for r in reports.shuffled(using: &rng) { spot = SensorIngest.apply(r, to: spot).1 }
            #expect(spot.state == (newest.occupied ? .occupied : .free))
            #expect(spot.lastReport == newest.position)
        }
    }

    @Test("PRK-2 reservations and closures outlive an empty reading; a car always shows")
    func stateAfterReport() {
        #expect(SensorIngest.state(after: .held, occupied: false) == .held)
        #expect(SensorIngest.state(after: .booked, occupied: false) == .booked)
        #expect(SensorIngest.state(after: .held, occupied: true) == .occupied)
        #expect(SensorIngest.state(after: .closed, occupied: true) == .closed)
        #expect(SensorIngest.state(after: .unknown, occupied: false) == .free)
    }

    @Test("PRK-2 reports from the future, before 2000, with negative sequence or bad ids are invalid")
    func validity() {
        #expect(SensorIngest.isValid(report(true, 0, seq: 0), now: t0))
        #expect(SensorIngest.isValid(report(true, 299, seq: 0), now: t0))
        #expect(!SensorIngest.isValid(report(true, 301, seq: 0), now: t0))
        #expect(!SensorIngest.isValid(report(true, 0, seq: -1), now: t0))
        #expect(!SensorIngest.isValid(SensorReport(sensorId: "", occupied: true, observedAt: t0, sequence: 0), now: t0))
        #expect(!SensorIngest.isValid(SensorReport(sensorId: String(repeating: "x", count: 129), occupied: true, observedAt: t0, sequence: 0), now: t0))
        #expect(!SensorIngest.isValid(SensorReport(sensorId: "s", occupied: true, observedAt: Date(timeIntervalSince1970: 0), sequence: 0), now: t0))
    }
}

@Suite("Congestion and permits (PRK-4, PRK-16)")
struct CongestionTests {
    @Test("PRK-4 thresholds at 65 % and 85 %", arguments: [
        (0.0, CongestionLevel.green), (0.649, .green), (0.65, .yellow), (0.849, .yellow), (0.85, .red), (1.0, .red),
    ])
    func levels(fraction: Double, level: CongestionLevel) {
        #expect(CongestionLevel(fraction: fraction) == level)
    }

    @Test("PRK-4 occupancy counts held and booked as taken and leaves closed spots out")
    func counts() {
        var c = LotCounts(states: [.free, .occupied, .held, .booked, .closed, .unknown, .free, .free])
        #expect(c.total == 7)
        #expect(c.taken == 3)
        #expect(abs(c.fraction - 3.0 / 7.0) < 1e-12)
        c.move(from: .free, to: .occupied)
        #expect(c.occupied == 2 && c.free == 2)
        #expect(LotCounts().fraction == 0)
    }

    @Test("PRK-16 permit rules by time of week")
    func permits() {
        let rules = [PermitRule(weekdays: PermitRule.weekdaysMondayToFriday, startMinute: 7 * 60, endMinute: 22 * 60, permits: [.green, .black])]
        #expect(PermitCheck.required(by: rules, weekday: 2, minute: 8 * 60) == [.green, .black])
        #expect(PermitCheck.required(by: rules, weekday: 1, minute: 8 * 60) == nil) // Sunday: open to all
        #expect(PermitCheck.required(by: rules, weekday: 2, minute: 22 * 60) == nil) // end is exclusive
        #expect(PermitCheck.isAllowed(holding: [.black], rules: rules, weekday: 3, minute: 600))
        #expect(!PermitCheck.isAllowed(holding: [.yellow], rules: rules, weekday: 3, minute: 600))
        #expect(PermitCheck.isAllowed(holding: [], rules: rules, weekday: 7, minute: 600))
    }
}

@Suite("Geometry (PRK-1)")
struct GeoTests {
    @Test("PRK-1 offsets and distances agree over a campus")
    func offsets() {
        let o = Coordinate(latitude: 33.8823, longitude: -117.8851)
        let p = Geo.offset(o, east: 300, north: -400)
        #expect(abs(Geo.distance(o, p) - 500) < 1)
        let back = Geo.localMetres(of: p, from: o)
        #expect(abs(back.east - 300) < 0.01 && abs(back.north + 400) < 0.01)
    }

    @Test("PRK-1 point in polygon and centroid")
    func polygon() {
        let o = Coordinate(latitude: 33.88, longitude: -117.88)
        let square = [(-50.0, -50.0), (50, -50), (50, 50), (-50, 50)].map { Geo.offset(o, east: $0.0, north: $0.1) }
        #expect(Geo.contains(square, o))
        #expect(!Geo.contains(square, Geo.offset(o, east: 60, north: 0)))
        let c = Geo.centroid(square)
        #expect(Geo.distance(c, o) < 0.01)
    }
}

@Suite("Sensor health (PRK-1, PRK-2)")
struct SensorHealthTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("PRK-1 a sensor is silent past its keep-alive, low below 20 % battery, weak below -120 dBm or -12 dB; never reported is no concern of these")
    func concerns() {
        let keep: TimeInterval = 90 * 60
        func c(_ ago: TimeInterval?, _ v: SensorVitals? = nil) -> [SensorHealth.Concern]? {
            SensorHealth.concerns(lastReport: ago.map { Self.now.addingTimeInterval(-$0) }, vitals: v, keepAlive: keep, now: Self.now)
        }
        #expect(c(nil) == nil)
        #expect(c(keep) == [])
        #expect(c(keep + 1) == [.silent])
        #expect(c(60, SensorVitals(battery: 19, rssi: -80, snr: 7)) == [.lowBattery])
        #expect(c(60, SensorVitals(battery: 20, rssi: -121, snr: 7)) == [.weakSignal])
        #expect(c(keep + 1, SensorVitals(battery: 5, rssi: -90, snr: -13)) == [.silent, .lowBattery, .weakSignal])
        #expect(c(60, SensorVitals(battery: nil, rssi: nil, snr: 2)) == [])
    }

    @Test("PRK-2 vitals outside what a radio or battery reports are dropped whole")
    func vitalsChecked() {
        #expect(SensorVitals(battery: nil, rssi: nil, snr: nil) == nil)
        #expect(SensorVitals(battery: 101, rssi: nil, snr: nil) == nil)
        #expect(SensorVitals(battery: 50, rssi: 3, snr: nil) == nil)
        #expect(SensorVitals(battery: 50, rssi: -.infinity, snr: nil) == nil)
        #expect(SensorVitals(battery: 50, rssi: -100, snr: 51) == nil)
        #expect(SensorVitals(battery: 0, rssi: -200, snr: -50)?.battery == 0)
    }
}
