import Foundation

/// What a VTIMEZONE says (RFC 5545, 3.6.5): observances (STANDARD or DAYLIGHT), each an
/// offset that begins at DTSTART and again at each RDATE and RRULE day. Waymark does not keep
/// such descriptions; it reads the offsets a year has from one, to find the IANA zone that
/// matches it.
struct VTimeZoneRules {
    struct Observance {
        var daylight: Bool
        /// DTSTART on the local clock in force before the onset, in seconds since 1970.
        var start: Int
        var rule: RecurrenceRule?
        var rdates: [Int]
        var offsetFrom: Int
        var offsetTo: Int
    }

    /// An onset: local seconds since 1970 (on the clock before it) and the offsets around it.
    struct Onset {
        var local: Int
        var from: Int
        var to: Int
    }

    var tzid: String
    /// Names in the description that may be IANA names: the TZID, X-LIC-LOCATION, TZURL.
    var hints: [String]
    var observances: [Observance]

    init?(_ component: ICalendarComponent) {
        // TZID is TEXT: a comma in it may be escaped, though few writers do.
        guard component.name == "VTIMEZONE", let tzid = component.property("TZID").map({ ICalendarText.unescaped($0.value).trimmingCharacters(in: .whitespaces) }),
              !tzid.isEmpty
        else { return nil }
        self.tzid = tzid
        hints = [tzid] + ["X-LIC-LOCATION", "TZURL"].compactMap { component.property($0)?.value.trimmingCharacters(in: .whitespaces) }
        observances = component.components.compactMap { sub in
            guard sub.name == "STANDARD" || sub.name == "DAYLIGHT",
                  let start = sub.property("DTSTART").flatMap({ ICalendarDateTime($0.value) }),
                  let from = sub.property("TZOFFSETFROM").flatMap({ ICalendarValues.utcOffset($0.value) }),
                  let to = sub.property("TZOFFSETTO").flatMap({ ICalendarValues.utcOffset($0.value) })
            else { return nil }
            let rule = sub.property("RRULE").flatMap { try? RecurrenceRule($0.value) }
            let rdates = sub.properties("RDATE").flatMap { ICalendarText.splitList($0.value) }
                .compactMap { ICalendarDateTime($0).map(Self.seconds) }
            return Observance(daylight: sub.name == "DAYLIGHT", start: Self.seconds(start), rule: rule, rdates: rdates, offsetFrom: from, offsetTo: to)
        }
        if observances.isEmpty { return nil }
    }

    private static func seconds(_ d: ICalendarDateTime) -> Int { d.day.number * 86_400 + (d.second ?? 0) }

    /// Every onset up to the end of `year`, in order.
    func onsets(through year: Int) -> [Onset] {
        guard let end = LocalDay(year: min(year, 9998), month: 12, day: 31) else { return [] }
        var out: [Onset] = []
        for o in observances {
            var locals = [o.start] + o.rdates
            if let rule = o.rule, rule.frequency == .yearly || rule.frequency == .monthly || rule.frequency == .weekly || rule.frequency == .daily {
                let startDay = LocalDay(number: Int((Double(o.start) / 86_400).rounded(.down)))
                let timeOfDay = o.start - startDay.number * 86_400
                let last = rule.until.map(\.day)
                let days = rule.days(first: startDay, last: last, through: end, maximumResults: 2_000, maximumPeriods: 5_000)
                locals += days.map { $0.number * 86_400 + timeOfDay }
            }
            out += locals.filter { $0 < (end.number + 1) * 86_400 }.map { Onset(local: $0, from: o.offsetFrom, to: o.offsetTo) }
        }
        return out.sorted { $0.local < $1.local }
    }

    /// The offset in force at local noon of `day`: that of the latest onset before it, or, before
    /// the first onset, the offset that onset changes from.
    func offset(on day: LocalDay, onsets: [Onset]) -> Int? {
        let noon = day.number * 86_400 + 43_200
        if let last = onsets.last(where: { $0.local <= noon }) { return last.to }
        return onsets.first?.from
    }

    /// What a zone must match in `year`: the offsets in mid January and mid July, and the
    /// instants (UTC seconds) the clock changes that year. Nil when the description says nothing
    /// of that year.
    func clock(year: Int) -> (offsets: (january: Int, july: Int), transitions: [Int])? {
        let onsets = onsets(through: year)
        guard let jan = LocalDay(year: year, month: 1, day: 15), let jul = LocalDay(year: year, month: 7, day: 15),
              let first = LocalDay(year: year, month: 1, day: 1),
              let a = offset(on: jan, onsets: onsets), let b = offset(on: jul, onsets: onsets)
        else { return nil }
        let transitions = onsets
            .filter { $0.from != $0.to && $0.local >= first.number * 86_400 }
            .map { $0.local - $0.from }
        return ((a, b), transitions)
    }
}

/// The zones of one file's TZIDs, each worked out once (per year, where a description is
/// matched) and remembered, with a note when the zone was inferred rather than named.
struct ZoneResolver {
    enum Resolution {
        /// `note` says how it was inferred, when it was.
        case zone(TimeZone, note: String?)
        case unknown(reason: String)
    }

    private var descriptions: [String: VTimeZoneRules] = [:]
    private var cache: [String: Resolution] = [:]
    /// Zones that fit a clock, by offsets, changes and year: many descriptions share one.
    private var candidates: [String: [ICalendarTimeZones.Candidate]] = [:]
    /// Descriptions matched so far; a file that needs more is not a calendar but an attack.
    private var matched = 0
    static let maximumMatches = 1_000

    init(vtimezones: [ICalendarComponent]) {
        for c in vtimezones {
            guard let rules = VTimeZoneRules(c) else { continue }
            if descriptions[rules.tzid.uppercased()] == nil { descriptions[rules.tzid.uppercased()] = rules }
        }
    }

    mutating func resolve(_ tzid: String, year: Int) -> Resolution {
        let key = "\(tzid)|\(year)"
        if let known = cache[key] { return known }
        let result = lookUp(tzid, year: year)
        cache[key] = result
        return result
    }

    /// The IANA zone matching a description in `year` (the year kept within 1900 and 2100, where
    /// zone rules are known and stable enough to compare), or nil.
    private mutating func matchingZone(_ description: VTimeZoneRules, year: Int) -> TimeZone? {
        let year = min(max(year, 1900), 2100)
        guard matched < Self.maximumMatches, let clock = description.clock(year: year) else { return nil }
        matched += 1
        let key = "\(year)|\(clock.offsets.january)|\(clock.offsets.july)|\(clock.transitions)"
        if candidates[key] == nil {
            candidates[key] = ICalendarTimeZones.candidates(offsets: clock.offsets, transitions: clock.transitions, year: year)
        }
        return ICalendarTimeZones.choose(candidates[key]!, hints: description.hints)
    }

    private mutating func lookUp(_ tzid: String, year: Int) -> Resolution {
        if let zone = ICalendarTimeZones.zone(named: tzid) { return .zone(zone, note: nil) }
        let name = tzid.trimmingCharacters(in: .whitespaces)
        guard name.count <= 200 else { return .unknown(reason: "Its time zone name is too long to be one.") }
        // A name Foundation knows but that is no place ("CET", "EST5EDT", "UTC+11"): the place
        // zone with the same clock.
        if let abbreviation = TimeZone(identifier: name), let zone = Self.equivalent(of: abbreviation, year: year) {
            return .zone(zone, note: "The time zone “\(name)” was read as \(zone.identifier), which keeps the same clock.")
        }
        guard let description = descriptions[name.uppercased()] else {
            return .unknown(reason: "Its time zone “\(name)” is not one Waymark knows, and the file does not describe it.")
        }
        if let zone = matchingZone(description, year: year) {
            return .zone(zone, note: "The time zone “\(name)” was read as \(zone.identifier), whose clock matches the file's description of it in \(year).")
        }
        return .unknown(reason: "Its time zone “\(name)” is not one Waymark knows, and the file's description of it matches no zone Waymark knows.")
    }

    private static func equivalent(of zone: TimeZone, year: Int) -> TimeZone? {
        guard let jan = LocalDay(year: year, month: 1, day: 15), let jul = LocalDay(year: year, month: 7, day: 15),
              let first = LocalDay(year: year, month: 1, day: 1), let next = LocalDay(year: year + 1, month: 1, day: 1)
        else { return nil }
        let a = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(jan.number * 86_400 + 43_200)))
        let b = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(jul.number * 86_400 + 43_200)))
        var transitions: [Int] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(first.number * 86_400 - 1))
        while transitions.count < 8, let t = zone.nextDaylightSavingTimeTransition(after: cursor), t.timeIntervalSince1970 < TimeInterval(next.number * 86_400) {
            transitions.append(Int(t.timeIntervalSince1970))
            cursor = t
        }
        return ICalendarTimeZones.match(offsets: (a, b), transitions: transitions, hints: [zone.identifier], year: year)
    }
}
