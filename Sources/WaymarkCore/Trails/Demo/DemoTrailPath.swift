import Foundation

/// Draws a plausible path for a demo trail: a meandering line (or a closed loop) of the asked
/// length from the trailhead, points every 25 m, with a climb of the asked height and some rolling
/// ground on the way. Deterministic for a given seed.
struct DemoTrailPath {
    var trailhead: Coordinate
    var shape: Trail.Shape
    /// Length as walked (out and back counted both ways), metres.
    var walkedMetres: Double
    var startElevation: Double
    /// Height of the main climb, metres; negative for trails that go down first.
    var climb: Double
    /// Compass bearing of the way out, degrees.
    var bearing: Double
    var seed: UInt64

    static let spacing = 25.0

    func points() -> [PathPoint] {
        var rng = SplitMix64(seed: seed)
        let drawn = shape == .outAndBack ? walkedMetres / 2 : walkedMetres
        let n = max(2, Int((drawn / Self.spacing).rounded()) + 1)
        let phases = (0..<4).map { _ in Double.random(in: 0..<(2 * .pi), using: &rng) }
        // Rolling ground: a few metres on long trails, less on short ones, where it would be most of the climb.
        let rolling = min(1, drawn / 3_000)
        let bumps = (0..<3).map { _ in (rolling * Double.random(in: 2...7, using: &rng), Double.random(in: 0..<(2 * .pi), using: &rng)) }
        var offsets: [(east: Double, north: Double)]
        if shape == .loop {
            offsets = loop(n: n, length: drawn, phases: phases)
        } else {
            offsets = line(n: n, step: drawn / Double(n - 1), phases: phases)
        }
        offsets[0] = (0, 0)
        return offsets.indices.map { i in
            let t = Double(i) / Double(n - 1)
            let c = Geo.offset(trailhead, east: offsets[i].east, north: offsets[i].north)
            return PathPoint(latitude: (c.latitude * 1e6).rounded() / 1e6, longitude: (c.longitude * 1e6).rounded() / 1e6,
                             elevation: (elevation(at: t, bumps: bumps) * 10).rounded() / 10)
        }
    }

    /// A line whose heading swings up to about 50° either side of the bearing, as paths follow
    /// the ground.
    private func line(n: Int, step: Double, phases: [Double]) -> [(east: Double, north: Double)] {
        var out = [(east: 0.0, north: 0.0)]
        var e = 0.0, north = 0.0
        for i in 1..<n {
            let t = Double(i) / Double(n - 1)
            let swing = 0.55 * sin(2 * .pi * 2.3 * t + phases[0]) + 0.3 * sin(2 * .pi * 5.1 * t + phases[1])
            let heading = (bearing * .pi / 180) + swing
            e += step * sin(heading); north += step * cos(heading)
            out.append((e, north))
        }
        return out
    }

    /// A closed curve through the trailhead, lying towards the bearing, scaled to the length.
    private func loop(n: Int, length: Double, phases: [Double]) -> [(east: Double, north: Double)] {
        let b = bearing * .pi / 180
        func raw(_ t: Double) -> (Double, Double) {
            let θ = 2 * .pi * t
            let r = 1 + 0.22 * sin(2 * θ + phases[0]) + 0.12 * sin(3 * θ + phases[1])
            let r0 = 1 + 0.22 * sin(phases[0]) + 0.12 * sin(phases[1])
            // Centred one radius from the trailhead towards the bearing; t = 0 is the trailhead.
            let x = -r * cos(θ) + r0, y = r * sin(θ)
            return (x * sin(b) + y * cos(b), x * cos(b) - y * sin(b))
        }
        var pts = (0..<n).map { raw(Double($0) / Double(n - 1)) }
        var perimeter = 0.0
        for i in 1..<n { perimeter += hypot(pts[i].0 - pts[i - 1].0, pts[i].1 - pts[i - 1].1) }
        let scale = length / max(perimeter, 1e-9)
        pts = pts.map { ($0.0 * scale, $0.1 * scale) }
        return pts.map { (east: $0.0, north: $0.1) }
    }

    /// The main climb eased in and out, and rolling ground a few metres high.
    private func elevation(at t: Double, bumps: [(Double, Double)]) -> Double {
        let main: Double
        switch shape {
        case .loop: main = climb * pow(sin(.pi * t), 2)
        case .outAndBack, .pointToPoint: main = climb * (t * t * (3 - 2 * t))
        }
        let roll = bumps.enumerated().reduce(0.0) { sum, b in
            sum + b.element.0 * sin(2 * .pi * Double(b.offset * 2 + 3) * t + b.element.1)
        } * (t * (1 - t) * 4)
        return startElevation + main + roll
    }
}
