import Foundation

// Reading transfers.txt.
extension GTFSReader.Reading {
    // MARK: transfers.txt

    mutating func readTransfers(_ t: Table, stops: Stops?, routes: Set<String>?, trips: [String: Int]?) -> [TransitFeed.Transfer] {
        let file = t.name
        let cFrom = t.column("from_stop_id"), cTo = t.column("to_stop_id"), cType = t.column("transfer_type")
        let cMinimum = t.column("min_transfer_time")
        let cFromRoute = t.column("from_route_id"), cToRoute = t.column("to_route_id")
        let cFromTrip = t.column("from_trip_id"), cToTrip = t.column("to_trip_id")
        var transfers: [TransitFeed.Transfer] = []
        // The transfer kept for a pair of stops, with how many of its ends were stations: fewer is more specific.
        var chosen: [String: (index: Int, stations: Int)] = [:]
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            var type = 0
            switch t.natural(r, cType) {
            case .empty: type = 0
            case .value(let v) where v <= 5: type = v
            default:
                report(.error, file, line, "transfer_type", "'\(t.text(r, cType))' is not a transfer_type (0 to 5)")
                continue
            }
            if type >= 4 {
                report(.warning, file, line, "transfer_type", "in-seat transfers (transfer_type \(type)) are not used; the row is ignored")
                continue
            }
            var valid = true
            var ends: [(id: String, station: Bool)] = []
            for (column, field) in [(cFrom, "from_stop_id"), (cTo, "to_stop_id")] {
                let id = t.text(r, column)
                guard !id.isEmpty else {
                    report(.error, file, line, field, "\(field) is empty; it is required for transfer_type \(type)")
                    valid = false
                    continue
                }
                guard let stops else { continue }
                switch stops.types[id] {
                case 0: ends.append((id, false))
                case 1: ends.append((id, true))
                case nil:
                    report(.error, file, line, field, "\(field) '\(id)' is not in stops.txt"); valid = false
                case let other?:
                    report(.error, file, line, field, "\(field) '\(id)' has location_type \(other); a transfer names a stop or a station"); valid = false
                }
            }
            var specific = false
            for (column, field, isTrip) in [(cFromRoute, "from_route_id", false), (cToRoute, "to_route_id", false),
                                            (cFromTrip, "from_trip_id", true), (cToTrip, "to_trip_id", true)] {
                let id = t.text(r, column)
                if id.isEmpty { continue }
                specific = true
                if isTrip, let trips, trips[id] == nil {
                    report(.error, file, line, field, "\(field) '\(id)' is not in trips.txt"); valid = false
                } else if !isTrip, let routes, !routes.contains(id) {
                    report(.error, file, line, field, "\(field) '\(id)' is not in routes.txt"); valid = false
                }
            }
            var minimum: Int? = nil
            switch t.natural(r, cMinimum) {
            case .empty: break
            case .value(let v): minimum = v
            case .invalid:
                report(.error, file, line, "min_transfer_time", "'\(t.text(r, cMinimum))' is not a min_transfer_time (whole seconds, 0 or more)")
                valid = false
            }
            let key = [cFrom, cTo, cFromTrip, cToTrip, cFromRoute, cToRoute].map { t.text(r, $0) }.joined(separator: "\u{0}")
            if let first = seen[key] {
                report(.error, file, line, nil, "the same transfer appears twice (first on row \(first))")
                continue
            }
            seen[key] = line
            guard valid, let stops, ends.count == 2 else { continue }
            if specific {
                // The planner's walks are between stops, whatever the trips; a rule for some trips only would mislead it.
                report(.warning, file, line, nil, "transfers for particular routes or trips are not used; the row is ignored")
                continue
            }
            if type == 2 && minimum == nil {
                report(.warning, file, line, "min_transfer_time", "transfer_type 2 without min_transfer_time is read as a recommended transfer")
            }
            let stationEnds = ends.filter(\.station).count
            let froms = ends[0].station ? stops.children[ends[0].id] ?? [] : [ends[0].id]
            let tos = ends[1].station ? stops.children[ends[1].id] ?? [] : [ends[1].id]
            for from in froms {
                for to in tos {
                    let transfer = TransitFeed.Transfer(fromStopId: from, toStopId: to, forbidden: type == 3, minimumSeconds: type == 3 ? nil : minimum)
                    let pair = from + "\u{0}" + to
                    if let held = chosen[pair] {
                        if stationEnds < held.stations {
                            transfers[held.index] = transfer
                            chosen[pair] = (held.index, stationEnds)
                        }
                    } else {
                        chosen[pair] = (transfers.count, stationEnds)
                        transfers.append(transfer)
                    }
                }
            }
        }
        return transfers
    }
}
