import Foundation

extension SiteImport.Reader {
    /// Reads both files, then checks what only the whole site can tell (spots against their lot,
    /// sensor ids over the site, capacities against spot counts); nil when anything is wrong.
    mutating func read(geoJSON: Data, spotsCSV: Data?) -> SiteImport.ImportedSite? {
        let whole = Place(file: file, rank: 0, position: Int.max, item: nil)
        let root: JSONValue
        do { root = try JSONParser.parse(geoJSON) } catch {
            report(whole, "is not JSON (\(error.description)).")
            return nil
        }
        guard root["type"] == .string("FeatureCollection") else {
            report(whole, "is not a GeoJSON FeatureCollection: a site file is one object with \"type\": \"FeatureCollection\" "
                + "and a list of \"features\".")
            return nil
        }
        guard let features = root["features"]?.array else {
            report(whole, "\"features\" must be a list of features, not \(Self.describe(root["features"])).")
            return nil
        }
        for (k, f) in features.enumerated() { readFeature(f, k) }
        if site == nil {
            report(whole, "has no site feature: one feature needs \"feature\": \"site\" with the site's code, name and timeZone.")
        }
        if lots.isEmpty { report(whole, "has no lot feature: a site needs at least one lot.") }
        if let spotsCSV { readCSV(spotsCSV) }
        resolveSpots()
        checkSensors()
        checkLots()
        return hasProblems ? nil : assemble()
    }

    // MARK: CSV

    mutating func readCSV(_ data: Data) {
        let table: CSVTable
        do { table = try CSVTable(data) } catch {
            report(Place(file: csvFile, rank: 1, position: error.line, item: "line \(error.line)"), "\(error.rule).")
            return
        }
        let columnList = "lot, label, level, kind, latitude and longitude"
        guard !table.header.isEmpty else {
            report(Place(file: csvFile, rank: 1, position: Int.max, item: nil), "is empty; its first line must name the columns \(columnList).")
            return
        }
        var columns: [String: Int] = [:]
        for (i, name) in table.header.enumerated() where columns[name.lowercased()] == nil { columns[name.lowercased()] = i }
        let missing = SiteImport.requiredColumns.filter { columns[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.map { "\"\($0)\"" }
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            report(Place(file: csvFile, rank: 1, position: 1, item: "line 1"),
                   "has no \(list) column\(missing.count == 1 ? "" : "s"); the first line must name the columns \(columnList), "
                   + "and may name heading, sensor, length and width, in any order.")
            return
        }
        for r in 0..<table.count {
            let line = table.line(r)
            let s = Scope(place: Place(file: csvFile, rank: 1, position: line, item: "line \(line)"), prefix: "column ")
            guard table.fieldCount(r) <= table.header.count else {
                report(s, "has \(table.fieldCount(r)) values but the first line names \(table.header.count) columns; "
                    + "a value with a comma in it needs quotes around it.")
                continue
            }
            func cell(_ key: String) -> String? {
                guard let c = columns[key], !table.isBlank(r, c) else { return nil }
                return table.value(r, c).trimmingCharacters(in: .whitespaces)
            }
            var p: [String: JSONValue] = [:]
            for key in ["lot", "label", "kind", "sensor"] { p[key] = cell(key).map(JSONValue.string) }
            for key in ["level", "heading", "length", "width"] {
                p[key] = cell(key).map { t in Self.csvNumber(t).map(JSONValue.number) ?? .string(t) }
            }
            var center: Coordinate?
            let lat = coordinate(cell("latitude"), "latitude", 90, s), lon = coordinate(cell("longitude"), "longitude", 180, s)
            if let lat, let lon { center = Coordinate(latitude: lat, longitude: lon) }
            spots.append(spotFields(p, center: center, s, origin: "line \(line) of \(csvFile)"))
        }
    }

    mutating func coordinate(_ text: String?, _ key: String, _ limit: Double, _ s: Scope) -> Double? {
        guard let text else {
            report(s, s.needs(key, "the \(key) of the stall's centre"))
            return nil
        }
        if let d = Self.csvNumber(text), abs(d) <= limit { return d }
        report(s, "\(s.name(key)) must be a number from -\(Int(limit)) to \(Int(limit)), not \(Self.quoted(text)).")
        return nil
    }

    /// Plain decimal text only: `Double("nan")`, `"inf"` and `"0x1p3"` are numbers to Swift but
    /// not to a spreadsheet.
    static func csvNumber(_ t: String) -> Double? {
        guard t.utf8.contains(where: { (48...57).contains($0) }),
              t.utf8.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 69 || $0 == 101 }),
              let d = Double(t), d.isFinite else { return nil }
        return d
    }

    // MARK: Whole-site checks

    /// Puts every spot in its lot, in file order, and checks what needs the lot.
    mutating func resolveSpots() {
        var labels: [String: Int] = [:]
        for i in spots.indices {
            let spot = spots[i], s = spot.scope
            guard let ref = spot.lotRef else { continue }
            guard let li = lotIndex(ref) else {
                report(s, "\(s.name("lot")) must be the code of a lot in \(file); there is no lot \(Self.quoted(ref)).")
                continue
            }
            let lot = lots[li]
            // A lot with a wrong code is reported already; its spots cannot be checked against it.
            guard let code = lot.code else { continue }
            if let level = spot.level, let levels = lot.levels, level >= levels {
                report(s, levels == 1
                    ? "\(s.name("level")) must be 0: lot '\(code)' has one level, the ground level 0; not \(level)."
                    : "\(s.name("level")) must be from 0 (the ground level) to \(levels - 1): lot '\(code)' has \(levels) levels; not \(level).")
            }
            if let center = spot.center, let footprint = lot.footprint {
                let metres = Self.distance(center, toOutline: footprint)
                if metres > SiteImport.spotReach {
                    report(s, "the spot must lie within \(Int(SiteImport.spotReach)) m of the outline of lot '\(code)', "
                        + "not \(Int(metres.rounded())) m from it.")
                }
            }
            if let label = spot.label {
                let key = "\(li)\u{0}\(label)"
                if let j = labels[key] {
                report(s, spots[j].scope.place.rank != s.place.rank
                    ? "spot \(Self.quoted(label)) of lot '\(code)' is in \(spots[j].scope.place.file) already (\(spots[j].origin)); "
                        + "a spot is listed in one file only."
                    : "\(s.name("label")) \(Self.quoted(label)) is the label of another spot of lot '\(code)' (\(spots[j].origin)); "
                        + "labels are unique within a lot.")
                    continue
                }
                labels[key] = i
            }
            spots[i].lot = li
            lots[li].spots.append(i)
        }
    }

    /// Sensor ids are unique over the site, the generated stalls' ids included.
    mutating func checkSensors() {
        let siteCode = site?.code
        var seen: [String: Int] = [:]
        for i in spots.indices {
            let spot = spots[i], s = spot.scope
            guard let li = spot.lot, let label = spot.label else { continue }
            let sensor: String
            let what: String
            if spot.sensorGiven {
                guard let given = spot.sensor else { continue }
                sensor = given
                what = "\(s.name("sensor")) \(Self.quoted(sensor))"
            } else {
                guard let siteCode, let lotCode = lots[li].code else { continue }
                sensor = SiteImport.defaultSensorId(siteCode: siteCode, lotCode: lotCode, label: label)
                what = "the sensor id made from the site, lot and label, \(Self.quoted(sensor)),"
                guard Self.isSensorId(sensor) else {
                    report(s, "\(what) may only have a-z, 0-9, hyphen, underscore, dot and colon; give the spot a \"sensor\" or change its label.")
                    continue
                }
                spots[i].sensor = sensor
            }
            if let j = seen[sensor] {
                report(s, "\(what) is the sensor of \(spots[j].origin) already; sensor ids are unique over the site.")
                continue
            }
            seen[sensor] = i
            if let siteCode, let owner = generatedOwner(of: sensor, siteCode: siteCode) {
                report(s, "\(what) is the sensor of \(owner), whose stalls are generated from its capacity; sensor ids are unique over the site.")
            }
        }
    }

    /// The generated stall whose id `sensor` is, if any (labels "7", or "2-7" on a structure).
    func generatedOwner(of sensor: String, siteCode: String) -> String? {
        for lot in lots where lot.spots.isEmpty {
            guard let code = lot.code, let capacity = lot.capacity, let levels = lot.levels else { continue }
            let prefix = "\(siteCode)-\(code)-".lowercased()
            guard sensor.hasPrefix(prefix) else { continue }
            let parts = sensor.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { p in Int(p).flatMap { String($0) == p ? $0 : nil } }
            guard numbers.count == parts.count else { continue }
            if levels == 1, numbers.count == 1, (1...capacity).contains(numbers[0]) {
                return "stall \(numbers[0]) of lot '\(code)'"
            }
            if levels > 1, numbers.count == 2, (1...levels).contains(numbers[0]) {
                let level = numbers[0] - 1
                let onLevel = capacity / levels + (level < capacity % levels ? 1 : 0)
                if numbers[1] >= 1, numbers[1] <= onLevel {
                    return "stall \(numbers[0])-\(numbers[1]) of lot '\(code)'"
                }
            }
        }
        return nil
    }

    /// Capacity and the spot counts agree; a booking fits the lot.
    mutating func checkLots() {
        for li in lots.indices {
            let lot = lots[li], s = Scope(place: lot.place)
            let listed = lot.spots.count
            var capacity = lot.capacity
            if listed == 0 {
                if !lot.capacityGiven {
                    report(s, "needs \"capacity\", the number of spaces, since no spots of this lot are listed.")
                }
                if let capacity, let a = lot.accessible ?? (lot.accessibleGiven ? nil : 0), let e = lot.ev ?? (lot.evGiven ? nil : 0),
                   a + e > capacity {
                    report(s, "\"accessibleSpots\" and \"evSpots\" together (\(a + e)) must not be more than \"capacity\" (\(capacity)).")
                }
            } else {
                capacity = listed
                if let given = lot.capacity, given != listed {
                    report(s, "\"capacity\" is \(given) but \(listed) spot\(listed == 1 ? " of this lot is" : "s of this lot are") listed; "
                        + "leave \"capacity\" out or make it \(listed).")
                }
                if listed > SiteImport.maximumCapacity {
                    report(s, "has \(listed) spots listed; a lot has at most \(SiteImport.maximumCapacity).")
                }
                let categories = lot.spots.map { spots[$0].category }
                for (key, category, given, wasGiven) in [("accessibleSpots", SpotCategory.handicap, lot.accessible, lot.accessibleGiven),
                                                         ("evSpots", .ev, lot.ev, lot.evGiven)] {
                    guard wasGiven, let given, !categories.contains(nil) else { continue }
                    let counted = categories.filter { $0 == category }.count
                    if given != counted {
                        report(s, "\"\(key)\" is \(given) but \(counted) of the listed spots \(counted == 1 ? "is" : "are") "
                            + "\(category == .ev ? "ev" : "accessible"); "
                            + "leave \"\(key)\" out when the spots are listed, their \"kind\" says it.")
                    }
                }
            }
            if let booking = lot.booking, let capacity, booking.capacity > capacity {
                report(s, "\"spaces\" in \"booking\" must be at most the lot's \(capacity) spaces, not \(booking.capacity).")
            }
            if let rules = lot.permitRules, let kinds = site?.permits { checkPermitCodes(rules, site: kinds, s) }
        }
    }

    // MARK: The site

    func assemble() -> SiteImport.ImportedSite? {
        guard let site, let siteCode = site.code, let name = site.name, let timeZone = site.timeZone, let center = site.center,
              let permits = site.permits
        else { return nil }
        var plans: [LotPlan] = []
        var allSpots: [String: [SpotPlan]] = [:]
        for lot in lots {
            var surveyed: [SpotPlan] = []
            // Ordinals run level by level, in file order within a level.
            let order = lot.spots.enumerated().sorted { a, b in
                let la = spots[a.element].level ?? 0, lb = spots[b.element].level ?? 0
                return la != lb ? la < lb : a.offset < b.offset
            }
            for (_, i) in order {
                let d = spots[i]
                guard let label = d.label, let level = d.level, let category = d.category, let c = d.center,
                      let heading = d.heading, let length = d.length, let width = d.width, let sensor = d.sensor
                else { return nil }
                surveyed.append(SpotPlan(ordinal: surveyed.count, label: label, level: level, category: category, center: c,
                                         headingDegrees: heading, lengthMetres: length, widthMetres: width, sensorId: sensor))
            }
            let generated = surveyed.isEmpty
            guard let code = lot.code, let lotName = lot.name, let kind = lot.kind, let levels = lot.levels,
                  let footprint = lot.footprint, let entrance = lot.entrance,
                  let capacity = generated ? lot.capacity : surveyed.count,
                  let hours = lot.hours, let price = lot.price, let permitRules = lot.permitRules, let rules = lot.rules,
                  let address = lot.address, let keysRequired = lot.keysRequired, lot.booking != nil || !lot.bookingGiven
            else { return nil }
            let plan = LotPlan(
                code: code, name: lotName, kind: kind, levels: levels, footprint: footprint, entrance: entrance,
                capacity: capacity,
                handicapSpots: generated ? lot.accessible ?? 0 : surveyed.filter { $0.category == .handicap }.count,
                evSpots: generated ? lot.ev ?? 0 : surveyed.filter { $0.category == .ev }.count,
                permitRules: permitRules, hours: hours, price: price, rules: rules, address: address,
                keysRequired: keysRequired, booking: lot.booking)
            plans.append(plan)
            allSpots[code] = generated ? SpotLayout.spots(for: plan, siteCode: siteCode) : surveyed
        }
        let plan = SitePlan(code: siteCode, name: name, timeZone: timeZone, center: center, lots: plans, permits: permits)
        return SiteImport.ImportedSite(plan: plan, spots: allSpots)
    }
}
