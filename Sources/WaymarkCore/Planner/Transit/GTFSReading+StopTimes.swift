import Foundation

// Reading stop_times.txt (times filled in between timepoints) and frequencies.txt.
extension GTFSReader.Reading {

    /// The largest file by far (hundreds of thousands of rows), so it is read into flat arrays
    /// first and each trip's rows are checked and interpolated together afterwards.
    mutating func readStopTimes(_ t: Table, trips: [TransitFeed.Trip], tripIndex: [String: Int]?, tripLines: [String: Int],
                                stops: Stops?) -> [TransitFeed.StopTime] {
        let file = t.name
        let cTrip = t.column("trip_id"), cArrival = t.column("arrival_time"), cDeparture = t.column("departure_time")
        let cStop = t.column("stop_id"), cSequence = t.column("stop_sequence"), cPickup = t.column("pickup_type")
        let cDropOff = t.column("drop_off_type"), cTimepoint = t.column("timepoint")
        let n = t.count
        let none: Int32 = -1
        var tripOf = [Int32](repeating: none, count: n)
        var sequence = [Int32](repeating: 0, count: n)
        var stopOf = [Int32](repeating: none, count: n)
        var arrival = [Int32](repeating: none, count: n)
        var departure = [Int32](repeating: none, count: n)
        var noPickup = [Bool](repeating: false, count: n)
        var noDropOff = [Bool](repeating: false, count: n)
        var exact = [Bool](repeating: false, count: n)
        // A trip with a broken row is not checked as a whole: its other complaints would only echo the first.
        var brokenTrip = [Bool](repeating: false, count: trips.count)
        var lastTripText = "\u{0}"
        var lastTrip = -1

        for r in 0..<n {
            let line = t.line(r)
            let errorsBefore = errors
            // Rows of one trip are usually together, so the lookup is skipped while the id repeats.
            let tripText = t.text(r, cTrip)
            if tripText != lastTripText {
                lastTripText = tripText
                lastTrip = tripIndex?[tripText] ?? -1
            }
            if lastTrip < 0 {
                if tripText.isEmpty { report(.error, file, line, "trip_id", "trip_id is empty; it is required") }
                else if tripIndex != nil { report(.error, file, line, "trip_id", "trip_id '\(tripText)' is not in trips.txt") }
            }
            let stopText = t.text(r, cStop)
            if let stops {
                if let s = stops.boarding[stopText] {
                    stopOf[r] = Int32(s)
                } else if stopText.isEmpty {
                    report(.error, file, line, "stop_id", "stop_id is empty; it is required")
                } else if let why = notBoarding(stopText, stops) {
                    report(.error, file, line, "stop_id", "stop_id " + why)
                }
            }
            switch t.natural(r, cSequence) {
            case .value(let v): sequence[r] = Int32(v)
            case .empty: report(.error, file, line, "stop_sequence", "stop_sequence is empty; it is required")
            case .invalid: report(.error, file, line, "stop_sequence", "'\(t.text(r, cSequence))' is not a stop_sequence (a whole number, 0 or more)")
            }
            switch t.time(r, cArrival) {
            case .value(let v): arrival[r] = Int32(v)
            case .empty: break
            case .invalid: report(.error, file, line, "arrival_time", "'\(t.text(r, cArrival))' is not a time (H:MM:SS)")
            }
            switch t.time(r, cDeparture) {
            case .value(let v): departure[r] = Int32(v)
            case .empty: break
            case .invalid: report(.error, file, line, "departure_time", "'\(t.text(r, cDeparture))' is not a time (H:MM:SS)")
            }
            // 2 and 3 (phone the agency, tell the driver) still let people on and off.
            switch t.natural(r, cPickup) {
            case .empty, .value(0), .value(2), .value(3): break
            case .value(1): noPickup[r] = true
            default: report(.error, file, line, "pickup_type", "'\(t.text(r, cPickup))' is not a pickup_type (0 to 3)")
            }
            switch t.natural(r, cDropOff) {
            case .empty, .value(0), .value(2), .value(3): break
            case .value(1): noDropOff[r] = true
            default: report(.error, file, line, "drop_off_type", "'\(t.text(r, cDropOff))' is not a drop_off_type (0 to 3)")
            }
            switch t.natural(r, cTimepoint) {
            case .empty, .value(0): break
            case .value(1): exact[r] = true
            default: report(.warning, file, line, "timepoint", "'\(t.text(r, cTimepoint))' is not a timepoint (0 or 1); it is ignored")
            }
            if lastTrip >= 0 {
                tripOf[r] = Int32(lastTrip)
                if errors != errorsBefore { brokenTrip[lastTrip] = true }
            }
        }

        // Each trip's rows together (a counting sort keeps file order within a trip).
        var start = [Int](repeating: 0, count: trips.count + 1)
        for r in 0..<n where tripOf[r] >= 0 { start[Int(tripOf[r]) + 1] += 1 }
        for i in 0..<trips.count { start[i + 1] += start[i] }
        var order = [Int](repeating: 0, count: start[trips.count])
        var fill = start
        for r in 0..<n where tripOf[r] >= 0 {
            let k = Int(tripOf[r])
            order[fill[k]] = r
            fill[k] += 1
        }

        var result: [TransitFeed.StopTime] = []
        result.reserveCapacity(order.count)
        let positions = stops?.kept.map(\.position) ?? []
        func clock(_ s: Int32) -> String { String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }

        for k in trips.indices {
            let trip = trips[k].id
            var rows = Array(order[start[k]..<start[k + 1]])
            if rows.count < 2 && tripIndex != nil {
                report(.warning, "trips.txt", tripLines[trip], "trip_id",
                       "trip '\(trip)' has \(rows.count) stop time\(rows.count == 1 ? "" : "s"); a trip needs at least two to be ridden")
            }
            if rows.isEmpty || brokenTrip[k] { continue }
            if !zip(rows, rows.dropFirst()).allSatisfy({ sequence[$0] < sequence[$1] }) {
                rows.sort { sequence[$0] != sequence[$1] ? sequence[$0] < sequence[$1] : $0 < $1 }
            }
            let errorsBefore = errors
            for (a, b) in zip(rows, rows.dropFirst()) where sequence[a] == sequence[b] {
                report(.error, file, t.line(b), "stop_sequence",
                       "stop_sequence \(sequence[b]) appears twice in trip '\(trip)' (first on row \(t.line(a)))")
            }
            for (i, r) in rows.enumerated() {
                let edge = i == 0 ? "first" : i == rows.count - 1 ? "last" : nil
                let hasArrival = arrival[r] >= 0, hasDeparture = departure[r] >= 0
                if let edge, !hasArrival || !hasDeparture {
                    let field = hasArrival ? "departure_time" : "arrival_time"
                    report(.error, file, t.line(r), field,
                           "\(field) is empty at the \(edge) stop of trip '\(trip)'; a trip's first and last stops need both times")
                } else if hasArrival != hasDeparture {
                    let field = hasArrival ? "departure_time" : "arrival_time"
                    report(.error, file, t.line(r), field,
                           "\(field) is empty but \(hasArrival ? "arrival_time" : "departure_time") is not; give both times or neither")
                } else if !hasArrival && exact[r] {
                    report(.error, file, t.line(r), "arrival_time", "the times are empty at a stop marked timepoint 1 (exact times)")
                }
            }
            if errors != errorsBefore { continue }

            // Times never go back along the trip.
            var previous: Int? = nil
            for r in rows where arrival[r] >= 0 {
                if departure[r] < arrival[r] {
                    report(.error, file, t.line(r), "departure_time",
                           "departure_time \(clock(departure[r])) is before arrival_time \(clock(arrival[r])) at the same stop")
                }
                if let p = previous, arrival[r] < departure[p] {
                    report(.error, file, t.line(r), "arrival_time",
                           "arrival_time \(clock(arrival[r])) is before the departure at \(clock(departure[p])) from the stop before (row \(t.line(p))) in trip '\(trip)'")
                }
                previous = r
            }
            // Without stops.txt there are no positions to share the time by (and the feed is refused anyway).
            guard errors == errorsBefore, let stops, rows.allSatisfy({ stopOf[$0] >= 0 }) else { continue }

            // Stops without times: the time between the timed stops around them, shared by distance.
            var lastTimed = 0
            for i in 1..<rows.count where arrival[rows[i]] >= 0 {
                if i - lastTimed > 1 {
                    let from = Double(departure[rows[lastTimed]]), to = Double(arrival[rows[i]])
                    var distances = [0.0]
                    for j in (lastTimed + 1)...i {
                        let a = positions[Int(stopOf[rows[j - 1]])], b = positions[Int(stopOf[rows[j]])]
                        distances.append(distances[j - lastTimed - 1] + Geo.distance(a, b))
                    }
                    let total = distances.last!
                    for j in (lastTimed + 1)..<i {
                        // Stops all in one place share the time evenly instead.
                        let share = total > 0 ? distances[j - lastTimed] / total : Double(j - lastTimed) / Double(i - lastTimed)
                        let time = Int32((from + (to - from) * share).rounded())
                        arrival[rows[j]] = time
                        departure[rows[j]] = time
                    }
                }
                lastTimed = i
            }
            for r in rows {
                result.append(TransitFeed.StopTime(tripId: trip, sequence: Int(sequence[r]), stopId: stops.kept[Int(stopOf[r])].id,
                                                   arrival: Int(arrival[r]), departure: Int(departure[r]),
                                                   noPickup: noPickup[r], noDropOff: noDropOff[r]))
            }
        }
        return result
    }

    // MARK: frequencies.txt

    mutating func readFrequencies(_ t: Table, trips: [String: Int]?) -> [TransitFeed.Frequency] {
        let file = t.name
        let cTrip = t.column("trip_id"), cStart = t.column("start_time"), cEnd = t.column("end_time")
        let cHeadway = t.column("headway_secs"), cExact = t.column("exact_times")
        var frequencies: [TransitFeed.Frequency] = []
        var lines: [Int] = []
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let trip = t.text(r, cTrip)
            var valid = true
            if trip.isEmpty {
                report(.error, file, line, "trip_id", "trip_id is empty; it is required"); valid = false
            } else if let trips, trips[trip] == nil {
                report(.error, file, line, "trip_id", "trip_id '\(trip)' is not in trips.txt"); valid = false
            }
            var times: [Int] = []
            for (column, field) in [(cStart, "start_time"), (cEnd, "end_time")] {
                switch t.time(r, column) {
                case .value(let v): times.append(v)
                case .empty: report(.error, file, line, field, "\(field) is empty; it is required"); valid = false
                case .invalid: report(.error, file, line, field, "'\(t.text(r, column))' is not a time (H:MM:SS)"); valid = false
                }
            }
            var headway = 0
            switch t.natural(r, cHeadway) {
            case .value(let v) where v > 0: headway = v
            case .empty: report(.error, file, line, "headway_secs", "headway_secs is empty; it is required"); valid = false
            default: report(.error, file, line, "headway_secs", "'\(t.text(r, cHeadway))' is not a headway (a whole number of seconds above 0)"); valid = false
            }
            var exactTimes = false
            switch t.text(r, cExact) {
            case "", "0": break
            case "1": exactTimes = true
            case let other: report(.error, file, line, "exact_times", "'\(other)' is not an exact_times (0 or 1)"); valid = false
            }
            guard valid else { continue }
            if times[1] <= times[0] {
                report(.error, file, line, "end_time", "end_time \(t.text(r, cEnd)) is not after start_time \(t.text(r, cStart))")
                continue
            }
            let key = "\(trip)\u{0}\(times[0])"
            if let first = seen[key] {
                report(.error, file, line, "start_time", "trip '\(trip)' from \(t.text(r, cStart)) appears twice (first on row \(first))")
                continue
            }
            seen[key] = line
            frequencies.append(TransitFeed.Frequency(tripId: trip, start: times[0], end: times[1], headway: headway, exactTimes: exactTimes))
            lines.append(line)
        }
        // A trip's windows must not overlap; one may start when the one before ends.
        let byTrip = Dictionary(grouping: frequencies.indices, by: { frequencies[$0].tripId })
        for (_, indices) in byTrip.sorted(by: { $0.key < $1.key }) {
            let sorted = indices.sorted { frequencies[$0].start < frequencies[$1].start }
            for (a, b) in zip(sorted, sorted.dropFirst()) where frequencies[b].start < frequencies[a].end {
                report(.error, file, lines[b], "start_time",
                       "the window of trip '\(frequencies[b].tripId)' overlaps the one on row \(lines[a]); a trip's headway windows must not overlap")
            }
        }
        return frequencies
    }
}
