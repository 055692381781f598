import Foundation

/// Trails from files (TRL-1): a GPX file becomes one trail (its tracks joined in order, or its
/// longest route), a GeoJSON file one trail per LineString feature with the documented
/// properties. Each refusal names the file, the track or feature, and the rule.
public enum TrailImport {
    public typealias Problem = FileProblem

    public struct Result: Sendable {
        public var trails: [Trail] = []
        public var problems: [Problem] = []
    }

    /// At most this many points a trail; longer recordings are thinned evenly.
    public static let maximumPoints = 20_000
    /// A trail needs elevation on at least this share of its points.
    public static let elevationShare = 0.9
    /// Waypoints this close to the path become its points of interest.
    public static let waypointReach = 200.0

    /// By the file's name: `.geojson` or `.json` is GeoJSON, anything else GPX.
    public static func read(_ data: Data, file: String, eachTrack: Bool = false) -> Result {
        isGeoJSON(file) ? geoJSON(data, file: file) : gpx(data, file: file, eachTrack: eachTrack)
    }

    public static func isGeoJSON(_ file: String) -> Bool {
        let lower = file.lowercased()
        return lower.hasSuffix(".geojson") || lower.hasSuffix(".json")
    }

    // MARK: GPX

    public static func gpx(_ data: Data, file: String, eachTrack: Bool) -> Result {
        var result = Result()
        let document: GPXDocument
        do { document = try GPXDocument.read(data) } catch {
            result.problems.append(Problem(file: file, item: error.line.map { "line \($0)" }, rule: error.rule))
            return result
        }
        let fallback = document.name ?? title(fromFile: file)
        var candidates: [(item: String, name: String, description: String?, points: [GPXDocument.Point])] = []
        if eachTrack {
            for (i, t) in document.tracks.enumerated() {
                candidates.append(("track \(i + 1)" + (t.name.map { " '\($0)'" } ?? ""), t.name ?? "\(fallback) \(i + 1)", t.description, t.points))
            }
        } else if !document.tracks.isEmpty {
            let points = document.tracks.flatMap(\.points)
            candidates.append((document.tracks.count == 1 ? "its track" : "its \(document.tracks.count) tracks", fallback,
                               document.description ?? document.tracks.first?.description, points))
        }
        if candidates.isEmpty, let route = document.routes.max(by: { $0.points.count < $1.points.count }) {
            candidates.append(("route" + (route.name.map { " '\($0)'" } ?? ""), document.name ?? route.name ?? fallback, route.description, route.points))
        }
        if candidates.isEmpty {
            result.problems.append(Problem(file: file, item: nil, rule: "has no track or route: a trail needs a path"))
            return result
        }
        for c in candidates {
            do {
                let path = try checkedPath(c.points.map(PathPoint.init))
                var trail = Trail(id: slug(c.name), name: c.name, area: "", description: c.description ?? "",
                                  shape: inferredShape(path), path: path)
                trail.points = nearbyWaypoints(document.waypoints, path: path, trailId: trail.id)
                result.trails.append(trail)
            } catch let rule as Rule {
                result.problems.append(Problem(file: file, item: c.item, rule: rule.text))
            } catch {}
        }
        return result
    }

    static func nearbyWaypoints(_ waypoints: [GPXDocument.Point], path: [PathPoint], trailId: String) -> [PointOfInterest] {
        var out: [PointOfInterest] = []
        for w in waypoints {
            guard let name = w.name, !name.isEmpty else { continue }
            let near = path.contains { Geo.distance($0.coordinate, w.coordinate) <= waypointReach }
            if near { out.append(PointOfInterest(id: "\(trailId)-\(out.count + 1)", kind: .landmark, name: name, history: "", position: w.coordinate)) }
        }
        return out
    }

    // MARK: GeoJSON

    public static func geoJSON(_ data: Data, file: String) -> Result {
        var result = Result()
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            result.problems.append(Problem(file: file, item: nil, rule: "is not JSON"))
            return result
        }
        let features: [Any]
        switch (root as? [String: Any])?["type"] as? String {
        case "FeatureCollection": features = ((root as? [String: Any])?["features"] as? [Any]) ?? []
        case "Feature": features = [root]
        default:
            result.problems.append(Problem(file: file, item: nil, rule: "is not a GeoJSON Feature or FeatureCollection"))
            return result
        }
        for (i, any) in features.enumerated() {
            let item = "feature \(i + 1)"
            guard let feature = any as? [String: Any], let geometry = feature["geometry"] as? [String: Any] else {
                result.problems.append(Problem(file: file, item: item, rule: "has no geometry")); continue
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let label = (properties["name"] as? String).map { "\(item) '\($0)'" } ?? item
            do {
                let type = geometry["type"] as? String
                guard type == "LineString" || type == "MultiLineString" else {
                    // Points and polygons may sit beside the trails (a park outline, a marker): not an error.
                    if type == "Point" || type == "Polygon" || type == "MultiPolygon" { continue }
                    throw Rule("geometry must be a LineString or MultiLineString, not \(type ?? "nothing")")
                }
                let lines: [Any] = type == "LineString" ? [geometry["coordinates"] ?? []] : (geometry["coordinates"] as? [Any] ?? [])
                var raw: [PathPoint] = []
                for line in lines {
                    guard let positions = line as? [Any] else { throw Rule("coordinates must be arrays of positions") }
                    for (k, p) in positions.enumerated() {
                        guard let numbers = p as? [Any], numbers.count >= 2, let lon = number(numbers[0]), let lat = number(numbers[1]) else {
                            throw Rule("position \(k + 1) is not [longitude, latitude, elevation]")
                        }
                        raw.append(PathPoint(latitude: lat, longitude: lon, elevation: numbers.count > 2 ? number(numbers[2]) : nil))
                    }
                }
                let path = try checkedPath(raw)
                result.trails.append(try trail(properties, path: path))
            } catch let rule as Rule {
                result.problems.append(Problem(file: file, item: label, rule: rule.text))
            } catch {}
        }
        if features.isEmpty { result.problems.append(Problem(file: file, item: nil, rule: "has no features")) }
        return result
    }

    /// The documented properties (README, "Trails from files"); unknown ones are ignored.
    static func trail(_ p: [String: Any], path: [PathPoint]) throws -> Trail {
        guard let name = text(p["name"], 200), !name.isEmpty else { throw Rule("properties.name is required") }
        let id = text(p["id"], 64).map(slug) ?? slug(name)
        guard !id.isEmpty else { throw Rule("properties.id must have letters or digits") }
        var shape = inferredShape(path)
        if let s = p["shape"] {
            guard let v = (s as? String).flatMap(Trail.Shape.init(rawValue:)) else { throw Rule("properties.shape must be loop, outAndBack or pointToPoint") }
            shape = v
        }
        var official: TrailDifficulty?
        if let d = p["difficulty"] {
            guard let v = (d as? String).flatMap(TrailDifficulty.init(rawValue:)) else { throw Rule("properties.difficulty must be easy, moderate or hard") }
            official = v
        }
        var trail = Trail(id: id, name: name, area: text(p["area"], 100) ?? "", description: text(p["description"], 4000) ?? "",
                          shape: shape, path: path, officialDifficulty: official, accessible: p["accessible"] as? Bool ?? false,
                          huntingAlert: text(p["huntingAlert"], 500))
        trail.info = TrailInfo(admission: text(p["admission"], 500), additionalFees: text(p["additionalFees"], 500),
                               seasonalHours: try list(p["seasonalHours"], "seasonalHours") { o in
                                   guard let s = text(o["season"], 100), let h = text(o["hours"], 200) else { throw Rule("properties.seasonalHours entries need season and hours") }
                                   return SeasonalHours(season: s, hours: h)
                               }, parking: text(p["parking"], 500))
        trail.contacts = try list(p["contacts"], "contacts") { o in
            guard let n = text(o["name"], 200), let phones = o["phones"] as? [String], !phones.isEmpty else { throw Rule("properties.contacts entries need a name and phones") }
            return RangerContact(name: n, phones: phones.map { String($0.prefix(40)) })
        }
        trail.amenities = try (p["amenities"] as? [Any] ?? []).map { a in
            guard let v = (a as? String).flatMap(TrailAmenity.init(rawValue:)) else {
                throw Rule("properties.amenities: '\(a)' is not one of \(TrailAmenity.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return v
        }
        trail.guidelines = try list(p["guidelines"], "guidelines") { o in
            guard let k = (o["kind"] as? String).flatMap(SafetyGuideline.Kind.init(rawValue:)), let n = text(o["name"], 200), let d = text(o["description"], 4000) else {
                throw Rule("properties.guidelines entries need kind (predator, dangerousPlant, ediblePlant, equipment), name and description")
            }
            return SafetyGuideline(kind: k, name: n, description: d, warningSigns: text(o["warningSigns"], 2000))
        }
        var index = 0
        trail.points = try list(p["points"], "points") { o in
            guard let k = (o["kind"] as? String).flatMap(PointOfInterest.Kind.init(rawValue:)), let n = text(o["name"], 200) else {
                throw Rule("properties.points entries need kind (landmark, scenicOverlook, waterfall, plant, animal) and name")
            }
            var position: Coordinate?
            if let pos = o["position"] as? [Any] {
                guard pos.count >= 2, let lon = number(pos[0]), let lat = number(pos[1]), Coordinate(latitude: lat, longitude: lon).isValid else {
                    throw Rule("properties.points: '\(n)' position must be [longitude, latitude]")
                }
                position = Coordinate(latitude: lat, longitude: lon)
            }
            index += 1
            return PointOfInterest(id: "\(id)-\(index)", kind: k, name: n, history: text(o["history"], 4000) ?? "", position: position,
                                   focalPoint: o["focalPoint"] as? Bool ?? false)
        }
        return trail
    }

    // MARK: Rules shared by both formats

    struct Rule: Error { var text: String; init(_ text: String) { self.text = text } }

    static func checkedPath(_ raw: [PathPoint]) throws -> [PathPoint] {
        guard raw.count >= 2 else { throw Rule("has \(raw.count) point\(raw.count == 1 ? "" : "s"): a trail needs at least 2") }
        if let bad = raw.firstIndex(where: { !$0.coordinate.isValid }) { throw Rule("point \(bad + 1) is not on Earth (latitude ±90, longitude ±180)") }
        let missing = raw.filter { $0.elevation == nil }.count
        if Double(raw.count - missing) < elevationShare * Double(raw.count) {
            throw Rule("has no elevation on \(missing) of \(raw.count) points: a trail needs elevation for its profile and grade")
        }
        var path = raw
        if path.count > maximumPoints {
            let step = Double(path.count - 1) / Double(maximumPoints - 1)
            path = (0..<maximumPoints).map { raw[Int((Double($0) * step).rounded())] }
        }
        let metres = zip(path, path.dropFirst()).reduce(0.0) { $0 + Geo.distance($1.0.coordinate, $1.1.coordinate) }
        guard metres >= 50 else { throw Rule("is \(Int(metres)) m long: a trail is at least 50 m") }
        return path
    }

    /// A path that ends within 100 m of its start is a loop; any other is walked end to end.
    static func inferredShape(_ path: [PathPoint]) -> Trail.Shape {
        guard let a = path.first, let b = path.last else { return .pointToPoint }
        return Geo.distance(a.coordinate, b.coordinate) <= 100 ? .loop : .pointToPoint
    }

    /// Lowercase letters, digits and hyphens, accents dropped: "Vršič – Mojstrovka" → "vrsic-mojstrovka".
    public static func slug(_ s: String) -> String {
        let folded = SearchText.fold(s)
        var out = "", gap = false
        for ch in folded.unicodeScalars {
            if ("a"..."z").contains(ch) || ("0"..."9").contains(ch) {
                if gap && !out.isEmpty { out += "-" }
                out.unicodeScalars.append(ch); gap = false
            } else { gap = true }
        }
        return String(out.prefix(64))
    }

    /// "cerknicko-jezero.gpx" → "Cerknicko jezero".
    static func title(fromFile file: String) -> String {
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let words = base.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    private static func text(_ v: Any?, _ limit: Int) -> String? {
        guard let s = (v as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
        return String(s.prefix(limit))
    }

    private static func number(_ v: Any) -> Double? {
        guard let n = v as? NSNumber, n.doubleValue.isFinite else { return nil }
        // A JSON true or false comes as a char-typed NSNumber: it is not a number here.
        if String(cString: n.objCType) == "c" { return nil }
        return n.doubleValue
    }

    private static func list<T>(_ v: Any?, _ name: String, _ make: ([String: Any]) throws -> T) throws -> [T] {
        guard let v else { return [] }
        guard let array = v as? [Any] else { throw Rule("properties.\(name) must be a list") }
        return try array.map { e in
            guard let o = e as? [String: Any] else { throw Rule("properties.\(name) entries must be objects") }
            return try make(o)
        }
    }
}
