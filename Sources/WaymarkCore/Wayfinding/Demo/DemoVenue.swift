import Foundation

/// A demo venue drawn from building facts: every building gets plausible floor plans (a corridor
/// with numbered rooms on both sides, stairs at one end, an elevator and restrooms in the
/// middle, doors into every room, entrances at both ends of the ground floor), and the campus
/// gets deans' offices, student services, bike racks, evacuation points and ticket machines.
/// Deterministic: the same facts give the same features and ids.
public struct DemoVenue: Sendable {
    public var id: String
    public var name: String
    public var buildings: [CampusBuilding]
    /// Floors for a building whose count is not known.
    public var defaultFloors = 2
    /// An office or service, and words people search it by.
    public struct Service: Sendable, Hashable {
        public var name: String
        public var keywords: [String]
        public init(_ name: String, _ keywords: [String]) { self.name = name; self.keywords = keywords }
    }

    /// Offices and services by building code, placed in the building's first rooms.
    public var services: [String: [Service]] = [:]

    public init(id: String, name: String, buildings: [CampusBuilding]) {
        self.id = id
        self.name = name
        self.buildings = buildings
    }

    public static var sanBernardino: DemoVenue {
        var c = DemoVenue(id: "csusb-san-bernardino", name: "CSUSB San Bernardino", buildings: CSUSBBuildings.sanBernardino)
        c.services = [
            "UH": [.init("Office of Admissions", ["student services", "admissions", "apply"]),
                   .init("Financial Aid and Scholarships", ["student services", "financial aid", "fafsa"]),
                   .init("Records, Registration and Graduation", ["student services", "registrar", "transcripts"])],
            "SUE": [.init("Pride Center", ["student services", "lgbtq"]), .init("Women's Resource Center", ["student services"])],
            "SUS": [.init("Career Center", ["student services", "jobs", "internships"])],
            "CE": [.init("Office of the Dean, College of Education", ["dean", "deans"])],
            "JB": [.init("Office of the Dean, Jack H. Brown College of Business and Public Administration", ["dean", "deans", "business"])],
            "SB": [.init("Office of the Dean, College of Social and Behavioral Sciences", ["dean", "deans"])],
            "BI": [.init("Office of the Dean, College of Natural Sciences", ["dean", "deans", "science"])],
            "PA": [.init("Office of the Dean, College of Arts and Letters", ["dean", "deans", "arts"])],
            "PL": [.init("Library Help Desk", ["library", "books", "study"]), .init("Writing Center", ["student services", "tutoring"])],
            "HC": [.init("Student Health Center", ["student services", "health", "clinic"])],
            "UP": [.init("University Police", ["police", "lost and found", "safety"])],
        ]
        return c
    }

    public static var palmDesert: DemoVenue {
        var c = DemoVenue(id: "csusb-palm-desert", name: "CSUSB Palm Desert", buildings: CSUSBBuildings.palmDesert)
        c.services = [
            "RG": [.init("Palm Desert Campus Student Services", ["student services", "admissions", "financial aid"])],
            "HS": [.init("Office of the Dean, Palm Desert Campus", ["dean", "deans"])],
        ]
        return c
    }

    /// A building's plan in metres around its centre: x east, y north.
    struct Plan {
        var slots: Int
        var width: Double { 8 + 6 * Double(slots) }
        static let depth = 20.0
    }

    func plan(_ b: CampusBuilding) -> Plan { Plan(slots: (b.floors ?? defaultFloors) >= 3 ? 8 : 6) }

    /// The id of the venue feature, which is the venue's id once imported.
    public var venueId: String { DemoIds.uuid("\(id)/venue") }

    /// The venue as IMDF features.
    public func features() -> [IMDFFeature] {
        var out: [IMDFFeature] = []
        func uid(_ s: String) -> String { DemoIds.uuid("\(id)/\(s)") }
        func label(_ s: String) -> JSONValue { .object(["en": .string(s)]) }
        func point(_ c: Coordinate) -> JSONValue { Geometry.point(c).json }

        let lats = buildings.map(\.latitude), lons = buildings.map(\.longitude)
        let centre = Coordinate(latitude: (lats.min()! + lats.max()!) / 2, longitude: (lons.min()! + lons.max()!) / 2)
        let box = BoundingBox(buildings.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) })!
        func around(_ c: Coordinate, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry {
            .polygon([[(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)].map { Geo.offset(c, east: $0.0, north: $0.1) }])
        }
        func line(_ c: Coordinate, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Geometry {
            .lineString([Geo.offset(c, east: x0, north: y0), Geo.offset(c, east: x1, north: y1)])
        }
        let sw = Geo.offset(Coordinate(latitude: box.south, longitude: box.west), east: -80, north: -80)
        let ne = Geo.offset(Coordinate(latitude: box.north, longitude: box.east), east: 80, north: 80)
        let venueRing = [Coordinate(latitude: sw.latitude, longitude: sw.longitude), Coordinate(latitude: sw.latitude, longitude: ne.longitude),
                         Coordinate(latitude: ne.latitude, longitude: ne.longitude), Coordinate(latitude: ne.latitude, longitude: sw.longitude),
                         Coordinate(latitude: sw.latitude, longitude: sw.longitude)]
        out.append(.init(id: venueId, type: .venue, geometry: .polygon([venueRing]), properties: [
            "category": .string("universitycampus"), "name": label(name), "alt_name": .null, "restriction": .null,
            "hours": .null, "phone": .null, "website": .null, "display_point": point(centre), "address_id": .null,
        ]))

        // Grounds: one outdoor level with a meeting area beside each building for evacuation and bikes.
        let grounds = uid("grounds")
        out.append(.init(id: grounds, type: .level, geometry: .polygon([venueRing]), properties: [
            "category": .string("unspecified"), "restriction": .null, "outdoor": .bool(true), "ordinal": .number(0),
            "name": label("Campus grounds"), "short_name": label("Outside"), "display_point": .null, "address_id": .null,
            "building_ids": .null,
        ]))

        for b in buildings {
            let c = Coordinate(latitude: b.latitude, longitude: b.longitude)
            let p = plan(b)
            let half = p.width / 2, d = Plan.depth / 2
            let floors = b.floors ?? defaultFloors
            let buildingId = uid("building/\(b.code)")
            out.append(.init(id: buildingId, type: .building, geometry: nil, properties: [
                "category": .string(b.code.hasPrefix("PK") ? "parking" : "unspecified"), "restriction": .null,
                "name": label(b.name), "alt_name": label(b.code), "display_point": point(c), "address_id": .null,
            ]))
            out.append(.init(id: uid("footprint/\(b.code)"), type: .footprint, geometry: around(c, -half, -d, half, d), properties: [
                "category": .string("ground"), "name": label(b.name), "building_ids": .array([.string(buildingId)]),
            ]))
            // The evacuation point and bike racks: an open area 12 m east of the main entrance.
            let area = uid("grounds/\(b.code)")
            out.append(.init(id: area, type: .unit, geometry: around(c, half + 12, -5, half + 22, 5), properties: [
                "category": .string("unenclosedarea"), "level_id": .string(grounds), "restriction": .null, "accessibility": .null,
                "name": label("\(b.code) assembly area"), "alt_name": .null, "display_point": .null,
            ]))
            out.append(.init(id: uid("amenity/\(b.code)/evacuation"), type: .amenity, geometry: .point(Geo.offset(c, east: half + 17, north: 2)), properties: [
                "category": .string("emergencyshelter"), "name": label("Evacuation point \(b.code)"), "alt_name": .null,
                "accessibility": .null, "hours": .null, "phone": .null, "website": .null, "unit_ids": .array([.string(area)]),
                "address_id": .null, "correlation_id": .null,
            ]))
            out.append(.init(id: uid("amenity/\(b.code)/bikes"), type: .amenity, geometry: .point(Geo.offset(c, east: half + 17, north: -2)), properties: [
                "category": .string("parking.bicycle"), "name": label("Bike racks by \(b.name)"), "alt_name": .null,
                "accessibility": .null, "hours": .null, "phone": .null, "website": .null, "unit_ids": .array([.string(area)]),
                "address_id": .null, "correlation_id": .null,
            ]))

            var serviceQueue = services[b.code] ?? []
            for floor in 1...floors {
                let ordinal = floor - 1
                let levelId = uid("level/\(b.code)/\(floor)")
                out.append(.init(id: levelId, type: .level, geometry: around(c, -half, -d, half, d), properties: [
                    "category": .string("unspecified"), "restriction": .null, "outdoor": .bool(false), "ordinal": .number(Double(ordinal)),
                    "name": label(floor == 1 ? "Floor 1 (ground)" : "Floor \(floor)"), "short_name": label("\(floor)"),
                    "display_point": .null, "address_id": .null, "building_ids": .array([.string(buildingId)]),
                ]))
                func unit(_ key: String, _ category: String, _ g: Geometry, _ name: String?, alt: String? = nil) -> String {
                    let unitId = uid("unit/\(b.code)/\(floor)/\(key)")
                    out.append(.init(id: unitId, type: .unit, geometry: g, properties: [
                        "category": .string(category), "level_id": .string(levelId), "restriction": .null, "accessibility": .null,
                        "name": name.map(label) ?? .null, "alt_name": alt.map(label) ?? .null, "display_point": .null,
                    ]))
                    return unitId
                }
                func door(_ key: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, category: String = "pedestrian") {
                    out.append(.init(id: uid("opening/\(b.code)/\(floor)/\(key)"), type: .opening, geometry: line(c, x0, y0, x1, y1), properties: [
                        "category": .string(category), "level_id": .string(levelId), "accessibility": .null, "access_control": .null,
                        "door": .object(["type": .string("hinged"), "automatic": .bool(key == "east"), "material": .string("wood")]),
                        "name": .null, "alt_name": .null, "display_point": .null,
                    ]))
                }
                let corridor = unit("corridor", "walkway", around(c, -half + 4, -2, half, 2), floor == 1 ? "Main corridor" : nil)
                _ = unit("stairs", "stairs", around(c, -half, -2, -half + 4, 2), "Stairs")
                if floor == 1 {
                    door("east", half, -0.75, half, 0.75)
                    door("west", -half, -0.75, -half, 0.75)
                    if b.code.hasPrefix("PK") {
                        let machine = Geo.offset(c, east: half - 2, north: 1.2)
                        out.append(.init(id: uid("amenity/\(b.code)/ticketing"), type: .amenity, geometry: .point(machine), properties: [
                            "category": .string("ticketing"), "name": label("Parking ticket machine"), "alt_name": .null,
                            "accessibility": .null, "hours": .null, "phone": .null, "website": .null,
                            "unit_ids": .array([.string(corridor)]), "address_id": .null, "correlation_id": .null,
                        ]))
                    }
                }
                let middle = p.slots / 2
                var number = 1
                for side in [-1.0, 1.0] {
                    for k in 0..<p.slots {
                        let x0 = -half + 4 + 6 * Double(k), x1 = x0 + 6
                        let (y0, y1) = side < 0 ? (-d, -2.0) : (2.0, d)
                        let wallY = side < 0 ? -2.0 : 2.0
                        if side < 0 && k == middle && floors > 1 {
                            _ = unit("elevator", "elevator", around(c, x0, -6, x1, -2), "Elevator")
                            _ = unit("storage", "nonpublic", around(c, x0, -d, x1, -6), nil)
                            continue
                        }
                        if side > 0 && k == middle {
                            _ = unit("restroom-f", "restroom.female", around(c, x0, 2, x0 + 3, d), "Women's restroom")
                            _ = unit("restroom-m", "restroom.male", around(c, x0 + 3, 2, x1, d), "Men's restroom")
                            door("restroom-f", x0 + 1, wallY, x0 + 2, wallY)
                            door("restroom-m", x0 + 4, wallY, x0 + 5, wallY)
                            continue
                        }
                        let code = "\(b.code)-\(floor)\(number < 10 ? "0" : "")\(number)"
                        number += 1
                        let service = (side < 0 && k == 1) ? serviceQueue.first : nil
                        if service != nil { serviceQueue.removeFirst() }
                        let category = service != nil ? "office" : ["classroom", "office", "laboratory"][(k + (side > 0 ? 1 : 0)) % 3]
                        let room = unit(code, category, around(c, x0, y0, x1, y1), code, alt: service?.name)
                        door(code, x0 + 2.5, wallY, x0 + 3.5, wallY)
                        if let service {
                            let anchorId = uid("anchor/\(b.code)/\(code)")
                            out.append(.init(id: anchorId, type: .anchor, geometry: .point(Geo.offset(c, east: (x0 + x1) / 2, north: (y0 + y1) / 2)), properties: [
                                "unit_id": .string(room), "address_id": .null,
                            ]))
                            out.append(.init(id: uid("occupant/\(b.code)/\(code)"), type: .occupant, geometry: nil, properties: [
                                "name": label(service.name), "category": .string(service.keywords.contains("dean") ? "administration" : "studentservices"),
                                "anchor_id": .string(anchorId), "hours": .null, "phone": .null, "website": .null, "validity": .null,
                                "correlation_id": .null, "keywords": .array(service.keywords.map { .string($0) }),
                            ]))
                        }
                    }
                }
            }
        }
        return out
    }
}
