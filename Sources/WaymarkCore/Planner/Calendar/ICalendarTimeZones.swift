import Foundation

/// Turning a TZID into an IANA time zone. Waymark keeps every event in a named IANA zone (so
/// its wall clock follows that place's rules for years to come), while calendar files name
/// zones however their writer liked: the IANA name, the name behind a vendor prefix, a
/// Windows name, or only a VTIMEZONE description of the offsets.
public enum ICalendarTimeZones {
    /// The zone of UTC (`Z`) times.
    public static let utc = TimeZone(identifier: "UTC")!

    /// Windows time zone names and the IANA zone each stands for (the Unicode CLDR table,
    /// territory "001"). Outlook and Exchange write these as TZIDs.
    public static let windowsNames: [String: String] = [
        "Dateline Standard Time": "Etc/GMT+12",
        "UTC-11": "Etc/GMT+11",
        "Hawaiian Standard Time": "Pacific/Honolulu",
        "Alaskan Standard Time": "America/Anchorage",
        "Pacific Standard Time (Mexico)": "America/Tijuana",
        "Pacific Standard Time": "America/Los_Angeles",
        "US Mountain Standard Time": "America/Phoenix",
        "Mountain Standard Time (Mexico)": "America/Mazatlan",
        "Mountain Standard Time": "America/Denver",
        "Central America Standard Time": "America/Guatemala",
        "Central Standard Time": "America/Chicago",
        "Central Standard Time (Mexico)": "America/Mexico_City",
        "Canada Central Standard Time": "America/Regina",
        "SA Pacific Standard Time": "America/Bogota",
        "Eastern Standard Time": "America/New_York",
        "Eastern Standard Time (Mexico)": "America/Cancun",
        "US Eastern Standard Time": "America/Indiana/Indianapolis",
        "Cuba Standard Time": "America/Havana",
        "Haiti Standard Time": "America/Port-au-Prince",
        "Venezuela Standard Time": "America/Caracas",
        "Atlantic Standard Time": "America/Halifax",
        "SA Western Standard Time": "America/La_Paz",
        "Pacific SA Standard Time": "America/Santiago",
        "Paraguay Standard Time": "America/Asuncion",
        "Central Brazilian Standard Time": "America/Cuiaba",
        "Newfoundland Standard Time": "America/St_Johns",
        "E. South America Standard Time": "America/Sao_Paulo",
        "Argentina Standard Time": "America/Argentina/Buenos_Aires",
        "SA Eastern Standard Time": "America/Cayenne",
        "Montevideo Standard Time": "America/Montevideo",
        "UTC-02": "Etc/GMT+2",
        "Azores Standard Time": "Atlantic/Azores",
        "Cape Verde Standard Time": "Atlantic/Cape_Verde",
        "UTC": "Etc/UTC",
        "GMT Standard Time": "Europe/London",
        "Greenwich Standard Time": "Atlantic/Reykjavik",
        "Morocco Standard Time": "Africa/Casablanca",
        "W. Europe Standard Time": "Europe/Berlin",
        "Central Europe Standard Time": "Europe/Budapest",
        "Romance Standard Time": "Europe/Paris",
        "Central European Standard Time": "Europe/Warsaw",
        "W. Central Africa Standard Time": "Africa/Lagos",
        "Namibia Standard Time": "Africa/Windhoek",
        "Jordan Standard Time": "Asia/Amman",
        "GTB Standard Time": "Europe/Bucharest",
        "Middle East Standard Time": "Asia/Beirut",
        "Egypt Standard Time": "Africa/Cairo",
        "E. Europe Standard Time": "Europe/Chisinau",
        "Syria Standard Time": "Asia/Damascus",
        "South Africa Standard Time": "Africa/Johannesburg",
        "FLE Standard Time": "Europe/Kiev",
        "Israel Standard Time": "Asia/Jerusalem",
        "Kaliningrad Standard Time": "Europe/Kaliningrad",
        "Arabic Standard Time": "Asia/Baghdad",
        "Turkey Standard Time": "Europe/Istanbul",
        "Arab Standard Time": "Asia/Riyadh",
        "Belarus Standard Time": "Europe/Minsk",
        "Russian Standard Time": "Europe/Moscow",
        "E. Africa Standard Time": "Africa/Nairobi",
        "Iran Standard Time": "Asia/Tehran",
        "Arabian Standard Time": "Asia/Dubai",
        "Azerbaijan Standard Time": "Asia/Baku",
        "Mauritius Standard Time": "Indian/Mauritius",
        "Georgian Standard Time": "Asia/Tbilisi",
        "Caucasus Standard Time": "Asia/Yerevan",
        "Afghanistan Standard Time": "Asia/Kabul",
        "West Asia Standard Time": "Asia/Tashkent",
        "Ekaterinburg Standard Time": "Asia/Yekaterinburg",
        "Pakistan Standard Time": "Asia/Karachi",
        "India Standard Time": "Asia/Kolkata",
        "Sri Lanka Standard Time": "Asia/Colombo",
        "Nepal Standard Time": "Asia/Kathmandu",
        "Central Asia Standard Time": "Asia/Almaty",
        "Bangladesh Standard Time": "Asia/Dhaka",
        "Myanmar Standard Time": "Asia/Yangon",
        "SE Asia Standard Time": "Asia/Bangkok",
        "N. Central Asia Standard Time": "Asia/Novosibirsk",
        "China Standard Time": "Asia/Shanghai",
        "North Asia Standard Time": "Asia/Krasnoyarsk",
        "Singapore Standard Time": "Asia/Singapore",
        "W. Australia Standard Time": "Australia/Perth",
        "Taipei Standard Time": "Asia/Taipei",
        "Ulaanbaatar Standard Time": "Asia/Ulaanbaatar",
        "Tokyo Standard Time": "Asia/Tokyo",
        "Korea Standard Time": "Asia/Seoul",
        "Yakutsk Standard Time": "Asia/Yakutsk",
        "Cen. Australia Standard Time": "Australia/Adelaide",
        "AUS Central Standard Time": "Australia/Darwin",
        "E. Australia Standard Time": "Australia/Brisbane",
        "AUS Eastern Standard Time": "Australia/Sydney",
        "West Pacific Standard Time": "Pacific/Port_Moresby",
        "Tasmania Standard Time": "Australia/Hobart",
        "Vladivostok Standard Time": "Asia/Vladivostok",
        "Magadan Standard Time": "Asia/Magadan",
        "Central Pacific Standard Time": "Pacific/Guadalcanal",
        "UTC+12": "Etc/GMT-12",
        "New Zealand Standard Time": "Pacific/Auckland",
        "Fiji Standard Time": "Pacific/Fiji",
        "Tonga Standard Time": "Pacific/Tongatapu",
        "Samoa Standard Time": "Pacific/Apia",
        "Line Islands Standard Time": "Pacific/Kiritimati",
    ]

    private static let windowsByUppercase: [String: String] =
        Dictionary(windowsNames.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { a, _ in a })

    /// Names that all mean UTC.
    private static let utcNames: Set<String> = [
        "UTC", "GMT", "Z", "UCT", "ZULU", "UNIVERSAL", "GREENWICH", "GMT0", "COORDINATED UNIVERSAL TIME",
        "ETC/UTC", "ETC/GMT", "ETC/UCT", "ETC/ZULU", "ETC/UNIVERSAL", "ETC/GREENWICH", "ETC/GMT0", "ETC/GMT+0", "ETC/GMT-0",
    ]

    /// Whether a zone is UTC itself (written with `Z`), not merely a zone at offset 0 today.
    public static func isUTC(_ zone: TimeZone) -> Bool { utcNames.contains(zone.identifier.uppercased()) }

    /// The IANA zones the matcher prefers when several fit, best first: the zones of the
    /// largest places sharing a clock, then the main zone of each Windows name.
    static let principal = [
        "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Phoenix",
        "America/Anchorage", "Pacific/Honolulu", "America/Halifax", "America/Sao_Paulo", "America/Mexico_City",
        "Europe/London", "Europe/Berlin", "Europe/Paris", "Europe/Rome", "Europe/Madrid", "Europe/Athens",
        "Europe/Moscow", "Europe/Istanbul", "Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Asia/Dubai",
        "Asia/Kolkata", "Asia/Shanghai", "Asia/Tokyo", "Asia/Singapore", "Australia/Sydney", "Australia/Perth",
        "Pacific/Auckland",
    ]

    private static let preference: [String: Int] = {
        var rank: [String: Int] = [:]
        for (i, id) in principal.enumerated() { rank[id] = i }
        for id in windowsNames.values where rank[id] == nil { rank[id] = principal.count }
        return rank
    }()

    /// The IANA zones Foundation knows, sorted, so choices between them are the same on every run.
    static let known: [String] = TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") }.sorted()

    /// The zone a TZID names without help from the file: UTC by any of its names, an IANA name,
    /// an IANA name behind a vendor prefix (`/mozilla.org/20050126_1/Europe/Berlin`,
    /// `/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires`), or a Windows
    /// name. Nil when it takes a VTIMEZONE (or cannot be known).
    public static func zone(named tzid: String) -> TimeZone? {
        let name = tzid.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 200 else { return nil }
        if utcNames.contains(name.uppercased()) { return utc }
        if let zone = iana(name) { return zone }
        let parts = name.split(separator: "/").map(String.init)
        if parts.count >= 2 {
            for k in stride(from: parts.count, through: 2, by: -1) {
                if let zone = iana(parts.suffix(k).joined(separator: "/")) { return zone }
            }
        }
        // "custom_America/New_York": a known name at the end, after a separator.
        for id in known where name.count > id.count && name.hasSuffix(id) {
            let before = name[name.index(name.endIndex, offsetBy: -id.count - 1)]
            if !before.isLetter && !before.isNumber { return TimeZone(identifier: id) }
        }
        if let target = windowsByUppercase[name.uppercased()], let zone = TimeZone(identifier: target) { return zone }
        return nil
    }

    /// An IANA name Foundation knows, with a slash (so not an abbreviation like "EST").
    static func iana(_ name: String) -> TimeZone? {
        guard name.contains("/"), !name.hasPrefix("/"), !name.hasSuffix("/"),
              name.unicodeScalars.allSatisfy({ ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) || "_-+/".unicodeScalars.contains($0) })
        else { return nil }
        if utcNames.contains(name.uppercased()) { return utc }
        return TimeZone(identifier: name) ?? knownByUppercase[name.uppercased()].flatMap { TimeZone(identifier: $0) }
    }

    /// Known names by their upper-case form, for writers that change the case ("europe/berlin").
    private static let knownByUppercase: [String: String] =
        Dictionary(known.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })

    /// A zone whose clock fits a description, with how well it fits apart from hints.
    struct Candidate: Sendable {
        var id: String
        /// Lower is better: a fixed Etc/GMT±N zone for an offset that never changes, then the
        /// same instants of change that year, then a main zone.
        var rank: [Int]
    }

    /// Foundation's zones, made once: the matcher looks at all of them for each description.
    static let knownZones: [(id: String, zone: TimeZone)] = known.compactMap { id in TimeZone(identifier: id).map { (id, $0) } }

    /// The IANA zone whose clock matches a description in `year`: the same UTC offsets in mid
    /// January and mid July (the STANDARD and DAYLIGHT offsets of a VTIMEZONE). Among several,
    /// one named by a hint wins (the TZID, X-LIC-LOCATION or TZURL), then a fixed Etc/GMT±N
    /// zone for an offset that never changes, then one whose clock changes at the same
    /// instants that year, then a main zone, then the first by name: deterministic, and the
    /// likeliest place.
    static func match(offsets: (january: Int, july: Int), transitions: [Int], hints: [String], year: Int) -> TimeZone? {
        choose(candidates(offsets: offsets, transitions: transitions, year: year), hints: hints)
    }

    static func candidates(offsets: (january: Int, july: Int), transitions: [Int], year: Int) -> [Candidate] {
        guard let jan = LocalDay(year: year, month: 1, day: 15), let jul = LocalDay(year: year, month: 7, day: 15) else { return [] }
        let fixed = offsets.january == offsets.july && transitions.isEmpty
        if fixed, offsets.january == 0 { return [Candidate(id: utc.identifier, rank: [])] }
        let janInstant = Date(timeIntervalSince1970: TimeInterval(jan.number * 86_400 + 43_200))
        let julInstant = Date(timeIntervalSince1970: TimeInterval(jul.number * 86_400 + 43_200))
        var zones = knownZones
        var etc: String?
        if fixed, offsets.january % 3600 == 0, abs(offsets.january) <= 12 * 3600 {
            let hours = -offsets.january / 3600
            etc = "Etc/GMT" + (hours > 0 ? "+\(hours)" : "\(hours)")
            if let zone = TimeZone(identifier: etc!) { zones.append((etc!, zone)) }
        }
        var out: [Candidate] = []
        for (id, zone) in zones
        where zone.secondsFromGMT(for: janInstant) == offsets.january && zone.secondsFromGMT(for: julInstant) == offsets.july {
            out.append(Candidate(id: id, rank: [id == etc ? 0 : 1, sameTransitions(zone, transitions, year: year) ? 0 : 1,
                                                preference[id] ?? principal.count + 1]))
        }
        return out
    }

    static func choose(_ candidates: [Candidate], hints: [String]) -> TimeZone? {
        let upperHints = hints.map { $0.uppercased() }
        var best: (key: [Int], id: String)?
        for c in candidates {
            let hinted = upperHints.contains { $0.contains(c.id.uppercased()) }
            let key = [hinted ? 0 : 1] + c.rank
            if best == nil || key.lexicographicallyPrecedes(best!.key) || (key == best!.key && c.id < best!.id) { best = (key, c.id) }
        }
        return best.flatMap { TimeZone(identifier: $0.id) }
    }

    /// Whether `zone` changes its offset in `year` at the same instants (within an hour, as
    /// writers differ on the minute a rule is written at) as `transitions` (UTC seconds).
    static func sameTransitions(_ zone: TimeZone, _ transitions: [Int], year: Int) -> Bool {
        guard let start = LocalDay(year: year, month: 1, day: 1), let end = LocalDay(year: year + 1, month: 1, day: 1) else { return false }
        var found: [Int] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(start.number * 86_400 - 1))
        let limit = TimeInterval(end.number * 86_400)
        while found.count <= transitions.count + 1, let next = zone.nextDaylightSavingTimeTransition(after: cursor),
              next.timeIntervalSince1970 < limit {
            found.append(Int(next.timeIntervalSince1970))
            cursor = next
        }
        guard found.count == transitions.count else { return false }
        return zip(found, transitions.sorted()).allSatisfy { abs($0 - $1) <= 3600 }
    }
}
