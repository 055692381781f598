import Foundation
import WaymarkCore

// Reads days in the JSON shape cpsat.py writes, plans each `--repeat` times, and prints one JSON
// object per day: the objective and the time per plan (p50, p99, max) in microseconds.

struct Days: Decodable {
    struct Day: Decodable {
        struct Window: Decodable { var from: Int, to: Int }
        struct Lunch: Decodable { var earliest: Int, latest: Int, minutes: Int }
        struct Origin: Decodable { var location: Int, ready: Int }
        struct Event: Decodable {
            var id: String
            var kind: String
            var start: Int?, end: Int?, earliest: Int?, latest: Int?, minutes: Int?
            var location: Int?
            var modes: [String]
        }
        enum Trip: Decodable {
            case trip(Int, Int, [String: Int])
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                self = .trip(try c.decode(Int.self), try c.decode(Int.self), try c.decode([String: Int].self))
            }
        }
        var name: String
        var lunch: Lunch?
        var origin: Origin?
        var transit: Window?
        var weights: [String: Int]
        var locations: Int
        var travel: [Trip]
        var events: [Event]
    }
    var instances: [Day]
}

func mode(_ name: String) -> TravelMode {
    guard let m = TravelMode(rawValue: name) else { fatalError("unknown mode \(name)") }
    return m
}

func problem(_ day: Days.Day) -> DayProblem {
    var travel = Array(repeating: [TravelMode: Int](), count: day.locations * day.locations)
    for case .trip(let a, let b, let options) in day.travel {
        for (name, minutes) in options { travel[a * day.locations + b][mode(name)] = minutes }
    }
    let items = day.events.map { e in
        DayProblem.Item(
            id: e.id,
            timing: e.kind == "fixed" ? .fixed(start: e.start!, end: e.end!) : .flexible(earliest: e.earliest!, latest: e.latest!, minutes: e.minutes!),
            location: e.location, modes: Set(e.modes.map(mode)))
    }
    var weights: [TravelMode: Int] = [:]
    for (name, w) in day.weights { weights[mode(name)] = w }
    return DayProblem(
        items: items, locationCount: day.locations, travel: travel,
        transitWindow: day.transit.map { MinuteWindow(from: $0.from, to: $0.to) }, weights: weights,
        lunch: day.lunch.map { DayProblem.Lunch(window: MinuteWindow(from: $0.earliest, to: $0.latest), minutes: $0.minutes) },
        origin: day.origin.map { DayProblem.Origin(location: $0.location, ready: $0.ready) })
}

@main
struct PlannerBenchmark {
    static func main() throws {
        let args = CommandLine.arguments
        guard args.count >= 2 else {
            FileHandle.standardError.write(Data("usage: planner-benchmark DAYS.json [--repeat N]\n".utf8))
            exit(2)
        }
        let repeats = args.firstIndex(of: "--repeat").flatMap { Int(args[$0 + 1]) } ?? 20
        let days = try JSONDecoder().decode(Days.self, from: Data(contentsOf: URL(fileURLWithPath: args[1])))
        let clock = ContinuousClock()
        for day in days.instances {
            let p = problem(day)
            var micros: [Double] = []
            var plan = DayPlanner.plan(p)
            for _ in 0..<repeats {
                let started = clock.now
                plan = DayPlanner.plan(p)
                let d = clock.now - started
                micros.append(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12)
            }
            micros.sort()
            func percentile(_ q: Double) -> Double { micros[min(micros.count - 1, Int((Double(micros.count - 1) * q).rounded()))] }
            let o = plan.objective
            let line: [String: Any] = [
                "name": day.name, "objective": [o.unreachable, o.lateness, o.missedLunch, o.travelCost],
                "p50Micros": percentile(0.5), "p99Micros": percentile(0.99), "maxMicros": micros.last ?? 0,
                "proven": plan.proven, "explored": plan.explored,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
        }
    }
}
