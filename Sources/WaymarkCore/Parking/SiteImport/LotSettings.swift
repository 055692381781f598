import Foundation

/// What an operator changes of a running lot (PRK-1): hours, pay-station price, permit rules,
/// rules shown to drivers and the booking offer. Edited in the words of a site file
/// (SITE_FILES.md), so a file and the Operate screen are checked by the same rules.
public struct LotSettings: Sendable, Hashable {
    /// Empty means never closed.
    public var hours: [OpeningHours]
    public var price: LotPrice
    public var permitRules: [PermitRule]
    public var rules: [String]
    /// Nil: the lot takes no bookings.
    public var booking: BookingOffer?

    public init(hours: [OpeningHours], price: LotPrice, permitRules: [PermitRule], rules: [String], booking: BookingOffer?) {
        self.hours = hours
        self.price = price
        self.permitRules = permitRules
        self.rules = rules
        self.booking = booking
    }

    /// The names of the settings that differ, in the order the screen shows them.
    public func changed(from old: LotSettings) -> [String] {
        var names: [String] = []
        if hours != old.hours { names.append("hours") }
        if price != old.price { names.append("price") }
        if permitRules != old.permitRules { names.append("permits") }
        if rules != old.rules { names.append("rules") }
        if booking != old.booking { names.append("booking") }
        return names
    }
}

extension SiteImport {
    /// The keys of a lot's settings in a site file; nothing else may be sent.
    public static let settingsKeys: Set<String> = ["hours", "price", "permits", "rules", "booking"]

    /// Reads settings as a site file writes a lot's properties: "price" is needed; missing
    /// "hours", "permits" and "rules" mean none, a missing or null "booking" takes none. The
    /// booked spaces must fit the lot's `capacity`, and the rules name only permits of
    /// `sitePermits` (nil: not checked, as for settings the server has checked already).
    /// `source` names the input in problems.
    public static func lotSettings(_ json: Data, capacity: Int, sitePermits: [PermitKind]?, source: String) -> (settings: LotSettings?, problems: [Problem]) {
        var reader = Reader(file: source, csvFile: "")
        let settings = reader.readSettings(json, capacity: capacity, sitePermits: sitePermits)
        let problems = reader.sortedProblems()
        return (problems.isEmpty ? settings : nil, problems)
    }
}

extension SiteImport.Reader {
    mutating func readSettings(_ json: Data, capacity: Int, sitePermits: [PermitKind]?) -> LotSettings? {
        let s = Scope(place: Place(file: file, rank: 0, position: 0, item: nil))
        let p: [String: JSONValue]
        do {
            guard let object = try JSONParser.parse(json).object else {
                report(s, "must be one object with \"price\" and, as needed, \"hours\", \"permits\", \"rules\" and \"booking\".")
                return nil
            }
            p = object
        } catch {
            report(s, "is not JSON (\(error.description)).")
            return nil
        }
        for key in p.keys.sorted() where !SiteImport.settingsKeys.contains(key) {
            report(s, "has \(Self.quoted(key)), which is not a setting; the settings are \"hours\", \"price\", \"permits\", \"rules\" and \"booking\".")
        }
        var hours: [OpeningHours]? = []
        if let v = Self.present(p["hours"]) {
            hours = windows(v, "hours", from: "open", to: "close", s).flatMap { r in
                r.ok ? r.entries.map { OpeningHours(weekdays: $0.days, openMinute: $0.start, closeMinute: $0.end) } : nil
            }
        }
        var price: LotPrice?
        if let v = Self.present(p["price"]) { price = self.price(v, s) } else {
            report(s, s.needs("price", "the pay-station price such as {\"currency\": \"USD\", \"hourly\": \"2.00\", \"dailyMax\": \"12.00\"}"))
        }
        let permits = Self.present(p["permits"]).map { permitRules($0, s) } ?? []
        if let permits, let sitePermits { checkPermitCodes(permits, site: sitePermits, s) }
        let rules = Self.present(p["rules"]).map { self.rules($0, s) } ?? []
        var booking: BookingOffer??  = .some(nil)
        if let v = Self.present(p["booking"]) {
            booking = self.booking(v, price: price, lotHours: hours, s).map { Optional($0) }
            if case .some(.some(let offer)) = booking, offer.capacity > capacity {
                report(s, "\"spaces\" in \"booking\" must be at most the lot's \(capacity) spaces, not \(offer.capacity).")
            }
        }
        guard !hasProblems, let hours, let price, let permits, let rules, let booking else { return nil }
        return LotSettings(hours: hours, price: price, permitRules: permits, rules: rules, booking: booking)
    }
}

extension SiteFileWriter {
    /// Settings as `SiteImport.lotSettings` reads them.
    public static func settings(_ s: LotSettings) -> Data {
        Data(JSONText.pretty(settingsValue(s)).utf8)
    }

    static func settingsValue(_ s: LotSettings) -> JSONValue {
        let currency = s.price.currency
        var p: [String: JSONValue] = [
            "price": .object(["currency": .string(currency), "hourly": amount(s.price.hourlyCents, currency),
                              "dailyMax": amount(s.price.dailyMaxCents, currency)]),
            "hours": hours(s.hours), "permits": permits(s.permitRules), "rules": .array(s.rules.map(JSONValue.string)),
        ]
        if let b = s.booking { p["booking"] = booking(b, lotHours: s.hours, currency: currency) }
        return .object(p)
    }
}
