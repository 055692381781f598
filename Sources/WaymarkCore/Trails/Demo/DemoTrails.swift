import Foundation

/// The demo's trails (`serve --demo`): around the two demo regions, Fullerton and north Orange
/// County, and the San Bernardino foothills and mountains. Names and trailheads are real places;
/// the paths and profiles are drawn to the trails' known length and climb, not surveyed, and the
/// phone numbers are the 555-01xx numbers kept for examples.
public enum DemoTrails {
    public static func all() -> [Trail] { specs.map(\.trail) }

    /// Every picture the demo trails refer to, with what to draw for it.
    public static func pictures() -> [(id: String, title: String, subject: DemoPictureSubject)] {
        var out: [(String, String, DemoPictureSubject)] = []
        var seen = Set<String>()
        for trail in all() {
            if let id = trail.pictureId { out.append((id, trail.name, .trailhead(trail))) }
            for g in trail.guidelines { if let id = g.pictureId, seen.insert(id).inserted { out.append((id, g.name, .guideline(g.kind))) } }
            for p in trail.points { if let id = p.pictureId { out.append((id, p.name, .point(p.kind))) } }
        }
        return out
    }

    enum Region { case fullerton, sanBernardino }

    enum Manager {
        case fullertonParks, ocParks, chinoHills, forest(district: String), countyParks, conservancy, privateRanch, whittier

        var contacts: [RangerContact] {
            let emergency = RangerContact(name: "Emergencies (police, fire, search and rescue)", phones: ["911"])
            switch self {
            case .fullertonParks: return [RangerContact(name: "City of Fullerton, Parks and Recreation", phones: ["(714) 555-0101"]), emergency]
            case .ocParks: return [RangerContact(name: "OC Parks rangers", phones: ["(714) 555-0102", "(714) 555-0103"]), emergency]
            case .chinoHills: return [RangerContact(name: "Chino Hills State Park, ranger station", phones: ["(951) 555-0104"]), emergency]
            case .forest(let district):
                return [RangerContact(name: "San Bernardino National Forest, \(district) Ranger District", phones: ["(909) 555-0105", "(909) 555-0106"]),
                        RangerContact(name: "San Bernardino County Sheriff, search and rescue", phones: ["(909) 555-0107"]), emergency]
            case .countyParks: return [RangerContact(name: "San Bernardino County Regional Parks", phones: ["(909) 555-0108"]), emergency]
            case .conservancy: return [RangerContact(name: "Wildlands Conservancy, preserve office", phones: ["(909) 555-0109"]), emergency]
            case .privateRanch: return [RangerContact(name: "Bowen Ranch gate", phones: ["(760) 555-0110"]),
                                        RangerContact(name: "San Bernardino National Forest, Front Country Ranger District", phones: ["(909) 555-0105"]), emergency]
            case .whittier: return [RangerContact(name: "Puente Hills Habitat Preservation Authority rangers", phones: ["(562) 555-0111"]), emergency]
            }
        }

        var info: TrailInfo {
            let dawnToDusk = [SeasonalHours(season: "All year", hours: "Sunrise to sunset")]
            switch self {
            case .fullertonParks:
                return TrailInfo(admission: "Free", seasonalHours: dawnToDusk, parking: "Street parking on the nearby roads; two-hour limit on weekdays near schools.")
            case .ocParks:
                return TrailInfo(admission: "Free on foot", additionalFees: "Vehicle entry: $5 on weekdays, $7 on weekends and holidays; annual pass available.",
                                 seasonalHours: [SeasonalHours(season: "April to October", hours: "7:00 to 21:00"), SeasonalHours(season: "November to March", hours: "7:00 to 18:00")],
                                 parking: "Pay at the entrance kiosk or machine; overflow parking closes at sunset.")
            case .chinoHills:
                return TrailInfo(admission: "Free on foot", additionalFees: "Day use: $10 a vehicle; walk-in and bike-in free.",
                                 seasonalHours: [SeasonalHours(season: "All year", hours: "8:00 to sunset"), SeasonalHours(season: "After heavy rain", hours: "Closed until the trails drain")],
                                 parking: "Gravel lot at the trailhead; do not block the gate.")
            case .forest:
                return TrailInfo(admission: "Free", additionalFees: "A National Forest Adventure Pass ($5 a day, $30 a year) or an Interagency Pass must show on any parked car.",
                                 seasonalHours: [SeasonalHours(season: "All year", hours: "Open all day; snow may close the road from December to March")],
                                 parking: "Park off the road in the trailhead pull-out; overnight parking allowed with a pass.")
            case .countyParks:
                return TrailInfo(admission: "Free on foot", additionalFees: "Parking: $10 a day from Memorial Day to Labor Day, $6 the rest of the year.",
                                 seasonalHours: [SeasonalHours(season: "Summer", hours: "7:00 to 19:00"), SeasonalHours(season: "Winter", hours: "7:30 to 17:00")],
                                 parking: "Park in the marked lots; the lake road is one-way.")
            case .conservancy:
                return TrailInfo(admission: "Free", seasonalHours: [SeasonalHours(season: "All year", hours: "8:00 to 17:00; closed on Christmas Day")],
                                 parking: "Free lot at the preserve entrance; dogs are not allowed.")
            case .privateRanch:
                return TrailInfo(admission: "$10 a person to cross the private ranch to the forest boundary", additionalFees: "Overnight: $20 a person.",
                                 seasonalHours: [SeasonalHours(season: "All year", hours: "Gate open 7:00 to 19:00"), SeasonalHours(season: "Summer", hours: "Start before 8:00: the climb back out is in full sun")],
                                 parking: "Dirt lot at the ranch house; four-wheel drive helps after rain.")
            case .whittier:
                return TrailInfo(admission: "Free", seasonalHours: [SeasonalHours(season: "All year", hours: "Sunrise to sunset"), SeasonalHours(season: "Red-flag fire days", hours: "Closed")],
                                 parking: "Small lot at the trailhead; street parking on the residential roads, respect the signs.")
            }
        }
    }

    struct Feature {
        var kind: PointOfInterest.Kind
        var name: String
        var history: String
        /// Where along the drawn path, 0 at the trailhead and 1 at its far end.
        var at: Double
        var focalPoint = false
    }

    struct Spec {
        var id: String
        var name: String
        var area: String
        var region: Region
        var manager: Manager
        var latitude: Double
        var longitude: Double
        var shape: Trail.Shape
        var kilometres: Double
        var elevation: Double
        var climb: Double
        var bearing: Double
        var description: String
        var official: TrailDifficulty? = nil
        var accessible = false
        var hunting: String? = nil
        var amenities: [TrailAmenity] = [.parking, .trailMarkers]
        /// Replaces the manager's usual hours.
        var hours: [SeasonalHours]? = nil
        var features: [Feature] = []

        var trail: Trail {
            let path = DemoTrailPath(trailhead: Coordinate(latitude: latitude, longitude: longitude), shape: shape,
                                     walkedMetres: kilometres * 1000, startElevation: elevation, climb: climb, bearing: bearing,
                                     seed: UInt64(truncatingIfNeeded: id.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) })).points()
            let points = features.enumerated().map { i, f in
                let index = min(path.count - 1, Int((f.at * Double(path.count - 1)).rounded()))
                return PointOfInterest(id: "\(id)-\(i + 1)", kind: f.kind, name: f.name, history: f.history,
                                       position: path[index].coordinate, focalPoint: f.focalPoint, pictureId: "demo-poi-\(id)-\(i + 1)")
            }
            var info = manager.info
            if let hours { info.seasonalHours = hours }
            return Trail(id: id, name: name, area: area, description: description, shape: shape, path: path,
                         officialDifficulty: official, accessible: accessible, huntingAlert: hunting, info: info,
                         contacts: manager.contacts, guidelines: DemoGuidelines.forRegion(region, mountains: elevation > 1_200),
                         points: points, amenities: amenities, pictureId: "demo-trail-\(id)")
        }
    }
}

/// What the demo draws for a picture.
public enum DemoPictureSubject: Sendable {
    case trailhead(Trail)
    case guideline(SafetyGuideline.Kind)
    case point(PointOfInterest.Kind)
}
