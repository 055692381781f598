import Foundation
import Testing
import WaymarkCore

/// PRK-3: the emulated campus day that drives the gateway emulator.
@Suite("Campus day (PRK-3)")
struct CampusDayTests {
    typealias Flip = CampusDaySimulator.Flip

    static let weekdays = 2...6
    static let lotIndices = 0..<16

    func target(_ kind: LotKind, _ index: Int, _ weekday: Weekday, _ hour: Double) -> Double {
        CampusDay.targetFraction(kind: kind, lotIndex: index, weekday: weekday, minuteOfDay: hour * 60)
    }

    // MARK: Target curve

    @Test("PRK-3: weekday target is low at 4:00 and high at 11:00")
    func prk3NightAndMorning() {
        for kind in LotKind.allCases {
            for i in Self.lotIndices {
                for day in 2...5 {
                    #expect(target(kind, i, day, 4) < 0.1, "\(kind) \(i) day \(day)")
                    #expect(target(kind, i, day, 11) > 0.65, "\(kind) \(i) day \(day)")
                }
                #expect(target(.structure, i, 3, 11) > 0.85)
            }
        }
    }

    @Test("PRK-3: structures fill first: every structure above every surface lot at 9:00")
    func prk3StructuresFirst() {
        let structures = Self.lotIndices.map { target(.structure, $0, 3, 9) }
        let surface = Self.lotIndices.map { target(.surface, $0, 3, 9) }
        #expect(structures.min()! > surface.max()!)
    }

    @Test("PRK-3: the peak is late morning to early afternoon, near 0.95 in structures and below in surface lots")
    func prk3Peak() {
        for i in Self.lotIndices {
            for kind in LotKind.allCases {
                let day = (0..<1440).map { CampusDay.targetFraction(kind: kind, lotIndex: i, weekday: 4, minuteOfDay: Double($0)) }
                let peak = day.max()!
                let peakMinute = day.firstIndex(of: peak)!
                #expect((10 * 60 + 30...13 * 60).contains(peakMinute), "\(kind) \(i) peaks at \(peakMinute / 60):\(peakMinute % 60)")
                switch kind {
                case .structure: #expect((0.88...0.98).contains(peak), "\(i) \(peak)")
                case .surface: #expect((0.68...0.86).contains(peak), "\(i) \(peak)")
                }
            }
        }
    }

    @Test("PRK-3: afternoon departures, then a smaller evening-class bump")
    func prk3Evening() {
        for kind in LotKind.allCases {
            for i in Self.lotIndices {
                let dip = target(kind, i, 3, 17.5), bump = target(kind, i, 3, 19.5)
                #expect(target(kind, i, 3, 15) > target(kind, i, 3, 17), "\(kind) \(i)")
                #expect(bump > dip + 0.05, "\(kind) \(i)")
                #expect(bump < target(kind, i, 3, 12) - 0.3, "\(kind) \(i)")
                #expect(target(kind, i, 3, 23.5) < 0.1, "\(kind) \(i)")
            }
        }
    }

    @Test("PRK-3: weekends are lower than weekdays, and Friday lighter than Thursday")
    func prk3Weekend() {
        for kind in LotKind.allCases {
            for i in Self.lotIndices {
                for hour in stride(from: 7.0, through: 21, by: 0.5) {
                    for weekend in [1, 7] {
                        #expect(target(kind, i, weekend, hour) <= target(kind, i, 4, hour), "\(kind) \(i) \(weekend) \(hour)")
                    }
                    #expect(target(kind, i, 6, hour) <= target(kind, i, 5, hour) + 1e-9, "\(kind) \(i) \(hour)")
                }
                for weekend in [1, 7] {
                    let day = (0..<24).map { target(kind, i, weekend, Double($0)) }
                    #expect(day.max()! <= 0.2 && day.max()! >= 0.05, "\(kind) \(i) \(weekend)")
                }
                #expect(target(kind, i, 6, 11) < target(kind, i, 5, 11) - 0.2, "\(kind) \(i)")
            }
        }
    }

    @Test("PRK-3: smooth minute to minute over the whole week, across midnights, within 0...1")
    func prk3Smooth() {
        for kind in LotKind.allCases {
            for i in [0, 3, 7] {
                var previous = CampusDay.targetFraction(kind: kind, lotIndex: i, weekday: 7, minuteOfDay: 1439)
                for day in 1...7 {
                    for minute in 0..<1440 {
                        let v = CampusDay.targetFraction(kind: kind, lotIndex: i, weekday: day, minuteOfDay: Double(minute))
                        #expect((0...1).contains(v))
                        if abs(v - previous) >= 0.01 {
                            Issue.record("\(kind) \(i): jump of \(v - previous) at day \(day) minute \(minute)")
                            return
                        }
                        previous = v
                    }
                }
            }
        }
        // Minutes past midnight belong to the next day.
        let late = CampusDay.targetFraction(kind: .surface, lotIndex: 2, weekday: 7, minuteOfDay: 1440 + 600)
        #expect(late == CampusDay.targetFraction(kind: .surface, lotIndex: 2, weekday: 1, minuteOfDay: 600))
        let early = CampusDay.targetFraction(kind: .surface, lotIndex: 2, weekday: 1, minuteOfDay: -60)
        #expect(early == CampusDay.targetFraction(kind: .surface, lotIndex: 2, weekday: 7, minuteOfDay: 1380))
    }

    @Test("PRK-3: lots do not move in lockstep")
    func prk3LotsDiffer() {
        let values = Set(Self.lotIndices.map { (target(.structure, $0, 3, 9) * 1000).rounded() })
        #expect(values.count > 4)
    }

    // MARK: Random numbers

    @Test("PRK-3: SplitMix64 gives the reference sequence")
    func prk3SplitMix() {
        var g = SplitMix64(seed: 0)
        #expect(g.next() == 0xE220_A839_7B1D_CDAF)
        #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let sa = (0..<8).map { _ in a.next() }, sb = (0..<8).map { _ in b.next() }, sc = (0..<8).map { _ in c.next() }
        #expect(sa == sb)
        #expect(sa != sc)
    }

    // MARK: Simulator

    static func apply(_ flips: [Flip], to states: inout [SpotState], lot: Int = 0) {
        for f in flips where f.lotIndex == lot { states[f.ordinal] = f.occupied ? .occupied : .free }
    }

    @Test("PRK-3: the simulator moves a lot toward its target, a bounded number of spots per step")
    func prk3TowardTarget() {
        let sim = CampusDaySimulator(maxChangesPerLot: 20)
        var rng = SplitMix64(seed: 1)
        var states = Array(repeating: SpotState.free, count: 600)
        let goal = target(.structure, 0, 4, 11)
        var last = 0.0
        for step in 0..<150 {
            let flips = sim.step(lots: [.init(index: 0, kind: .structure, states: states)], weekday: 4, minuteOfDay: 660, rng: &rng)
            #expect(flips.count <= 20)
            #expect(Set(flips.map(\.ordinal)).count == flips.count, "one change per spot per step")
            #expect(flips.allSatisfy { $0.lotIndex == 0 && states[$0.ordinal] != ($0.occupied ? .occupied : .free) },
                    "a flip must change something")
            Self.apply(flips, to: &states)
            let fraction = LotCounts(states: states).fraction
            if step < 20 { #expect(fraction > last, "filling at step \(step)") }
            last = fraction
        }
        #expect(abs(last - goal) < 0.05, "\(last) vs \(goal)")

        // And empties it at night.
        let night = target(.structure, 0, 4, 3)
        for _ in 0..<200 {
            let flips = sim.step(lots: [.init(index: 0, kind: .structure, states: states)], weekday: 4, minuteOfDay: 180, rng: &rng)
            #expect(flips.count <= 20)
            Self.apply(flips, to: &states)
        }
        #expect(abs(LotCounts(states: states).fraction - night) < 0.03)
    }

    @Test("PRK-3: held, booked and closed spots are never flipped")
    func prk3LeavesReservedAlone() {
        var states = (0..<400).map { i -> SpotState in
            if i % 7 == 0 { return .held }
            if i % 11 == 0 { return .booked }
            if i % 13 == 0 { return .closed }
            if i % 17 == 0 { return .unknown }
            return i % 2 == 0 ? .occupied : .free
        }
        let fixed = states.indices.filter { [.held, .booked, .closed].contains(states[$0]) }
        let before = fixed.map { states[$0] }
        let sim = CampusDaySimulator(maxChangesPerLot: 40)
        var rng = SplitMix64(seed: 9)
        for minute in stride(from: 0, to: 1440, by: 5) {
            for kind in LotKind.allCases {
                let flips = sim.step(lots: [.init(index: 3, kind: kind, states: states)], weekday: 3,
                                     minuteOfDay: Double(minute), rng: &rng)
                let touched = flips.filter { [.held, .booked, .closed].contains(states[$0.ordinal]) }.map(\.ordinal)
                #expect(touched.count == 0, "touched \(touched.prefix(5)) at \(minute)")
                Self.apply(flips, to: &states, lot: 3)
            }
        }
        #expect(fixed.map { states[$0] } == before)
        #expect(!states.contains(.unknown), "silent sensors report again over a day")
    }

    @Test("PRK-3: arrivals fill a structure from the entrance and ground floor up; departures are random")
    func prk3BottomUp() {
        let sim = CampusDaySimulator(maxChangesPerLot: 25)
        var rng = SplitMix64(seed: 5)
        var states = Array(repeating: SpotState.free, count: 1_000)
        while LotCounts(states: states).fraction < 0.4 {
            let flips = sim.step(lots: [.init(index: 0, kind: .structure, states: states)], weekday: 3, minuteOfDay: 690, rng: &rng)
            Self.apply(flips, to: &states)
        }
        let firstFifth = states[0..<200].filter { $0 == .occupied }.count
        let lastFifth = states[800..<1000].filter { $0 == .occupied }.count
        #expect(firstFifth > 150 && lastFifth < 30, "\(firstFifth) vs \(lastFifth)")

        // Leaving at night takes cars from everywhere, not just the far end.
        var leaving = Array(repeating: SpotState.occupied, count: 1_000)
        let flips = sim.step(lots: [.init(index: 0, kind: .structure, states: leaving)], weekday: 3, minuteOfDay: 180, rng: &rng)
        #expect(flips.count == 25 && flips.allSatisfy { !$0.occupied })
        #expect(flips.contains { $0.ordinal < 500 } && flips.contains { $0.ordinal >= 500 })
        Self.apply(flips, to: &leaving)
    }

    @Test("PRK-3: the same seed gives the same day, another seed another day")
    func prk3Deterministic() {
        func run(seed: UInt64) -> [String] {
            var rng = SplitMix64(seed: seed)
            let site = DemoCampus.fullerton
            var states = site.lots.enumerated().map {
                CampusDaySimulator.initialStates(for: $1, lotIndex: $0, weekday: 2, minuteOfDay: 420, rng: &rng)
            }
            let sim = CampusDaySimulator()
            var log: [String] = []
            for minute in stride(from: 420, to: 720, by: 3) {
                let lots = site.lots.indices.map { CampusDaySimulator.Lot(index: $0, kind: site.lots[$0].kind, states: states[$0]) }
                let flips = sim.step(lots: lots, weekday: 2, minuteOfDay: Double(minute), rng: &rng)
                for f in flips {
                    states[f.lotIndex][f.ordinal] = f.occupied ? .occupied : .free
                    log.append("\(f.lotIndex)/\(f.ordinal)/\(f.occupied)")
                }
            }
            return log + states.map { String($0.map(\.rawValue)) }
        }
        let a = run(seed: 2024), b = run(seed: 2024), c = run(seed: 2025)
        #expect(!a.isEmpty)
        let firstDifference = a.indices.first { $0 >= b.count || a[$0] != b[$0] }
        #expect(a.count == b.count && firstDifference == nil, "runs differ from entry \(firstDifference ?? -1)")
        let differs = a != c
        #expect(differs)
    }

    @Test("PRK-3: initial states are free or occupied, near the target, and reproducible")
    func prk3InitialStates() {
        let site = DemoCampus.fullerton
        for (i, lot) in site.lots.enumerated() {
            var r1 = SplitMix64(seed: 77), r2 = SplitMix64(seed: 77)
            let states = CampusDaySimulator.initialStates(for: lot, lotIndex: i, weekday: 4, minuteOfDay: 660, rng: &r1)
            let again = CampusDaySimulator.initialStates(for: lot, lotIndex: i, weekday: 4, minuteOfDay: 660, rng: &r2)
            let same = states == again
            #expect(same, "\(lot.code)")
            #expect(states.count == lot.capacity)
            #expect(states.allSatisfy { $0 == .free || $0 == .occupied })
            let goal = CampusDay.targetFraction(kind: lot.kind, lotIndex: i, weekday: 4, minuteOfDay: 660)
            #expect(abs(LotCounts(states: states).fraction - goal) <= 0.03, "\(lot.code)")
            var r3 = SplitMix64(seed: 77)
            let night = CampusDaySimulator.initialStates(for: lot, lotIndex: i, weekday: 4, minuteOfDay: 240, rng: &r3)
            #expect(LotCounts(states: night).fraction < 0.1, "\(lot.code)")
        }
    }
}
