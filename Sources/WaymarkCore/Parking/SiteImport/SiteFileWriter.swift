import Foundation

/// Writes a site in the format `SiteImport` reads (SITE_FILES.md), so that an operator can start
/// from the running site rather than from a blank file. Lots are written with a generated layout
/// (capacity, accessibleSpots, evSpots), never as spot features.
public enum SiteFileWriter {
    /// Pretty-printed UTF-8 with sorted keys, so that two exports of one site diff cleanly.
    public static func geoJSON(_ plan: SitePlan) -> Data {
        var site: [String: JSONValue] = [
            "feature": .string("site"), "code": .string(plan.code), "name": .string(plan.name), "timeZone": .string(plan.timeZone),
        ]
        if !plan.permits.isEmpty {
            site["permits"] = .array(plan.permits.map { .object(["code": .string($0.code.rawValue), "name": .string($0.name), "colour": .string($0.colour)]) })
        }
        var features: [JSONValue] = [feature(site, geometry: ["type": .string("Point"), "coordinates": position(plan.center)])]
        features += plan.lots.map(lotFeature)
        let root: JSONValue = .object(["type": .string("FeatureCollection"), "features": .array(features)])
        return Data(JSONText.pretty(root).utf8)
    }

    static func lotFeature(_ lot: LotPlan) -> JSONValue {
        let currency = lot.price.currency
        var p: [String: JSONValue] = [
            "feature": .string("lot"), "code": .string(lot.code), "name": .string(lot.name), "kind": .string(lot.kind.rawValue),
            "levels": number(lot.levels), "entrance": position(lot.entrance),
            "capacity": number(lot.capacity), "accessibleSpots": number(lot.handicapSpots), "evSpots": number(lot.evSpots),
            "price": .object(["currency": .string(currency), "hourly": amount(lot.price.hourlyCents, currency),
                              "dailyMax": amount(lot.price.dailyMaxCents, currency)]),
            "keysRequired": .bool(lot.keysRequired),
        ]
        if !lot.hours.isEmpty { p["hours"] = hours(lot.hours) }
        if !lot.permitRules.isEmpty { p["permits"] = permits(lot.permitRules) }
        if !lot.rules.isEmpty { p["rules"] = .array(lot.rules.map(JSONValue.string)) }
        if !lot.address.isEmpty { p["address"] = .string(lot.address) }
        if let b = lot.booking { p["booking"] = booking(b, lotHours: lot.hours, currency: currency) }
        var ring = lot.footprint.map(position)
        if let first = lot.footprint.first, lot.footprint.last != first || lot.footprint.count == 1 { ring.append(position(first)) }
        return feature(p, geometry: ["type": .string("Polygon"), "coordinates": .array([.array(ring)])])
    }

    static func permits(_ rules: [PermitRule]) -> JSONValue {
        .array(rules.map { r in
            .object(["days": .string(days(r.weekdays)), "from": .string(time(r.startMinute)), "to": .string(time(r.endMinute)),
                     "permits": .array(r.permits.sorted().map { .string($0.rawValue) })])
        })
    }

    static func booking(_ b: BookingOffer, lotHours: [OpeningHours], currency: String) -> JSONValue {
        let t = b.pricing
        var o: [String: JSONValue] = [
            "spaces": number(b.capacity), "dailyFee": amount(t.dailyFeeMinor, currency),
            "includedMinutes": number(t.includedMinutesPerDay), "rate": amount(t.rateMinor, currency),
            "rateUnitMinutes": number(t.rateUnitMinutes),
            // The format counts whole days; a shorter limit would be lost, so it rounds up.
            "maximumDays": number(max(1, Int((t.maximumDuration / 86_400).rounded(.up)))),
        ]
        if let cap = t.dailyCapMinor { o["dailyCap"] = amount(cap, currency) }
        if t.hours != lotHours { o["hours"] = hours(t.hours) }
        return .object(o)
    }

    static func feature(_ properties: [String: JSONValue], geometry: [String: JSONValue]) -> JSONValue {
        .object(["type": .string("Feature"), "properties": .object(properties), "geometry": .object(geometry)])
    }

    static func position(_ c: Coordinate) -> JSONValue { .array([.number(c.longitude), .number(c.latitude)]) }

    static func number(_ n: Int) -> JSONValue { .number(Double(n)) }

    static func hours(_ spans: [OpeningHours]) -> JSONValue {
        .array(spans.map { h in
            .object(["days": .string(days(h.weekdays)), "open": .string(time(h.openMinute)), "close": .string(time(h.closeMinute))])
        })
    }

    /// "Mo-Fr", "Sa,Su", "Mo-We,Fr": runs of three days or more as a range.
    static func days(_ set: Set<Weekday>) -> String {
        let names = SiteImport.Reader.dayNames, numbers = SiteImport.Reader.dayNumbers
        var parts: [String] = []
        var k = 0
        while k < 7 {
            guard set.contains(numbers[k]) else { k += 1; continue }
            var end = k
            while end + 1 < 7, set.contains(numbers[end + 1]) { end += 1 }
            parts += end - k >= 2 ? ["\(names[k])-\(names[end])"] : (k...end).map { names[$0] }
            k = end + 1
        }
        return parts.joined(separator: ",")
    }

    static func time(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// A decimal string with the currency's decimals: 250 USD cents → "2.50", 500 JPY → "500".
    static func amount(_ minor: Int, _ currency: String) -> JSONValue {
        let digits = Money.minorDigits(currency)
        let sign = minor < 0 ? "-" : ""
        var text = String(minor.magnitude)
        guard digits > 0 else { return .string(sign + text) }
        if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
        return .string(sign + text.dropLast(digits) + "." + text.suffix(digits))
    }
}

/// JSON text for a person to read: two-space indents, sorted keys, and short lists and objects
/// of plain values (positions, prices, opening hours) on one line.
enum JSONText {
    static func pretty(_ v: JSONValue) -> String {
        var out = ""
        write(v, indent: 0, into: &out)
        out += "\n"
        return out
    }

    private static func isPlain(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: false
        default: true
        }
    }

    private static func write(_ v: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent + 2), end = String(repeating: " ", count: indent)
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d):
            if !d.isFinite { out += "null" }
            else if d.rounded() == d, abs(d) < 1e15 { out += String(Int64(d)) }
            else { out += "\(d)" }
        case .string(let s): string(s, into: &out)
        case .array(let a):
            if a.isEmpty { out += "[]"; return }
            if a.allSatisfy(isPlain) {
                var line = "["
                for (i, e) in a.enumerated() {
                    if i > 0 { line += ", " }
                    write(e, indent: indent, into: &line)
                }
                line += "]"
                if line.count <= 100 { out += line; return }
            }
            out += "[\n"
            for (i, e) in a.enumerated() {
                out += pad
                write(e, indent: indent + 2, into: &out)
                out += i + 1 < a.count ? ",\n" : "\n"
            }
            out += end + "]"
        case .object(let o):
            if o.isEmpty { out += "{}"; return }
            let keys = o.keys.sorted()
            // A short object of plain values (a price, an opening-hours entry) reads best on one line.
            if o.values.allSatisfy(isPlain) {
                var line = "{"
                for (i, key) in keys.enumerated() {
                    if i > 0 { line += ", " }
                    string(key, into: &line)
                    line += ": "
                    if let value = o[key] { write(value, indent: indent, into: &line) }
                }
                line += "}"
                if line.count <= 100 { out += line; return }
            }
            out += "{\n"
            for (i, key) in keys.enumerated() {
                out += pad
                string(key, into: &out)
                out += ": "
                if let value = o[key] { write(value, indent: indent + 2, into: &out) }
                out += i + 1 < keys.count ? ",\n" : "\n"
            }
            out += end + "}"
        }
    }

    private static func string(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
