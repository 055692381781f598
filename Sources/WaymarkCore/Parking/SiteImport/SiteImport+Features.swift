import Foundation

extension SiteImport {
    struct SiteDraft {
        var place: Place
        var code: String?
        var name: String?
        var timeZone: String?
        var center: Coordinate?
        var permits: [PermitKind]? = []
    }

    /// A lot as read; a nil field was wrong or missing, and a problem says so.
    struct LotDraft {
        var place: Place
        var code: String?
        var name: String?
        var kind: LotKind? = .surface
        var levels: Int? = 1
        var footprint: [Coordinate]?
        var entrance: Coordinate?
        var capacityGiven = false, capacity: Int?
        var accessibleGiven = false, accessible: Int?
        var evGiven = false, ev: Int?
        var hours: [OpeningHours]? = []
        var price: LotPrice?
        var permitRules: [PermitRule]? = []
        var rules: [String]? = []
        var address: String? = ""
        var keysRequired: Bool? = false
        var bookingGiven = false, booking: BookingOffer?
        /// Indices into `Reader.spots`, in file order.
        var spots: [Int] = []
    }

    /// A spot from a feature or a CSV row.
    struct SpotDraft {
        var scope: Scope
        /// "feature 9", "line 4 of spots.csv": how another problem points at this spot.
        var origin: String
        var lotRef: String?
        var label: String?
        var level: Int? = 0
        var category: SpotCategory? = .regular
        var center: Coordinate?
        var heading: Double? = 0
        var length: Double?
        var width: Double?
        var sensorGiven = false
        /// As given, or the default once the lot is known.
        var sensor: String?
        /// Index into `Reader.lots`, once resolved.
        var lot: Int?
    }
}

extension SiteImport.Reader {
    /// The lot with this code, ignoring case. Codes are kept as written even when wrong, so that
    /// the spots of a lot with a bad code are not reported a second time.
    func lotIndex(_ code: String) -> Int? { lotsByCode[code.lowercased()] }

    static func short(_ s: String) -> String { s.count > 20 ? String(s.prefix(20)) + "…" : s }

    mutating func readFeature(_ f: JSONValue, _ k: Int) {
        let place = Place(file: file, rank: 0, position: k, item: "feature \(k + 1)")
        guard let feature = f.object else {
            report(place, "must be a GeoJSON Feature object, not \(Self.describe(f)).")
            return
        }
        guard feature["type"] == .string("Feature") else {
            report(place, "\"type\" must be \"Feature\", not \(Self.describe(feature["type"])).")
            return
        }
        guard let properties = feature["properties"]?.object else {
            report(place, "needs \"properties\", an object whose \"feature\" says whether this is the site, a lot or a spot.")
            return
        }
        switch Self.present(properties["feature"]) {
        case .string("site")?: readSite(properties, feature["geometry"], k)
        case .string("lot")?: readLot(properties, feature["geometry"], k)
        case .string("spot")?: readSpotFeature(properties, feature["geometry"], k)
        case let other:
            report(place, "\"feature\" in its properties must be \"site\", \"lot\" or \"spot\", not \(Self.describe(other)).")
        }
    }

    // MARK: Site

    mutating func readSite(_ p: [String: JSONValue], _ geometry: JSONValue?, _ k: Int) {
        var place = Place(file: file, rank: 0, position: k, item: "feature \(k + 1) (site)")
        if let c = p["code"]?.string, !c.isEmpty { place.item = "feature \(k + 1) (site '\(Self.short(c))')" }
        let s = Scope(place: place)
        if let first = siteFeature {
            report(s, "a file describes one site, and feature \(first + 1) is the site already.")
            return
        }
        siteFeature = k
        var d = SiteDraft(place: place)
        let codeRule = "2 to 16 lower-case letters, digits or hyphens; it starts every sensor id"
        if let v = Self.present(p["code"]) {
            if let c = v.string, (2...16).contains(c.count), c.utf8.allSatisfy({ Self.isLowerDigitOrHyphen($0) }) {
                d.code = c
            } else {
                report(s, "\"code\" must be \(codeRule), not \(Self.describe(v)).")
            }
        } else {
            report(s, s.needs("code", "the site's short name such as \"csuf\" (\(codeRule))"))
        }
        if let v = Self.present(p["name"]) { d.name = text(v, "\"name\"", 1...100, s) } else {
            report(s, s.needs("name", "the site's name as people know it (1 to 100 characters)"))
        }
        if let v = Self.present(p["timeZone"]) {
            if let z = v.string, !z.isEmpty, TimeZone(identifier: z) != nil { d.timeZone = z } else {
                report(s, "\"timeZone\" must be a time zone name such as \"America/Los_Angeles\", not \(Self.describe(v)).")
            }
        } else {
            report(s, s.needs("timeZone", "a time zone name such as \"America/Los_Angeles\"; opening hours and permit times are read in it"))
        }
        d.center = point(geometry, "the site's centre", s)
        if let v = Self.present(p["permits"]) { d.permits = permitKinds(v, s) }
        site = d
    }

    static func isLowerDigitOrHyphen(_ b: UInt8) -> Bool { (97...122).contains(b) || (48...57).contains(b) || b == 45 }
    static func isLetterOrDigit(_ b: UInt8) -> Bool { (97...122).contains(b) || (65...90).contains(b) || (48...57).contains(b) }

    // MARK: Lot

    mutating func readLot(_ p: [String: JSONValue], _ geometry: JSONValue?, _ k: Int) {
        var place = Place(file: file, rank: 0, position: k, item: "feature \(k + 1) (lot)")
        let written = p["code"]?.string?.trimmingCharacters(in: .whitespaces)
        if let c = written, !c.isEmpty { place.item = "feature \(k + 1) (lot '\(Self.short(c))')" }
        let s = Scope(place: place)
        var lot = LotDraft(place: place)

        let codeRule = "1 to 8 letters or digits such as \"A\" or \"P2\"; it is part of every sensor id"
        if let v = Self.present(p["code"]) {
            if let c = written, (1...8).contains(c.count), c.utf8.allSatisfy(Self.isLetterOrDigit) {
                if let other = lotIndex(c) {
                    report(s, "\"code\" \(Self.quoted(c)) is the code of \(lots[other].place.item ?? "another lot") already; "
                        + "lot codes must differ, even in upper and lower case.")
                } else {
                    lot.code = c
                }
            } else {
                report(s, "\"code\" must be \(codeRule), not \(Self.describe(v)).")
            }
        } else {
            report(s, s.needs("code", "the lot's short name on signs (\(codeRule))"))
        }
        // Kept as written so that its spots find it even when the code is wrong.
        if let c = written, !c.isEmpty, lotIndex(c) == nil { lotsByCode[c.lowercased()] = lots.count }

        if let v = Self.present(p["name"]) { lot.name = text(v, "\"name\"", 1...100, s) } else {
            report(s, s.needs("name", "the lot's name as drivers see it (1 to 100 characters)"))
        }
        if let v = Self.present(p["kind"]) {
            lot.kind = v.string.flatMap(LotKind.init(rawValue:))
            if lot.kind == nil { report(s, "\"kind\" must be \"surface\" or \"structure\", not \(Self.describe(v)).") }
        }
        if let v = Self.present(p["levels"]) {
            lot.levels = whole(v, "\"levels\"", 1...SiteImport.maximumLevels, s)
        }
        lot.footprint = outline(geometry, s)
        if let v = Self.present(p["entrance"]) {
            lot.entrance = position(v, "\"entrance\"", s)
        } else {
            report(s, s.needs("entrance", "the [longitude, latitude] where cars drive in"))
        }
        if let footprint = lot.footprint, let entrance = lot.entrance {
            let metres = Self.distance(entrance, toOutline: footprint)
            if metres > SiteImport.entranceReach {
                report(s, "\"entrance\" must be within \(Int(SiteImport.entranceReach)) m of the lot's outline, not \(Int(metres.rounded())) m from it.")
            }
        }
        let spaces = 0...SiteImport.maximumCapacity
        if let v = Self.present(p["capacity"]) {
            lot.capacityGiven = true
            lot.capacity = whole(v, "\"capacity\"", 1...SiteImport.maximumCapacity, s)
        }
        if let v = Self.present(p["accessibleSpots"]) {
            lot.accessibleGiven = true
            lot.accessible = whole(v, "\"accessibleSpots\"", spaces, s)
        }
        if let v = Self.present(p["evSpots"]) {
            lot.evGiven = true
            lot.ev = whole(v, "\"evSpots\"", spaces, s)
        }
        if let v = Self.present(p["hours"]) {
            lot.hours = windows(v, "hours", from: "open", to: "close", s).flatMap { r in
                r.ok ? r.entries.map { OpeningHours(weekdays: $0.days, openMinute: $0.start, closeMinute: $0.end) } : nil
            }
        }
        if let v = Self.present(p["price"]) { lot.price = price(v, s) } else {
            report(s, s.needs("price", "the pay-station price such as {\"currency\": \"USD\", \"hourly\": \"2.00\", \"dailyMax\": \"12.00\"}"))
        }
        if let v = Self.present(p["permits"]) { lot.permitRules = permitRules(v, s) }
        if let v = Self.present(p["rules"]) { lot.rules = rules(v, s) }
        if let v = Self.present(p["address"]) { lot.address = text(v, "\"address\"", 0...200, s) }
        if let v = Self.present(p["keysRequired"]) { lot.keysRequired = bool(v, "\"keysRequired\"", s) }
        if let v = Self.present(p["booking"]) {
            lot.bookingGiven = true
            lot.booking = booking(v, price: lot.price, lotHours: lot.hours, s)
        }
        lots.append(lot)
    }

    mutating func price(_ v: JSONValue, _ s: Scope) -> LotPrice? {
        let example = "{\"currency\": \"USD\", \"hourly\": \"2.00\", \"dailyMax\": \"12.00\"}"
        guard let o = v.object else {
            report(s, "\"price\" must be an object such as \(example), not \(Self.describe(v)).")
            return nil
        }
        let ps = s.inside("price")
        let currency = currency(o["currency"], ps)
        let hourly = need(o, "hourly", ps, "the price of each started hour").flatMap { amount($0, ps.name("hourly"), currency: currency, ps) }
        let dailyMax = need(o, "dailyMax", ps, "the most a day costs").flatMap { amount($0, ps.name("dailyMax"), currency: currency, ps) }
        guard let currency, let hourly, let dailyMax else { return nil }
        guard dailyMax >= hourly else {
            report(ps, "\(ps.name("dailyMax")) (\(Money(dailyMax, currency).displayText)) must be at least "
                + "\"hourly\" (\(Money(hourly, currency).displayText)): it caps what a day costs.")
            return nil
        }
        return LotPrice(currency: currency, hourlyCents: hourly, dailyMaxCents: dailyMax)
    }

    mutating func currency(_ v: JSONValue?, _ s: Scope) -> String? {
        guard let v = Self.present(v) else {
            report(s, s.needs("currency", "three upper-case letters such as \"USD\""))
            return nil
        }
        if let c = v.string, Money.isValidCurrency(c) { return c }
        report(s, "\(s.name("currency")) must be three upper-case letters such as \"USD\", not \(Self.describe(v)).")
        return nil
    }

    /// The value of `key`, or nil after reporting it missing.
    mutating func need(_ o: [String: JSONValue], _ key: String, _ s: Scope, _ what: String) -> JSONValue? {
        if let v = Self.present(o[key]) { return v }
        report(s, s.needs(key, what))
        return nil
    }

    /// Lot rules; whether the site issues the permits they name is checked once the site is read.
    mutating func permitRules(_ v: JSONValue, _ s: Scope) -> [PermitRule]? {
        guard let read = windows(v, "permits", from: "from", to: "to", s) else { return nil }
        var out: [PermitRule] = []
        var allRight = read.ok
        for e in read.entries {
            let name = e.scope.name("permits")
            guard let list = Self.present(e.entry["permits"])?.array, !list.isEmpty else {
                report(e.scope, "\(name) must be a list of at least one permit code such as [\"green\"], not \(Self.describe(e.entry["permits"])).")
                allRight = false
                continue
            }
            var permits: Set<Permit> = []
            for p in list {
                if let word = p.string, let permit = Permit(rawValue: word) { permits.insert(permit); continue }
                report(e.scope, "\(name) names \(Self.describe(p)), which is not a permit code (\(Permit.codeRule)).")
                allRight = false
            }
            out.append(PermitRule(weekdays: e.days, startMinute: e.start, endMinute: e.end, permits: permits))
        }
        return allRight ? out : nil
    }

    mutating func rules(_ v: JSONValue, _ s: Scope) -> [String]? {
        guard let list = list(v, "\"rules\"", of: "texts shown to drivers", s) else { return nil }
        guard list.count <= SiteImport.maximumRules else {
            report(s, "\"rules\" must be a list of at most \(SiteImport.maximumRules) texts, not \(list.count).")
            return nil
        }
        var out: [String] = []
        for (k, r) in list.enumerated() {
            if let t = text(r, "\"rules\" entry \(k + 1)", 1...200, s) { out.append(t) }
        }
        return out.count == list.count ? out : nil
    }

    mutating func booking(_ v: JSONValue, price: LotPrice?, lotHours: [OpeningHours]?, _ s: Scope) -> BookingOffer? {
        guard let o = v.object else {
            report(s, "\"booking\" must be an object such as {\"spaces\": 40, \"rate\": \"2.00\", \"dailyCap\": \"12.00\"}, not \(Self.describe(v)).")
            return nil
        }
        let bs = s.inside("booking")
        let currency = price?.currency
        var ok = true
        func optional<T>(_ key: String, _ fallback: T?, _ read: (JSONValue) -> T?) -> T? {
            guard let v = Self.present(o[key]) else { return fallback }
            let r = read(v)
            if r == nil { ok = false }
            return r
        }
        let spaces = need(o, "spaces", bs, "the number of spaces set aside for bookings").flatMap {
            whole($0, bs.name("spaces"), 1...BookingOffer.maximumCapacity, bs)
        }
        let fee = optional("dailyFee", 0) { amount($0, bs.name("dailyFee"), currency: currency, bs) }
        let included = optional("includedMinutes", 0) { whole($0, bs.name("includedMinutes"), 0...1500, bs) }
        let rate = optional("rate", 0) { amount($0, bs.name("rate"), currency: currency, bs) }
        let unit = optional("rateUnitMinutes", SiteImport.defaultRateUnitMinutes) { whole($0, bs.name("rateUnitMinutes"), 1...1440, bs) }
        let cap: Int?? = optional("dailyCap", Int??.some(nil)) { amount($0, bs.name("dailyCap"), currency: currency, bs).map { Int?.some($0) } }
        let days = optional("maximumDays", SiteImport.defaultBookingDays) {
            whole($0, bs.name("maximumDays"), 1...SiteImport.maximumBookingDays, bs)
        }
        // Booked spaces keep the lot's hours unless the booking says otherwise (a lot open all
        // night may still not take bookings for it).
        var hours = lotHours
        if let h = Self.present(o["hours"]) {
            hours = windows(h, "hours", from: "open", to: "close", bs).flatMap { r in
                r.ok ? r.entries.map { OpeningHours(weekdays: $0.days, openMinute: $0.start, closeMinute: $0.end) } : nil
            }
            if hours == nil { ok = false }
        }
        guard ok, let spaces, let fee, let included, let rate, let unit, let cap, let days, let hours, let currency else { return nil }
        if let cap, cap < fee {
            report(bs, "\(bs.name("dailyCap")) (\(Money(cap, currency).displayText)) must be at least "
                + "\"dailyFee\" (\(Money(fee, currency).displayText)): it caps what a day costs, the fee included.")
            return nil
        }
        let offer = BookingOffer(capacity: spaces, pricing: LotPricing(
            currency: currency, dailyFeeMinor: fee, includedMinutesPerDay: included, rateMinor: rate, rateUnitMinutes: unit,
            dailyCapMinor: cap, hours: hours, maximumDuration: TimeInterval(days) * 86_400))
        if let problem = offer.problem {
            report(bs, "\"booking\" cannot take bookings: \(problem)")
            return nil
        }
        return offer
    }

    // MARK: Spot

    mutating func readSpotFeature(_ p: [String: JSONValue], _ geometry: JSONValue?, _ k: Int) {
        let label = p["label"]?.string.map { " '\(Self.short($0))'" } ?? ""
        let lot = p["lot"]?.string.map { " of lot '\(Self.short($0))'" } ?? ""
        let place = Place(file: file, rank: 0, position: k, item: "feature \(k + 1) (spot\(label)\(lot))")
        let s = Scope(place: place)
        spots.append(spotFields(p, center: point(geometry, "the centre of the stall", s), s, origin: "feature \(k + 1)"))
    }

    /// The properties of a spot feature, or a CSV row as such properties.
    mutating func spotFields(_ p: [String: JSONValue], center: Coordinate?, _ s: Scope, origin: String) -> SpotDraft {
        var d = SpotDraft(scope: s, origin: origin, center: center)
        if let v = Self.present(p["lot"]) {
            if let t = v.string?.trimmingCharacters(in: .whitespaces), !t.isEmpty { d.lotRef = t } else {
                report(s, "\(s.name("lot")) must be the code of a lot in \(file), not \(Self.describe(v)).")
            }
        } else {
            report(s, s.needs("lot", "the code of the lot the spot belongs to"))
        }
        if let v = Self.present(p["label"]) { d.label = text(v, s.name("label"), 1...16, s) } else {
            report(s, s.needs("label", "what is painted on the stall (1 to 16 characters)"))
        }
        if let v = Self.present(p["level"]) {
            d.level = whole(v, s.name("level"), 0...(SiteImport.maximumLevels - 1), s, meaning: ", 0 being the ground level")
        }
        if let v = Self.present(p["kind"]) {
            let word = v.string?.trimmingCharacters(in: .whitespaces)
            d.category = SiteImport.spotKinds.first { $0.word == word }?.category
            if d.category == nil {
                report(s, "\(s.name("kind")) must be standard, accessible, ev, motorcycle, reserved or visitor, not \(Self.describe(v)).")
            }
        }
        if let v = Self.present(p["sensor"]) {
            d.sensorGiven = true
            let t = v.string?.trimmingCharacters(in: .whitespaces)
            if let t, Self.isSensorId(t) { d.sensor = t } else {
                report(s, "\(s.name("sensor")) must be 1 to 64 characters of a-z, 0-9, hyphen, underscore, dot and colon, "
                    + "not \(Self.describe(v)).")
            }
        }
        if let v = Self.present(p["heading"]) {
            d.heading = number(v, s.name("heading"), 0...360, belowUpper: true, unit: "degrees, clockwise from north,", s)
        }
        let size = SiteImport.defaultSize(d.category ?? .regular)
        d.length = size.length
        d.width = size.width
        if let v = Self.present(p["length"]) { d.length = number(v, s.name("length"), 0.5...20, unit: "metres", s) }
        if let v = Self.present(p["width"]) { d.width = number(v, s.name("width"), 0.5...20, unit: "metres", s) }
        return d
    }

    static func isSensorId(_ t: String) -> Bool {
        (1...64).contains(t.utf8.count) && t.utf8.allSatisfy { b in
            (97...122).contains(b) || (48...57).contains(b) || b == 45 || b == 95 || b == 46 || b == 58
        }
    }

    // MARK: Geometry

    mutating func point(_ g: JSONValue?, _ what: String, _ s: Scope) -> Coordinate? {
        guard let g = Self.present(g) else {
            report(s, "needs a \"geometry\": a Point at \(what).")
            return nil
        }
        guard g["type"] == .string("Point") else {
            report(s, "\"geometry\" must be a Point at \(what), not \(Self.geometryName(g)).")
            return nil
        }
        return position(g["coordinates"], "the Point's \"coordinates\"", s)
    }

    static func geometryName(_ g: JSONValue) -> String {
        if let t = g["type"]?.string { return "a \(quoted(t))" }
        return describe(g)
    }

    /// The outer ring of a Polygon without its closing position; holes are no concern of a
    /// parking site.
    mutating func outline(_ g: JSONValue?, _ s: Scope) -> [Coordinate]? {
        guard let g = Self.present(g) else {
            report(s, "needs a \"geometry\": a Polygon, the lot's outline.")
            return nil
        }
        guard g["type"] == .string("Polygon") else {
            report(s, "\"geometry\" must be a Polygon, the lot's outline, not \(Self.geometryName(g)).")
            return nil
        }
        guard let rings = g["coordinates"]?.array, let outer = rings.first?.array else {
            report(s, "the Polygon's \"coordinates\" must be a list of rings, each a list of [longitude, latitude] positions, "
                + "not \(Self.describe(g["coordinates"])).")
            return nil
        }
        var ring: [Coordinate] = []
        for (j, p) in outer.enumerated() {
            guard let c = position(p, "position \(j + 1) of the outline", s) else { return nil }
            ring.append(c)
        }
        guard ring.count >= 4 else {
            report(s, "the outline must have at least 4 positions, the last one repeating the first, not \(ring.count).")
            return nil
        }
        guard let first = ring.first, let last = ring.last, first == last else {
            report(s, "the outline must end at the position it starts at, as GeoJSON requires.")
            return nil
        }
        ring.removeLast()
        guard ring.count <= SiteImport.maximumOutlinePositions else {
            report(s, "the outline must have at most \(SiteImport.maximumOutlinePositions) corners, not \(ring.count).")
            return nil
        }
        if let origin = ring.first {
            let local = ring.map { Geo.localMetres(of: $0, from: origin) }
            let east = (local.map(\.east).max() ?? 0) - (local.map(\.east).min() ?? 0)
            let north = (local.map(\.north).max() ?? 0) - (local.map(\.north).min() ?? 0)
            let limit = SiteImport.maximumLotSpan
            // Larger is no car park but a misplaced corner, and would make a layout of millions of stalls.
            guard east <= limit, north <= limit else {
                report(s, "the outline must fit in \(Int(limit)) m by \(Int(limit)) m, not span \(Int(east.rounded())) m east to west "
                    + "and \(Int(north.rounded())) m north to south; is a corner misplaced?")
                return nil
            }
        }
        guard abs(Self.area(ring)) >= 1 else {
            report(s, "the outline must enclose an area; its corners lie on one line.")
            return nil
        }
        return ring
    }

    /// Square metres, signed, in a plane around the first corner.
    static func area(_ ring: [Coordinate]) -> Double {
        guard let origin = ring.first else { return 0 }
        let pts = ring.map { Geo.localMetres(of: $0, from: origin) }
        var twice = 0.0
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            twice += a.east * b.north - b.east * a.north
        }
        return twice / 2
    }

    /// Metres from `p` to the nearest edge of `ring`; 0 inside it.
    static func distance(_ p: Coordinate, toOutline ring: [Coordinate]) -> Double {
        if Geo.contains(ring, p) { return 0 }
        let pts = ring.map { Geo.localMetres(of: $0, from: p) }
        var best = Double.infinity
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            let dx = b.east - a.east, dy = b.north - a.north
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, -(a.east * dx + a.north * dy) / len2)) : 0
            let x = a.east + t * dx, y = a.north + t * dy
            best = min(best, (x * x + y * y).squareRoot())
        }
        return best
    }
}
