import Foundation

/// How full a commuter campus is over a week (PRK-3). The gateway emulator needs plausible
/// occupancy without real sensors; the shape follows a commuter campus like CSU Fullerton,
/// where nearly everyone arrives by car for classes.
public enum CampusDay {
    /// Expected share of a lot's usable spots taken at a site-local weekday (1 = Sunday) and
    /// minute after midnight; minutes outside one day roll over into the neighbouring days.
    ///
    /// Built from logistic steps and a Gaussian rather than a table so that it is smooth at every
    /// minute; a jump would show as a burst of sensor changes. `lotIndex` only shifts times and
    /// levels a little, so that lots do not move in lockstep.
    public static func targetFraction(kind: LotKind, lotIndex: Int, weekday: Weekday, minuteOfDay: Double) -> Double {
        let (day, minute) = normalised(weekday: weekday, minute: minuteOfDay)
        let h = minute / 60
        let p = Profile(kind: kind, lotIndex: lotIndex)

        let value: Double
        switch day {
        case 2...6:
            // Friday has few classes and almost none in the evening.
            let friday = day == 6
            let dayScale = friday ? 0.6 : 1.0, eveningScale = friday ? 0.25 : 1.0
            // Drivers arrive for the first classes and leave after the last afternoon ones.
            let plateau = p.plateau * rise(h, at: p.arrive, width: 0.6) * (1 - rise(h, at: p.depart, width: 0.7))
            // Late-morning classes overlap the early ones: the daily peak.
            let midday = p.midday * exp(-pow(h - p.peak, 2) / (2 * 1.3 * 1.3))
            let evening = p.evening * rise(h, at: 17.75, width: 0.4) * (1 - rise(h, at: 21.25, width: 0.35))
            value = p.night + p.scale * (dayScale * (plateau + midday) + eveningScale * evening)
        default:
            // Weekend: a few library users, events and Saturday classes.
            let busy = day == 7 ? p.weekend : p.weekend * 0.5
            value = p.night + p.scale * busy * rise(h, at: 9.5, width: 0.8) * (1 - rise(h, at: 16, width: 1.0))
        }
        return min(1, max(0, value))
    }

    /// Level and timing of one lot's curve.
    struct Profile {
        var night: Double, plateau: Double, midday: Double, evening: Double, weekend: Double
        var arrive: Double, depart: Double, peak: Double, scale: Double

        init(kind: LotKind, lotIndex: Int) {
            let shift = 0.3 * CampusDay.jitter(lotIndex, salt: 1)
            scale = 1 + 0.03 * CampusDay.jitter(lotIndex, salt: 2)
            switch kind {
            case .structure:
                // Structures are nearest the classrooms and have the most spaces, so they fill
                // first and fullest.
                night = 0.03; plateau = 0.74; midday = 0.17; evening = 0.36; weekend = 0.14
                arrive = 8.2 + shift; depart = 16.0 + shift; peak = 11.6 + shift
            case .surface:
                // Surface lots take the overflow, later in the morning.
                night = 0.04; plateau = 0.60; midday = 0.16; evening = 0.28; weekend = 0.12
                arrive = 9.0 + shift; depart = 16.2 + shift; peak = 11.9 + shift
            }
        }
    }

    /// Logistic step from 0 to 1 centred on `at` hours.
    static func rise(_ h: Double, at centre: Double, width: Double) -> Double {
        1 / (1 + exp(-(h - centre) / width))
    }

    /// A fixed value in -1...1 per lot, so a lot keeps its character from run to run.
    static func jitter(_ lotIndex: Int, salt: UInt64) -> Double {
        var g = SplitMix64(seed: (UInt64(bitPattern: Int64(lotIndex)) &* 0x9E37_79B9) ^ salt)
        return Double(g.next() >> 11) / Double(1 << 53) * 2 - 1
    }

    static func normalised(weekday: Weekday, minute: Double) -> (Weekday, Double) {
        guard minute.isFinite else { return (((weekday - 1) % 7 + 7) % 7 + 1, 0) }
        let days = (minute / 1440).rounded(.down)
        var m = minute - days * 1440
        if m >= 1440 { m = 0 }
        let dayShift = Int(days.truncatingRemainder(dividingBy: 7))
        let day = ((weekday - 1 + dayShift) % 7 + 7) % 7 + 1
        return (day, max(0, m))
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and the same sequence on every platform,
/// which the system generator does not promise. Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One step of the emulated campus: which spots change so that every lot drifts toward
/// `CampusDay.targetFraction`. Pure: states in, changes out; the caller applies them and decides
/// how long a step is (pick `maxChangesPerLot` to match).
public struct CampusDaySimulator: Sendable {
    public struct Lot: Sendable, Hashable {
        /// Position of the lot in its site, passed through to the target curve and the result.
        public var index: Int
        public var kind: LotKind
        /// By ordinal.
        public var states: [SpotState]

        public init(index: Int, kind: LotKind, states: [SpotState]) {
            self.index = index
            self.kind = kind
            self.states = states
        }
    }

    public typealias Flip = (lotIndex: Int, ordinal: Int, occupied: Bool)

    /// Upper bound on changes per lot in one step, whatever the gap to the target.
    public var maxChangesPerLot: Int
    /// Share of the gap to the target closed per step; below 1 so lots ease in rather than snap.
    public var approachRate: Double
    /// Half-width of the uniform noise on each step's target.
    public var noise: Double
    /// Share of parked cars that leave per step while another arrives, so a lot at its target
    /// still shows life.
    public var turnoverRate: Double
    /// Chance per step that a spot whose sensor was silent reports again.
    public var unknownResolveProbability: Double

    public init(maxChangesPerLot: Int = 30, approachRate: Double = 0.25, noise: Double = 0.02,
                turnoverRate: Double = 0.002, unknownResolveProbability: Double = 0.2) {
        self.maxChangesPerLot = maxChangesPerLot
        self.approachRate = approachRate
        self.noise = noise
        self.turnoverRate = turnoverRate
        self.unknownResolveProbability = unknownResolveProbability
    }

    /// Changes for this step, by lot then ordinal. Held, booked and closed spots are never
    /// touched: those belong to the booking system and the operator, not to arriving drivers.
    /// Held and booked spots still count as taken when measuring the gap.
    public func step(lots: [Lot], weekday: Weekday, minuteOfDay: Double,
                     rng: inout some RandomNumberGenerator) -> [Flip] {
        var flips: [Flip] = []
        for lot in lots {
            var changes: [(ordinal: Int, occupied: Bool)] = []
            var free: [Int] = [], occupied: [Int] = [], unknown: [Int] = []
            var reserved = 0
            for (i, s) in lot.states.enumerated() {
                switch s {
                case .free: free.append(i)
                case .occupied: occupied.append(i)
                case .unknown: unknown.append(i)
                case .held, .booked: reserved += 1
                case .closed: break
                }
            }
            let usable = free.count + occupied.count + unknown.count + reserved
            guard usable > 0, maxChangesPerLot > 0 else { continue }

            let base = CampusDay.targetFraction(kind: lot.kind, lotIndex: lot.index, weekday: weekday, minuteOfDay: minuteOfDay)
            let target = min(1, max(0, base + noise * (2 * Self.unit(&rng) - 1)))
            let gap = target * Double(usable) - Double(occupied.count + reserved)

            var budget = maxChangesPerLot
            var arrivals = 0, departures = 0
            if abs(gap) >= 1 {
                let n = min(budget, Int((abs(gap) * approachRate).rounded(.up)))
                if gap > 0 { arrivals = min(n, free.count) } else { departures = min(n, occupied.count) }
                budget -= arrivals + departures
            }

            for i in unknown where budget > 0 && Self.unit(&rng) < unknownResolveProbability {
                changes.append((i, Self.unit(&rng) < target))
                budget -= 1
            }

            let expected = Double(occupied.count) * turnoverRate
            var churn = Int(expected) + (Self.unit(&rng) < expected - expected.rounded(.down) ? 1 : 0)
            churn = max(0, min(churn, budget / 2, free.count - arrivals, occupied.count - departures))
            arrivals += churn
            departures += churn

            let weight = Self.entranceWeight(kind: lot.kind, count: lot.states.count)
            for i in Self.weightedSample(free, count: arrivals, weight: weight, rng: &rng) {
                changes.append((i, true))
            }
            for i in Self.uniformSample(occupied, count: departures, rng: &rng) {
                changes.append((i, false))
            }
            changes.sort { $0.ordinal < $1.ordinal }
            flips.append(contentsOf: changes.map { (lot.index, $0.ordinal, $0.occupied) })
        }
        return flips
    }

    /// Plausible states for a lot when the emulator starts: only free and occupied, the target
    /// share taken, and taken spots gathered near the entrance and on the lower floors.
    public static func initialStates(for lot: LotPlan, lotIndex: Int, weekday: Weekday, minuteOfDay: Double,
                                     rng: inout some RandomNumberGenerator) -> [SpotState] {
        let count = max(0, lot.capacity)
        guard count > 0 else { return [] }
        let base = CampusDay.targetFraction(kind: lot.kind, lotIndex: lotIndex, weekday: weekday, minuteOfDay: minuteOfDay)
        let target = min(1, max(0, base + 0.02 * (2 * unit(&rng) - 1)))
        let taken = min(count, Int((target * Double(count)).rounded()))
        var states = Array(repeating: SpotState.free, count: count)
        let weight = entranceWeight(kind: lot.kind, count: count)
        for i in weightedSample(Array(0..<count), count: taken, weight: weight, rng: &rng) {
            states[i] = .occupied
        }
        return states
    }

    // MARK: - Sampling

    /// Ordinals run from the entrance outward and from the ground floor up, so a weight falling
    /// with the ordinal makes drivers take the first free spot they pass. Drivers in a
    /// structure rarely climb while a lower floor has room, hence the steeper fall there.
    static func entranceWeight(kind: LotKind, count: Int) -> @Sendable (Int) -> Double {
        let steepness = kind == .structure ? 5.0 : 2.5
        let n = Double(max(1, count))
        return { ordinal in exp(-steepness * Double(ordinal) / n) }
    }

    /// `count` of `items` without replacement, each with chance proportional to its weight
    /// (Efraimidis & Spirakis 2006: keep the largest log(u) / w).
    static func weightedSample(_ items: [Int], count: Int, weight: (Int) -> Double,
                               rng: inout some RandomNumberGenerator) -> [Int] {
        guard count > 0 else { return [] }
        guard count < items.count else { return items }
        func before(_ a: (item: Int, key: Double), _ b: (item: Int, key: Double)) -> Bool {
            a.key != b.key ? a.key > b.key : a.item < b.item
        }
        // A step picks a handful of spots out of thousands: keep a short sorted list instead of
        // sorting them all.
        if count <= 64 {
            var top: [(item: Int, key: Double)] = []
            top.reserveCapacity(count + 1)
            for item in items {
                let entry = (item: item, key: log(unit(&rng)) / weight(item))
                if top.count == count, let last = top.last, !before(entry, last) { continue }
                let at = top.firstIndex { before(entry, $0) } ?? top.count
                top.insert(entry, at: at)
                if top.count > count { top.removeLast() }
            }
            return top.map(\.item)
        }
        var keyed = items.map { (item: $0, key: log(unit(&rng)) / weight($0)) }
        keyed.sort(by: before)
        return keyed.prefix(count).map(\.item)
    }

    static func uniformSample(_ items: [Int], count: Int, rng: inout some RandomNumberGenerator) -> [Int] {
        guard count > 0 else { return [] }
        guard count < items.count else { return items }
        var pool = items
        for i in 0..<count {
            let j = i + Int(rng.next() % UInt64(pool.count - i))
            pool.swapAt(i, j)
        }
        return Array(pool.prefix(count))
    }

    /// Uniform in the open interval (0, 1), written out so the sequence does not depend on the
    /// standard library's choice of algorithm.
    static func unit(_ rng: inout some RandomNumberGenerator) -> Double {
        (Double(rng.next() >> 11) + 0.5) / Double(1 << 53)
    }
}
