import Foundation

// The timetable of the demo network: trips, their stop times and headways, and the calendar's
// public holidays.
extension MilanTransit {
    /// The rows of trips.txt, stop_times.txt and frequencies.txt, in the order they are written.
    struct Rows {
        var trips: [[String]] = []
        var stopTimes: [[String]] = []
        var frequencies: [[String]] = []
    }

    /// A call of a trip at a stop, in seconds after the trip's first departure.
    struct Call {
        var stopId: String
        var arrival: Int
        var departure: Int
        var timed: Bool
    }

    /// The calls of a line in one direction: each stretch takes the time its length (the straight
    /// line times the detour) takes at the vehicle's average speed, the stop at its end included.
    static func calls(_ line: MilanTransitLine, direction: Int) -> [Call] {
        let ids = direction == 0 ? line.stops : line.stops.reversed()
        let positions = Dictionary(uniqueKeysWithValues: stops.map { ($0.id, $0.position) })
        let v = line.vehicle
        var calls = [Call(stopId: ids[0], arrival: 0, departure: 0, timed: true)]
        var clock = 0
        for i in 1..<ids.count {
            let metres = Geo.distance(positions[ids[i - 1]]!, positions[ids[i]]!) * v.detour
            let stretch = Int((metres / (v.kilometresPerHour / 3.6)).rounded())
            clock += max(v.shortestRun, stretch - v.dwell)
            let last = i == ids.count - 1
            let timed = last || line.timed?.contains(ids[i]) ?? true
            calls.append(Call(stopId: ids[i], arrival: clock, departure: last ? clock : clock + v.dwell, timed: timed))
            if !last { clock += v.dwell }
        }
        return calls
    }

    /// The departures of a window, from its start, every headway, before its end.
    static func departures(_ w: MilanTransitLine.Window, offset: Int) -> [Int] {
        Array(stride(from: w.start, to: w.end, by: w.headway)).map { $0 + offset }
    }

    static func rows() -> Rows {
        var out = Rows()
        for line in lines {
            for (serviceId, windows) in line.service {
                for direction in 0...1 {
                    let calls = Self.calls(line, direction: direction)
                    let headsign = direction == 0 ? line.headsigns.outbound : line.headsigns.inbound
                    let prefix = "\(line.routeId)_\(serviceId)_\(direction)"
                    func addTrip(_ id: String, leaving: Int) {
                        out.trips.append([line.routeId, serviceId, id, headsign, String(direction)])
                        for (n, c) in calls.enumerated() {
                            out.stopTimes.append([id, c.timed ? clock(leaving + c.arrival) : "", c.timed ? clock(leaving + c.departure) : "",
                                                  c.stopId, String(n + 1), c.timed ? "1" : "0"])
                        }
                    }
                    switch line.schedule {
                    case .trips:
                        for w in windows {
                            for d in departures(w, offset: line.offset) { addTrip("\(prefix)_\(compact(d))", leaving: d) }
                        }
                    case .frequencies(let exactTimes):
                        // One trip gives the shape, its times from the day's first departure; the
                        // headways repeat it up to midnight and the later departures are trips.
                        let template = "\(prefix)_F"
                        var late: [Int] = []
                        var first: Int? = nil
                        var windowRows: [[String]] = []
                        for w in windows {
                            let all = departures(w, offset: line.offset)
                            let before = all.filter { $0 < 86_400 }
                            late += all.filter { $0 >= 86_400 }
                            guard let start = before.first else { continue }
                            first = first ?? start
                            let end = before.count == all.count ? w.end + line.offset : before.last! + w.headway
                            windowRows.append([template, clock(start), clock(end), String(w.headway), exactTimes ? "1" : "0"])
                        }
                        if let first {
                            addTrip(template, leaving: first)
                            out.frequencies += windowRows
                        }
                        for d in late { addTrip("\(prefix)_\(compact(d))", leaving: d) }
                    }
                }
            }
        }
        return out
    }

    /// Seconds as GTFS writes a time, `HH:MM:SS`, hours past 24 after midnight.
    static func clock(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
    }

    /// A departure in a trip id: "0540", "2412".
    static func compact(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60
        return (h < 10 ? "0" : "") + "\(h)" + (m < 10 ? "0" : "") + "\(m)"
    }

    // MARK: Holidays

    /// Italy's public holidays and Milan's patron saint (Sant'Ambrogio, 7 December) in the range:
    /// the Sunday service runs instead of the weekday or Saturday one.
    static func holidayExceptions(from: TransitFeed.ServiceDate, to: TransitFeed.ServiceDate) -> [[String]] {
        var rows: [[String]] = []
        for year in from.year...to.year {
            let easterMonday = dayAfter(easterSunday(year))
            let fixed = [(1, 1), (1, 6), (4, 25), (5, 1), (6, 2), (8, 15), (11, 1), (12, 7), (12, 8), (12, 25), (12, 26)]
            var days = fixed.map { TransitFeed.ServiceDate(year: year, month: $0.0, day: $0.1) } + [easterMonday]
            days.sort()
            for day in days where from <= day && day <= to {
                switch day.weekday {
                case 1...5: rows += [["WD", day.description, "2"], ["SU", day.description, "1"]]
                case 6: rows += [["SA", day.description, "2"], ["SU", day.description, "1"]]
                default: break
                }
            }
        }
        return rows
    }

    /// Easter Sunday of the Gregorian calendar (the anonymous algorithm, after Gauss).
    static func easterSunday(_ year: Int) -> TransitFeed.ServiceDate {
        let a = year % 19, b = year / 100, c = year % 100, d = b / 4, e = b % 4
        let f = (b + 8) / 25, g = (b - f + 1) / 3, h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4, l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31, day = (h + l - 7 * m + 114) % 31 + 1
        return TransitFeed.ServiceDate(year: year, month: month, day: day)
    }

    static func dayAfter(_ d: TransitFeed.ServiceDate) -> TransitFeed.ServiceDate {
        let leap = (d.year % 4 == 0 && d.year % 100 != 0) || d.year % 400 == 0
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][d.month - 1]
        if d.day < length { return .init(year: d.year, month: d.month, day: d.day + 1) }
        return d.month == 12 ? .init(year: d.year + 1, month: 1, day: 1) : .init(year: d.year, month: d.month + 1, day: 1)
    }
}
