import Foundation

/// A person in a campus directory (RoomQuest keeps professors and their rooms in a spreadsheet):
/// where their office is and when they are in it.
public struct StaffMember: Sendable, Hashable, Codable {
    public var name: String
    public var title: String?
    public var department: String?
    /// The building's code, as on the campus map ("JB").
    public var building: String
    /// The room as people write it ("JB-102", "102"): matched to the building's unit names.
    public var room: String
    public var email: String?
    public var officeHours: String?

    public init(name: String, title: String? = nil, department: String? = nil, building: String, room: String,
                email: String? = nil, officeHours: String? = nil) {
        self.name = name; self.title = title; self.department = department
        self.building = building; self.room = room; self.email = email; self.officeHours = officeHours
    }

    /// A stable id from the person's name and office, so that a re-imported directory keeps links.
    public var id: String { DemoIds.uuid("staff/\(SearchText.compact(name))/\(SearchText.compact(building))/\(SearchText.compact(room))") }
}

/// A venue's rooms by building code and room number, for placing a directory's people: a room
/// written with or without the building code and punctuation ("JB-102", "JB 102", "102" in JB)
/// is one room.
public struct RoomIndex: Sendable {
    private var units: [String: IMDFFeature] = [:]

    public init(_ archive: IMDFArchive) {
        var codes: [String: [String]] = [:]
        for b in archive.features(.building) {
            codes[b.id] = Array(Set([b.altName, b.name].compactMap { $0 }.map(SearchText.compact)))
        }
        var levelCodes: [String: [String]] = [:]
        for l in archive.features(.level) { levelCodes[l.id] = l.references("building_ids").flatMap { codes[$0] ?? [] } }
        for u in archive.features(.unit) {
            guard let name = u.name, let level = u.reference("level_id") else { continue }
            let compact = SearchText.compact(name)
            for code in levelCodes[level] ?? [] {
                let key = compact.hasPrefix(code) ? compact : code + compact
                if units[key] == nil { units[key] = u }
            }
        }
    }

    public func unit(building: String, room: String) -> IMDFFeature? {
        let code = SearchText.compact(building)
        let wanted = SearchText.compact(room)
        return units[wanted.hasPrefix(code) ? wanted : code + wanted]
    }

    public func unit(of member: StaffMember) -> IMDFFeature? { unit(building: member.building, room: member.room) }
}

extension PlaceSearch.Entry {
    /// People of a directory as search entries; their id is the person's id.
    public static func people(_ staff: [StaffMember], campus: String) -> [PlaceSearch.Entry] {
        staff.map { p in
            let room = SearchText.compact(p.room).hasPrefix(SearchText.compact(p.building)) ? p.room : "\(p.building)-\(p.room)"
            return .init(id: p.id, kind: .person, title: p.name,
                         subtitle: [p.title, p.department, room].compactMap { $0 }.joined(separator: " · "),
                         keywords: [p.title, p.department].compactMap { $0 }, campus: campus)
        }
    }
}
