import Foundation

// Reading agency.txt, stops.txt and routes.txt.
extension GTFSReader.Reading {
    // MARK: agency.txt

    mutating func readAgencies(_ t: Table) -> [TransitFeed.Agency] {
        let file = t.name
        let cId = t.column("agency_id"), cName = t.column("agency_name"), cURL = t.column("agency_url"), cZone = t.column("agency_timezone")
        var agencies: [TransitFeed.Agency] = []
        var lines: [Int] = []
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let id = t.text(r, cId), name = t.text(r, cName), url = t.text(r, cURL), zone = t.text(r, cZone)
            if !id.isEmpty {
                if let first = seen[id] { report(.error, file, line, "agency_id", "agency_id '\(id)' appears twice (first on row \(first))") }
                else { seen[id] = line }
            }
            if name.isEmpty { report(.error, file, line, "agency_name", "agency_name is empty; it is required") }
            if url.isEmpty {
                report(.error, file, line, "agency_url", "agency_url is empty; it is required")
            } else if !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) {
                report(.warning, file, line, "agency_url", "'\(url)' is not a full http:// or https:// URL")
            }
            if zone.isEmpty {
                report(.error, file, line, "agency_timezone", "agency_timezone is empty; it is required")
            } else if TimeZone(identifier: zone) == nil {
                report(.error, file, line, "agency_timezone", "'\(zone)' is not a time zone of the IANA database")
            }
            agencies.append(TransitFeed.Agency(id: id, name: name, url: url, timeZone: zone))
            lines.append(line)
        }
        if agencies.isEmpty { report(.error, file, nil, nil, "agency.txt names no agency; a feed needs one") }
        if agencies.count > 1 {
            for (a, line) in zip(agencies, lines) where a.id.isEmpty {
                report(.error, file, line, "agency_id", "agency_id is empty; it is required when the feed has several agencies")
            }
            // One service day needs one clock, so the reference asks every agency for the same zone.
            if let first = agencies.first {
                for (a, line) in zip(agencies, lines).dropFirst() where a.timeZone != first.timeZone && !a.timeZone.isEmpty {
                    report(.error, file, line, "agency_timezone",
                           "'\(a.timeZone)' differs from '\(first.timeZone)' on row \(lines[0]); every agency must have the same agency_timezone")
                }
            }
        }
        return agencies
    }

    // MARK: stops.txt

    struct Stops {
        /// What the feed keeps: stops and platforms, then the stations they belong to, in file order.
        var kept: [TransitFeed.Stop]
        /// Boarding stops by id, to their place in `kept`.
        var boarding: [String: Int]
        /// Every id in the file with its location_type, for references and their messages.
        var types: [String: Int]
        /// A station's stops and platforms, for transfers that name the station.
        var children: [String: [String]]
    }

    mutating func readStops(_ t: Table) -> Stops {
        let file = t.name
        let cId = t.column("stop_id"), cName = t.column("stop_name"), cLat = t.column("stop_lat"), cLon = t.column("stop_lon")
        let cType = t.column("location_type"), cParent = t.column("parent_station")
        var raw: [RawStop] = []
        var firstLine: [String: Int] = [:]
        var types: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let id = t.text(r, cId)
            var type = 0
            switch t.natural(r, cType) {
            case .empty: type = 0
            case .value(let v) where v <= 4: type = v
            default:
                report(.error, file, line, "location_type", "'\(t.text(r, cType))' is not a location_type (0 to 4)")
                continue
            }
            // The planner uses stops and stations; what it leaves out only earns warnings.
            let severity: Problem.Severity = type <= 1 ? .error : .warning
            if id.isEmpty { report(.error, file, line, "stop_id", "stop_id is empty; it is required"); continue }
            if let first = firstLine[id] {
                report(.error, file, line, "stop_id", "stop_id '\(id)' appears twice (first on row \(first))")
                continue
            }
            firstLine[id] = line
            types[id] = type
            let name = t.text(r, cName)
            if name.isEmpty && type <= 2 {
                report(severity, file, line, "stop_name", "stop_name is empty; it is required for a stop, station or entrance")
            }
            var position = Coordinate(latitude: 0, longitude: 0)
            if type <= 2 {
                for (column, field, limit, noun) in [(cLat, "stop_lat", 90.0, "latitude"), (cLon, "stop_lon", 180.0, "longitude")] {
                    switch t.decimal(r, column) {
                    case .empty:
                        report(severity, file, line, field, "\(field) is empty; it is required for a stop, station or entrance")
                    case .invalid:
                        report(severity, file, line, field, "'\(t.text(r, column))' is not a number")
                    case .value(let v):
                        if abs(v) > limit {
                            report(severity, file, line, field, "'\(t.text(r, column))' is not a \(noun) (-\(Int(limit)) to \(Int(limit)))")
                        } else if noun == "latitude" { position.latitude = v } else { position.longitude = v }
                    }
                }
            }
            raw.append(RawStop(id: id, name: name, position: position, type: type, parent: t.text(r, cParent), line: line))
        }

        // Parents, once every id is known: a stop's parent is a station, a station has none.
        var referenced: Set<String> = []
        var children: [String: [String]] = [:]
        for i in raw.indices {
            let s = raw[i]
            let parentType = types[s.parent]
            switch s.type {
            case 0 where !s.parent.isEmpty:
                if parentType == nil {
                    report(.error, file, s.line, "parent_station", "parent_station '\(s.parent)' is not in stops.txt")
                } else if parentType != 1 {
                    report(.error, file, s.line, "parent_station", "parent_station '\(s.parent)' is not a station (its location_type is \(parentType!), not 1)")
                } else {
                    referenced.insert(s.parent)
                    children[s.parent, default: []].append(s.id)
                }
            case 1 where !s.parent.isEmpty:
                report(.warning, file, s.line, "parent_station", "a station has no parent_station; '\(s.parent)' is ignored")
                raw[i].parent = ""
            case 2, 3, 4:
                let wanted = s.type == 4 ? 0 : 1
                if s.parent.isEmpty {
                    report(.warning, file, s.line, "parent_station", "parent_station is empty; location_type \(s.type) needs one (the row is not used)")
                } else if parentType != wanted {
                    report(.warning, file, s.line, "parent_station",
                           "parent_station '\(s.parent)' is not a \(wanted == 1 ? "station" : "stop or platform") (the row is not used)")
                }
            default: break
            }
        }
        var kept: [TransitFeed.Stop] = []
        var boarding: [String: Int] = [:]
        for s in raw where s.type == 0 || (s.type == 1 && referenced.contains(s.id)) {
            if s.type == 0 { boarding[s.id] = kept.count }
            kept.append(TransitFeed.Stop(id: s.id, name: s.name, position: s.position, parentStation: s.parent.isEmpty ? nil : s.parent))
        }
        return Stops(kept: kept, boarding: boarding, types: types, children: children)
    }

    /// Why a stop reference does not name a stop people board at, or nil when it does.
    func notBoarding(_ id: String, _ stops: Stops) -> String? {
        guard let type = stops.types[id] else { return "'\(id)' is not in stops.txt" }
        if type == 0 { return nil }
        let kind = [1: "a station", 2: "an entrance or exit", 3: "a generic node", 4: "a boarding area"][type] ?? "not a stop"
        return "'\(id)' is \(kind) (location_type \(type)); it must be a stop or platform (location_type 0)"
    }

    // MARK: routes.txt

    mutating func readRoutes(_ t: Table, agencies: [TransitFeed.Agency]?) -> [TransitFeed.Route] {
        let file = t.name
        let cId = t.column("route_id"), cAgency = t.column("agency_id"), cShort = t.column("route_short_name")
        let cLong = t.column("route_long_name"), cType = t.column("route_type"), cColour = t.column("route_color")
        if cShort == nil && cLong == nil {
            report(.error, file, 1, "route_short_name", "routes.txt needs a route_short_name or a route_long_name column")
        }
        let agencyIds = agencies.map { Set($0.map(\.id).filter { !$0.isEmpty }) }
        let soleAgency = agencies?.count == 1 && agencies?.first?.id.isEmpty == false ? agencies?.first?.id : nil
        var routes: [TransitFeed.Route] = []
        var seen: [String: Int] = [:]
        for r in 0..<t.count {
            let line = t.line(r)
            let id = t.text(r, cId)
            if id.isEmpty { report(.error, file, line, "route_id", "route_id is empty; it is required"); continue }
            if let first = seen[id] { report(.error, file, line, "route_id", "route_id '\(id)' appears twice (first on row \(first))"); continue }
            seen[id] = line
            let agency = t.text(r, cAgency)
            if !agency.isEmpty, let agencyIds, !agencyIds.contains(agency) {
                report(.error, file, line, "agency_id", "agency_id '\(agency)' is not in agency.txt")
            } else if agency.isEmpty, let agencies, agencies.count > 1 {
                report(.error, file, line, "agency_id", "agency_id is empty; it is required when the feed has several agencies")
            }
            let short = t.text(r, cShort), long = t.text(r, cLong)
            if short.isEmpty && long.isEmpty && (cShort != nil || cLong != nil) {
                report(.error, file, line, "route_short_name", "route_short_name and route_long_name are both empty; one of them is required")
            }
            var mode = TransitFeed.Mode.bus
            if case .value(let type) = t.natural(r, cType), let read = GTFSReader.mode(routeType: type) {
                mode = read.mode
                if let warning = read.warning { report(.warning, file, line, "route_type", warning) }
            } else if t.text(r, cType).isEmpty {
                report(.error, file, line, "route_type", "route_type is empty; it is required")
            } else {
                report(.error, file, line, "route_type", "'\(t.text(r, cType))' is not a route_type (0 to 7, 11, 12, or an extended type 100 to 1799)")
            }
            var colour: String? = t.text(r, cColour).uppercased()
            if colour!.isEmpty {
                colour = nil
            } else if colour!.count != 6 || !colour!.allSatisfy(\.isHexDigit) {
                report(.warning, file, line, "route_color", "'\(t.text(r, cColour))' is not a colour (six hexadecimal digits, RRGGBB); it is ignored")
                colour = nil
            }
            routes.append(TransitFeed.Route(id: id, agencyId: agency.isEmpty ? soleAgency : agency, shortName: short, longName: long,
                                            mode: mode, colour: colour))
        }
        return routes
    }
}
