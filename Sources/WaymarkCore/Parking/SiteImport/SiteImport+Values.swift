import Foundation

extension SiteImport {
    /// Where a problem is: a file, an order key within it, and the item a person looks for.
    struct Place {
        var file: String
        /// 0 for the GeoJSON file, 1 for the CSV: problems are sorted by file first.
        var rank: Int
        /// Feature index or line number; `Int.max` for the file as a whole, after its items.
        var position: Int
        var item: String?
    }

    /// How a value is named in a rule: `"levels"` in a feature, `column "level"` in the CSV,
    /// `"open" in "hours" entry 2` inside a list.
    struct Scope {
        var place: Place
        var prefix = ""
        var suffix = ""

        func name(_ key: String) -> String { "\(prefix)\"\(key)\"\(suffix)" }

        /// The rule for a missing value, `what` saying what it is for.
        func needs(_ key: String, _ what: String) -> String {
            prefix.isEmpty ? "needs \(name(key)), \(what)." : "needs a value in \(name(key)), \(what)."
        }

        /// `"hours" entry 2`, or `"hours" entry 2 in "booking"` inside an object.
        func entry(_ key: String, _ number: Int) -> String { "\(prefix)\"\(key)\" entry \(number)\(suffix)" }

        /// The scope of the values of an object that is itself property `key` (or its entry).
        func inside(_ key: String, entry: Int? = nil) -> Scope {
            Scope(place: place, prefix: "", suffix: " in \"\(key)\"" + (entry.map { " entry \($0)" } ?? "") + suffix)
        }
    }

    struct Reader {
        // Spelled out for the extensions in other files, which do not see SiteImport's names.
        typealias Place = SiteImport.Place
        typealias Scope = SiteImport.Scope
        typealias SpotDraft = SiteImport.SpotDraft
        typealias LotDraft = SiteImport.LotDraft
        typealias SiteDraft = SiteImport.SiteDraft

        let file: String
        let csvFile: String
        private var found: [(rank: Int, position: Int, seq: Int, problem: Problem)] = []

        var site: SiteDraft?
        var siteFeature: Int?
        var lots: [LotDraft] = []
        /// Lower-cased code as written → index into `lots`.
        var lotsByCode: [String: Int] = [:]
        var spots: [SpotDraft] = []

        init(file: String, csvFile: String) {
            self.file = file
            self.csvFile = csvFile
        }

        var hasProblems: Bool { !found.isEmpty }

        mutating func report(_ place: Place, _ rule: String) {
            found.append((place.rank, place.position, found.count, Problem(file: place.file, item: place.item, rule: rule)))
        }

        mutating func report(_ scope: Scope, _ rule: String) { report(scope.place, rule) }

        func sortedProblems() -> [Problem] {
            let sorted = found.sorted { ($0.rank, $0.position, $0.seq) < ($1.rank, $1.position, $1.seq) }.map(\.problem)
            guard sorted.count > maximumProblems else { return sorted }
            let more = sorted.count - maximumProblems
            return Array(sorted.prefix(maximumProblems)) + [Problem(
                file: file, item: nil,
                rule: "\(more) more problem\(more == 1 ? " was" : "s were") left out; correct the ones above and read the files again.")]
        }

        // MARK: Values

        /// A JSON null is read as a missing value: spreadsheet and GIS exports write one for an
        /// empty cell.
        static func present(_ v: JSONValue?) -> JSONValue? {
            guard let v, !v.isNull else { return nil }
            return v
        }

        /// A value as it is written, for "…, not X" in a rule.
        static func describe(_ v: JSONValue) -> String {
            switch v {
            case .null: "null"
            case .bool(let b): b ? "true" : "false"
            case .number(let d): numberText(d)
            case .string(let s): quoted(s)
            case .array(let a): a.isEmpty ? "an empty list" : "a list"
            case .object: "an object"
            }
        }

        static func describe(_ v: JSONValue?) -> String { v.map { describe($0) } ?? "missing" }

        static func quoted(_ s: String) -> String {
            let short = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "\"\(short)\""
        }

        static func numberText(_ d: Double) -> String {
            if d.isFinite, d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
            return "\(d)"
        }

        mutating func text(_ v: JSONValue, _ name: String, _ lengths: ClosedRange<Int>, _ s: Scope) -> String? {
            let allowed = lengths.lowerBound == 0 ? "at most \(lengths.upperBound)" : "\(lengths.lowerBound) to \(lengths.upperBound)"
            guard let raw = v.string else {
                report(s, "\(name) must be text of \(allowed) characters, not \(Self.describe(v)).")
                return nil
            }
            let t = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard lengths.contains(t.count) else {
                report(s, "\(name) must be text of \(allowed) characters, not \(t.count) characters.")
                return nil
            }
            // Shown to drivers on one line; a stray NUL would not even store in PostgreSQL.
            guard !t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                report(s, "\(name) must be one line of text without control characters.")
                return nil
            }
            return t
        }

        mutating func whole(_ v: JSONValue, _ name: String, _ range: ClosedRange<Int>, _ s: Scope, meaning: String = "") -> Int? {
            if let d = v.number, d.rounded() == d, d >= Double(range.lowerBound), d <= Double(range.upperBound) { return Int(d) }
            report(s, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(meaning), not \(Self.describe(v)).")
            return nil
        }

        /// A number in `range`, the upper end left out when `belowUpper`.
        mutating func number(_ v: JSONValue, _ name: String, _ range: ClosedRange<Double>, belowUpper: Bool = false,
                             unit: String, _ s: Scope) -> Double? {
            if let d = v.number, d >= range.lowerBound, belowUpper ? d < range.upperBound : d <= range.upperBound { return d }
            let upper = belowUpper ? "up to but not including \(Self.numberText(range.upperBound))" : "to \(Self.numberText(range.upperBound))"
            report(s, "\(name) must be a number of \(unit) from \(Self.numberText(range.lowerBound)) \(upper), not \(Self.describe(v)).")
            return nil
        }

        mutating func bool(_ v: JSONValue, _ name: String, _ s: Scope) -> Bool? {
            if let b = v.bool { return b }
            report(s, "\(name) must be true or false, not \(Self.describe(v)).")
            return nil
        }

        /// `[longitude, latitude]`, as GeoJSON writes positions; an elevation after them is ignored.
        mutating func position(_ v: JSONValue?, _ name: String, _ s: Scope) -> Coordinate? {
            guard let v = Self.present(v) else {
                report(s, "\(name) must be [longitude, latitude], not missing.")
                return nil
            }
            guard let a = v.array, (2...3).contains(a.count), a.allSatisfy({ $0.number != nil }),
                  let lon = a[0].number, let lat = a[1].number else {
                report(s, "\(name) must be [longitude, latitude], two numbers, not \(Self.describe(v)).")
                return nil
            }
            let c = Coordinate(latitude: lat, longitude: lon)
            guard c.isValid else {
                report(s, "\(name) must be [longitude, latitude] with longitude from -180 to 180 and latitude from -90 to 90, "
                    + "not [\(Self.numberText(lon)), \(Self.numberText(lat))]; are the two swapped?")
                return nil
            }
            return c
        }

        mutating func list(_ v: JSONValue, _ name: String, of what: String, _ s: Scope) -> [JSONValue]? {
            if let a = v.array { return a }
            report(s, "\(name) must be a list of \(what), not \(Self.describe(v)).")
            return nil
        }

        // MARK: Money

        /// Minor units from a decimal string ("2.50") or a JSON number (2.5), with at most as many
        /// decimals as `currency` has.
        mutating func amount(_ v: JSONValue, _ name: String, currency: String?, _ s: Scope) -> Int? {
            let digits = currency.map(Money.minorDigits) ?? 2
            let text: String? = switch v {
            case .string(let t): t.trimmingCharacters(in: .whitespaces)
            // The shortest text that reads back as the same Double: 2.5 → "2.5", 0.1 → "0.1".
            case .number(let d): d.isFinite ? "\(d)" : nil
            default: nil
            }
            if let text, let minor = Self.minorUnits(text, digits: digits), minor <= LotPricing.maximumAmountMinor { return minor }
            let example = digits == 0 ? "\"500\"" : "\"2.5" + String(repeating: "0", count: digits - 1) + "\""
            let decimals = digits == 0 ? "no decimals" : "at most \(digits) decimal\(digits == 1 ? "" : "s")"
            report(s, "\(name) must be an amount such as \(example): 0 or more, \(decimals)\(currency.map { " for \($0)" } ?? ""), "
                + "not \(Self.describe(v)).")
            return nil
        }

        static func minorUnits(_ text: String, digits: Int) -> Int? {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let whole = parts.first, (1...13).contains(whole.count),
                  whole.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            let fraction = parts.count == 2 ? Array(parts[1].utf8) : []
            guard parts.count == 1 || !fraction.isEmpty, fraction.allSatisfy({ (48...57).contains($0) }) else { return nil }
            guard fraction.count <= digits else { return nil }
            var minor = 0
            for b in whole.utf8 { minor = minor * 10 + Int(b - 48) }
            for k in 0..<digits { minor = minor * 10 + (k < fraction.count ? Int(fraction[k] - 48) : 0) }
            return minor
        }

        // MARK: Days and times

        static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
        /// `Weekday` of each name above: 1 = Sunday.
        static let dayNumbers: [Weekday] = [2, 3, 4, 5, 6, 7, 1]

        /// "Mo-Fr", "Sa,Su", "Mo-We,Fr"; a range may run over the weekend ("Fr-Mo").
        static func weekdays(_ text: String) -> Set<Weekday>? {
            var days: Set<Weekday> = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let ends = part.split(separator: "-", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard (1...2).contains(ends.count) else { return nil }
                let indices = ends.compactMap { e in dayNames.firstIndex { $0.lowercased() == e } }
                guard indices.count == ends.count else { return nil }
                var k = indices[0]
                while true {
                    days.insert(dayNumbers[k])
                    if k == indices[indices.count - 1] { break }
                    k = (k + 1) % 7
                }
            }
            return days
        }

        /// Minutes after midnight of "HH:MM"; "24:00" only where `allow24`.
        static func minute(_ text: String, allow24: Bool) -> Int? {
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
                  parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
                  let h = Int(parts[0]), let m = Int(parts[1]), m < 60 else { return nil }
            if h == 24, m == 0, allow24 { return 1440 }
            return h < 24 ? h * 60 + m : nil
        }

        typealias Window = (days: Set<Weekday>, start: Int, end: Int, entry: [String: JSONValue], scope: Scope)

        /// A list of `{"days": …, from: "HH:MM", to: "HH:MM"}` entries (opening hours and permit
        /// rules): the entries that are right, and whether all were; nil when it is no list.
        mutating func windows(_ v: JSONValue, _ key: String, from: String, to: String, _ s: Scope) -> (entries: [Window], ok: Bool)? {
            let example = "{\"days\": \"Mo-Fr\", \"\(from)\": \"07:00\", \"\(to)\": \"22:00\"}"
            guard let list = list(v, s.name(key), of: "entries such as \(example)", s) else { return nil }
            var out: [Window] = []
            var ok = true
            for (k, e) in list.enumerated() {
                guard let entry = e.object else {
                    report(s, "\(s.entry(key, k + 1)) must be an object such as \(example), not \(Self.describe(e)).")
                    ok = false
                    continue
                }
                let es = s.inside(key, entry: k + 1)
                var days: Set<Weekday>?
                if let t = entry["days"]?.string, let parsed = Self.weekdays(t) { days = parsed } else {
                    report(es, "\(es.name("days")) must be two-letter day names (Mo Tu We Th Fr Sa Su) with ranges like \"Mo-Fr\" "
                        + "and lists like \"Sa,Su\", not \(Self.describe(entry["days"])).")
                }
                var start: Int?, end: Int?
                if let t = entry[from]?.string, let m = Self.minute(t, allow24: false) { start = m } else {
                    report(es, "\(es.name(from)) must be a time \"HH:MM\" from 00:00 to 23:59, not \(Self.describe(entry[from])).")
                }
                if let t = entry[to]?.string, let m = Self.minute(t, allow24: true) { end = m } else {
                    report(es, "\(es.name(to)) must be a time \"HH:MM\" from 00:00 to 24:00, not \(Self.describe(entry[to])).")
                }
                if let start, let end, end <= start {
                    report(es, "\(es.name(to)) must be later than \"\(from)\" (\(SiteFileWriter.time(start))), not \(SiteFileWriter.time(end)); "
                        + "a time past midnight is written as two entries, one until 24:00 and one from 00:00 on the next day.")
                    ok = false
                    continue
                }
                guard let days, let start, let end else { ok = false; continue }
                out.append((days, start, end, entry, es))
            }
            return (out, ok)
        }
    }
}
