import Foundation

extension SiteImport {
    /// A site issues at most this many kinds of permit.
    public static let maximumPermitKinds = 24
    /// The colour of a permit given none: a neutral grey dot.
    public static let defaultPermitColour = "#7a7a7a"
}

extension SiteImport.Reader {
    /// The site's `"permits"`: `[{"code": "faculty", "name": "Faculty/Staff", "colour": "#7b3fa0"}]`.
    mutating func permitKinds(_ v: JSONValue, _ s: Scope) -> [PermitKind]? {
        let example = "{\"code\": \"faculty\", \"name\": \"Faculty/Staff\", \"colour\": \"#7b3fa0\"}"
        guard let list = list(v, "\"permits\"", of: "permits such as \(example)", s) else { return nil }
        guard list.count <= SiteImport.maximumPermitKinds else {
            report(s, "\"permits\" must list at most \(SiteImport.maximumPermitKinds) permits, not \(list.count).")
            return nil
        }
        var out: [PermitKind] = []
        var ok = true
        for (k, entry) in list.enumerated() {
            let es = s.inside("permits", entry: k + 1)
            guard let o = entry.object else {
                report(s, "\"permits\" entry \(k + 1) must be an object such as \(example), not \(Self.describe(entry)).")
                ok = false
                continue
            }
            var code: Permit?
            if let c = need(o, "code", es, "the short code lot rules use (\(Permit.codeRule))") {
                if let text = c.string, let permit = Permit(rawValue: text) {
                    if permit == .handicap {
                        report(es, "\"code\" is \"handicap\", the disabled parking placard, which every site knows already; leave it out of \"permits\".")
                    } else if out.contains(where: { $0.code == permit }) {
                        report(es, "\"code\" \(Self.quoted(text)) is listed twice; each permit once.")
                    } else {
                        code = permit
                    }
                } else {
                    report(es, "\"code\" must be \(Permit.codeRule), not \(Self.describe(c)).")
                }
            }
            let name = need(o, "name", es, "the permit's name as drivers know it (1 to 40 characters)").flatMap { text($0, "\"name\"", 1...40, es) }
            var colour: String? = SiteImport.defaultPermitColour
            if let c = Self.present(o["colour"]) {
                colour = c.string.map { $0.lowercased() }.flatMap { PermitKind.isColour($0) ? $0 : nil }
                if colour == nil { report(es, "\"colour\" must be a colour such as \"#7b3fa0\" (# and six hex digits), not \(Self.describe(c)).") }
            }
            for key in o.keys.sorted() where !["code", "name", "colour"].contains(key) {
                report(es, "has \(Self.quoted(key)), which a permit does not have; a permit has \"code\", \"name\" and \"colour\".")
                ok = false
            }
            guard let code, let name, let colour else { ok = false; continue }
            out.append(PermitKind(code: code, name: name, colour: colour))
        }
        return ok ? out : nil
    }

    /// Every permit a lot's rules name is one the site issues, or the placard.
    mutating func checkPermitCodes(_ rules: [PermitRule], site kinds: [PermitKind], _ s: Scope) {
        let unknown = Set(rules.flatMap(\.permits)).subtracting(PermitKind.codes(issuedBy: kinds)).sorted()
        guard !unknown.isEmpty else { return }
        let issued = kinds.isEmpty ? "the site lists no permits" : "the site's permits are " + kinds.map { Self.quoted($0.code.rawValue) }.joined(separator: ", ")
        for permit in unknown {
            report(s, "\"permits\" names \(Self.quoted(permit.rawValue)), which the site does not issue (\(issued), and \"handicap\" for the disabled placard); "
                + "add it to the site's \"permits\" or correct the rule.")
        }
    }
}

extension SiteImport {
    /// Reads the permits an operator sends for a site, `[{"code", "name", "colour"}]`, by the
    /// rules a site file's `"permits"` meets; `source` names the input in problems.
    public static func permitKinds(_ json: Data, source: String) -> (kinds: [PermitKind]?, problems: [Problem]) {
        var reader = Reader(file: source, csvFile: "")
        let s = Scope(place: Place(file: source, rank: 0, position: 0, item: nil))
        var kinds: [PermitKind]?
        do {
            kinds = reader.permitKinds(try JSONParser.parse(json), s)
        } catch {
            reader.report(s, "is not JSON (\(error.description)).")
        }
        let problems = reader.sortedProblems()
        return (problems.isEmpty ? kinds : nil, problems)
    }
}
