import Foundation

extension PlaceSearch.Entry {
    /// The places of a venue a person can search for: its buildings, named rooms, occupants
    /// (offices and services) and named amenities. Each entry's id is the feature's id.
    public static func places(of archive: IMDFArchive, campus: String) -> [PlaceSearch.Entry] {
        var out: [PlaceSearch.Entry] = []
        var buildingName: [String: String] = [:]
        for b in archive.features(.building) {
            let name = b.name ?? b.altName ?? "Building"
            buildingName[b.id] = name
            out.append(.init(id: b.id, kind: .building, title: name, subtitle: "Building",
                             names: [b.altName].compactMap { $0 }, keywords: ["building"], campus: campus))
        }
        var levelText: [String: String] = [:]
        for l in archive.features(.level) {
            let building = l.references("building_ids").first.flatMap { buildingName[$0] }
            levelText[l.id] = [building, l.name].compactMap { $0 }.joined(separator: ", ")
        }
        var unitWhere: [String: String] = [:]
        for u in archive.features(.unit) {
            let place = u.reference("level_id").flatMap { levelText[$0] }
            unitWhere[u.id] = place
            guard let name = u.name, u.category != "walkway" else { continue }
            let kind = Self.words(for: u.category ?? "room")
            out.append(.init(id: u.id, kind: .room, title: name, subtitle: [kind.capitalizedFirst, place].compactMap { $0 }.joined(separator: " · "),
                             keywords: [kind] + [u.altName].compactMap { $0 }, campus: campus))
        }
        var anchorUnit: [String: String] = [:]
        for a in archive.features(.anchor) { anchorUnit[a.id] = a.reference("unit_id") }
        for o in archive.features(.occupant) {
            guard let name = o.name else { continue }
            let unit = o.reference("anchor_id").flatMap { anchorUnit[$0] }
            let room = unit.flatMap { archive.feature($0)?.name }
            let place = [room, unit.flatMap { unitWhere[$0] }].compactMap { $0 }.joined(separator: " · ")
            let extra = o.properties["keywords"]?.array?.compactMap(\.string) ?? []
            out.append(.init(id: o.id, kind: .service, title: name, subtitle: place.isEmpty ? nil : place,
                             keywords: extra + [o.category].compactMap { $0 }, campus: campus))
        }
        for a in archive.features(.amenity) {
            guard let name = a.name else { continue }
            let place = a.references("unit_ids").first.flatMap { unitWhere[$0] }
            out.append(.init(id: a.id, kind: .amenity, title: name, subtitle: place,
                             keywords: [Self.words(for: a.category ?? "")], campus: campus))
        }
        return out
    }

    /// A category in words people search by: "restroom.female" → "women's restroom".
    static func words(for category: String) -> String {
        switch category {
        case "restroom.female", "restroom.female.wheelchair": "women's restroom toilet"
        case "restroom.male", "restroom.male.wheelchair": "men's restroom toilet"
        case let c where c.hasPrefix("restroom"): "restroom toilet"
        case "parking.bicycle": "bike racks bicycle parking"
        case "emergencyshelter": "evacuation point emergency"
        case "ticketing": "ticket machine parking pay"
        case "conferenceroom": "conference room"
        case "laboratory": "lab laboratory"
        case "nonpublic": "staff only"
        default: category.replacingOccurrences(of: ".", with: " ")
        }
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
