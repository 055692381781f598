import Foundation
import Testing
import WaymarkCore

/// A hike's figures from the device's fixes (TRL-6): drops and jumps, moving time beside total
/// time, distance, gain, steps and calories, the same wherever they are computed.
@Suite struct HikeStatisticsTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let origin = Coordinate(latitude: 34.2450, longitude: -117.2100)

    /// A fix `north` metres north of the origin, `seconds` after the start.
    static func fix(_ seconds: Double, north: Double, east: Double = 0, elevation: Double? = 1500, accuracy: Double = 5) -> HikeFix {
        let c = Geo.offset(origin, east: east, north: north)
        return HikeFix(time: start.addingTimeInterval(seconds), latitude: c.latitude, longitude: c.longitude, elevation: elevation, accuracy: accuracy)
    }

    /// Walking north at 1.2 m/s, a fix every 10 s.
    static func walk(fixes n: Int, from t0: Double = 0, north n0: Double = 0) -> [HikeFix] {
        (0..<n).map { fix(t0 + Double($0) * 10, north: n0 + Double($0) * 12) }
    }

    @Test("TRL-6 a steady walk: its distance, moving time, average speed, steps by height and the ACSM calories")
    func trl6SteadyWalk() throws {
        let fixes = Self.walk(fixes: 60)
        let end = Self.start.addingTimeInterval(600)
        let body = HikerBody(heightCentimetres: 180, weightKilograms: 70, ageYears: 35)
        let s = HikeStatistics(fixes: fixes, start: Self.start, end: end, body: body)
        #expect(abs(s.distanceMetres - 708) < 0.5)
        #expect(s.movingSeconds == 590 && s.elapsedSeconds == 600)
        #expect(abs(s.averageSpeed - 1.2) < 0.001)
        #expect(s.steps == Int((708 / 0.7452).rounded()))
        // Level walking at 72 m/min: VO₂ = 0.1 × 72 + 3.5 = 10.7 ml/kg/min for 590 s, 3.5 at rest
        // for 10 s; 5 kcal per litre, 70 kg.
        let expected = (10.7 * 590 / 60 + 3.5 * 10 / 60) / 1000 * 5 * 70
        #expect(abs(try #require(s.calories) - expected) < 0.01)
        #expect(s.currentSpeed.map { abs($0 - 1.2) < 0.001 } == true)
        #expect(HikeStatistics(fixes: fixes, start: Self.start, end: end, body: HikerBody(heightCentimetres: 180, weightKilograms: 70)).calories == nil,
                "no calories without age, weight and height")
    }

    @Test("TRL-6 a rest is not moving: the receiver's wander while standing adds no distance, and the speed then reads 0")
    func trl6Rest() {
        var rng = SplitMix64(seed: 7)
        let before = Self.walk(fixes: 30)
        let wander = (1...60).map { i in Self.fix(290 + Double(i) * 5, north: 348 + Double.random(in: -2...2, using: &rng), east: Double.random(in: -2...2, using: &rng)) }
        let after = Self.walk(fixes: 30, from: 600, north: 348 + 12)
        let s = HikeStatistics(fixes: before + wander + after, start: Self.start, end: Self.start.addingTimeInterval(900))
        // 29 steps before, the step from where the hiker rested, 29 after; at most the rest's
        // last few seconds (its fixes 5 s apart) count as moving.
        #expect(s.movingSeconds >= 590 && s.movingSeconds <= 600, "\(s.movingSeconds)")
        #expect(abs(s.distanceMetres - Double(29 + 1 + 29) * 12) < 3, "\(s.distanceMetres)")
        let resting = HikeStatistics(fixes: before + wander, start: Self.start, end: Self.start.addingTimeInterval(590))
        #expect(resting.currentSpeed == 0)
        #expect(HikeStatistics(fixes: before, start: Self.start, end: Self.start.addingTimeInterval(1000)).currentSpeed == nil, "signal lost")
    }

    @Test("TRL-6 vague fixes and impossible jumps are dropped; a first fix in the wrong place gives way to the fixes that agree")
    func trl6Drops() {
        var fixes = Self.walk(fixes: 20)
        fixes.insert(Self.fix(55, north: 66, accuracy: 80), at: 6)               // too vague
        fixes.insert(Self.fix(95, north: 2_000), at: 11)                          // 2 km in 5 s
        fixes.insert(Self.fix(10, north: 12), at: 3)                              // the same moment twice
        let s = HikeStatistics(fixes: fixes, start: Self.start, end: Self.start.addingTimeInterval(200))
        #expect(s.droppedFixes == 3 && s.keptFixes == 20)
        #expect(abs(s.distanceMetres - 19 * 12) < 0.5)

        let wrongFirst = [Self.fix(0, north: 5_000)] + Self.walk(fixes: 20, from: 10)
        let w = HikeStatistics(fixes: wrongFirst, start: Self.start, end: Self.start.addingTimeInterval(220))
        #expect(abs(w.distanceMetres - 19 * 12) < 0.5, "the jump between segments counts for nothing")
        #expect(w.keptFixes == 21, "the wrong fix stays alone in its own segment")
    }

    // MARK: Properties, over random walks (a fixed seed: the same walks every run)

    /// A walk with slow and quick stretches, turns and climbs; every step longer than the
    /// receivers' wander and slower than a runner (so no fix is a jump to drop).
    static func randomWalk(_ rng: inout SplitMix64) -> [HikeFix] {
        var t = 0.0, north = 0.0, east = 0.0, elevation = 1200.0
        var out: [HikeFix] = []
        for _ in 0..<Int.random(in: 5...80, using: &rng) {
            out.append(fix(t, north: north, east: east, elevation: elevation, accuracy: Double.random(in: 3...8, using: &rng)))
            let heading = Double.random(in: 0..<(2 * .pi), using: &rng)
            let metres = Double.random(in: 10...40, using: &rng)
            north += metres * cos(heading); east += metres * sin(heading)
            elevation += Double.random(in: -6...8, using: &rng)
            t += max(metres / 5, Double.random(in: 4...60, using: &rng))
        }
        return out
    }

    @Test("TRL-6 property: duplicated fixes and the order they arrive in change nothing")
    func trl6DuplicatesAndOrder() {
        var rng = SplitMix64(seed: 2026)
        for _ in 0..<200 {
            let walk = Self.randomWalk(&rng)
            let end = walk.last!.time.addingTimeInterval(30)
            let base = HikeStatistics(fixes: walk, start: Self.start, end: end)
            var doubled = walk
            for _ in 0..<Int.random(in: 1...10, using: &rng) { doubled.insert(walk.randomElement(using: &rng)!, at: Int.random(in: 0...doubled.count, using: &rng)) }
            let d = HikeStatistics(fixes: doubled, start: Self.start, end: end)
            #expect(d.distanceMetres == base.distanceMetres && d.movingSeconds == base.movingSeconds && d.gainMetres == base.gainMetres)
            let shuffled = HikeStatistics(fixes: walk.shuffled(using: &rng), start: Self.start, end: end)
            #expect(shuffled == base)
        }
    }

    @Test("TRL-6 property: a pause anywhere adds to the total time and never to the moving time or the distance")
    func trl6Pause() {
        var rng = SplitMix64(seed: 18)
        for _ in 0..<200 {
            let walk = Self.randomWalk(&rng)
            let end = walk.last!.time.addingTimeInterval(30)
            let base = HikeStatistics(fixes: walk, start: Self.start, end: end)
            let at = Int.random(in: 0..<walk.count, using: &rng)
            let pause = Double.random(in: 60...1800, using: &rng)
            let still = walk[at]
            var paused = Array(walk[...at])
            // Standing at the fix until the pause ends, then on as before.
            paused += (Array(stride(from: 15.0, to: pause, by: 15)) + [pause]).map { s in
                HikeFix(time: still.time.addingTimeInterval(s), latitude: still.latitude, longitude: still.longitude, elevation: still.elevation, accuracy: still.accuracy)
            }
            paused += walk[(at + 1)...].map { var f = $0; f.time = f.time.addingTimeInterval(pause); return f }
            let p = HikeStatistics(fixes: paused, start: Self.start, end: end.addingTimeInterval(pause))
            #expect(abs(p.movingSeconds - base.movingSeconds) < 1e-6, "moving time")
            #expect(abs(p.distanceMetres - base.distanceMetres) < 1e-6, "distance")
            #expect(abs(p.elapsedSeconds - base.elapsedSeconds - pause) < 1e-6, "total time")
        }
    }

    @Test("TRL-6 property: the distance is never more than the sum of the raw fixes' hops")
    func trl6NeverInflated() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200 {
            var walk = Self.randomWalk(&rng)
            for i in walk.indices { walk[i].latitude += Double.random(in: -0.00003...0.00003, using: &rng) }
            let s = HikeStatistics(fixes: walk, start: Self.start, end: walk.last!.time)
            let hops = zip(walk, walk.dropFirst()).reduce(0) { $0 + Geo.distance($1.0.coordinate, $1.1.coordinate) }
            #expect(s.distanceMetres <= hops + 1e-6)
        }
    }

    @Test("TRL-6 a fix keeps its place, accuracy, elevation and time to the millisecond in the API's form; other shapes are refused")
    func trl6Wire() throws {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let fix = HikeFix(time: start.addingTimeInterval(12.3456), latitude: 34.2456, longitude: -116.8873, elevation: 1503.5, accuracy: 4)
        let wire = fix.wire(start: start)
        #expect(wire == [12.346, 34.2456, -116.8873, 4, 1503.5])
        let back = try #require(HikeFix(wire: wire, start: start))
        #expect(abs(back.time.timeIntervalSince(fix.time)) < 0.001 && back.coordinate == fix.coordinate && back.elevation == 1503.5 && back.accuracy == 4)
        #expect(HikeFix(wire: [1, 34, -116, 5], start: start)?.elevation == nil)
        #expect(HikeFix(wire: [1, 34, -116], start: start) == nil && HikeFix(wire: [1, 34, -116, 5, 1, 2], start: start) == nil)
    }
}
