import Foundation

/// Reads an IMDF archive's files into features, keeping what can be used and naming every
/// problem: the file, the feature id and the rule broken. Real exports are messy, so a feature
/// that breaks a rule is left out (an error) or repaired (a warning) rather than failing the
/// whole venue; only a venue with no venue feature, levels or units cannot be read at all.
public struct IMDFReader: Sendable {
    public struct Result: Sendable {
        /// Nil when nothing usable could be read; `problems` then says why.
        public var archive: IMDFArchive?
        public var problems: [IMDFProblem]
    }

    public init() {}

    /// - Parameter files: each file's name (a path inside the archive is fine) and bytes.
    public func read(files: [(name: String, data: Data)]) -> Result {
        var problems: [IMDFProblem] = []
        var manifest: [String: JSONValue] = [:]
        var sawManifest = false
        var sources: [IMDFFeatureType: (file: String, data: Data)] = [:]

        for (path, data) in files.sorted(by: { $0.name < $1.name }) {
            let file = String(path.split(separator: "/").last ?? "")
            let lower = file.lowercased()
            if file.isEmpty || file.hasPrefix(".") || path.contains("__MACOSX") { continue }
            if lower == "manifest.json" {
                sawManifest = true
                switch try? JSONValue(parsing: data) {
                case .object(let o)?: manifest = o
                default: problems.append(.init(.warning, file: file, rule: "is not a JSON object; the manifest was left out"))
                }
                continue
            }
            let stem: Substring
            if lower.hasSuffix(".geojson") { stem = lower.dropLast(8) }
            else if lower.hasSuffix(".json") {
                stem = lower.dropLast(5)
                if IMDFFeatureType(rawValue: String(stem)) != nil {
                    problems.append(.init(.warning, file: file, rule: "IMDF names feature files <type>.geojson; read as \(stem).geojson"))
                }
            } else {
                problems.append(.init(.warning, file: file, rule: "is not an IMDF file (manifest.json or <type>.geojson); ignored"))
                continue
            }
            guard let type = IMDFFeatureType(rawValue: String(stem)) else {
                problems.append(.init(.warning, file: file, rule: "\(stem) is not an IMDF feature type; ignored"))
                continue
            }
            if let earlier = sources[type] {
                problems.append(.init(.error, file: file, rule: "a second file of \(type.rawValue) features beside \(earlier.file); ignored"))
                continue
            }
            sources[type] = (file, data)
        }
        if !sawManifest { problems.append(.init(.warning, file: "manifest.json", rule: "is missing; version and language assumed")) }

        // Parse each file's features with the rules that concern one feature alone.
        var parsed: [IMDFFeatureType: [(IMDFFeature, String)]] = [:]
        var seen: [String: String] = [:]
        for type in Self.readingOrder {
            guard let (file, data) = sources[type] else { continue }
            parsed[type] = parseFile(file: file, type: type, data: data, seen: &seen, problems: &problems)
        }

        // Then the references between features, in the order they depend on one another.
        var kept: [IMDFFeature] = []
        var keptIds: [IMDFFeatureType: Set<String>] = [:]
        func keep(_ f: IMDFFeature) { kept.append(f); keptIds[f.type, default: []].insert(f.id) }
        func has(_ type: IMDFFeatureType, _ id: String?) -> Bool { id.map { keptIds[type]?.contains($0) == true } ?? false }

        for (f, _) in parsed[.address] ?? [] { keep(f) }
        for (f, file) in parsed[.venue] ?? [] {
            if keptIds[.venue]?.isEmpty == false {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "an archive holds one venue; this second one was left out"))
                continue
            }
            keep(repairAddress(f, file: file, has: has, problems: &problems))
        }
        for (f, file) in parsed[.building] ?? [] { keep(repairAddress(f, file: file, has: has, problems: &problems)) }
        for (f, file) in parsed[.footprint] ?? [] {
            keep(repairList(f, key: "building_ids", of: .building, file: file, has: has, problems: &problems))
        }
        for (f, file) in parsed[.level] ?? [] {
            guard let ordinal = f.properties["ordinal"]?.number, ordinal.rounded() == ordinal else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "ordinal must be an integer (0 is the ground level); the level was left out"))
                continue
            }
            var level = repairList(f, key: "building_ids", of: .building, file: file, has: has, problems: &problems)
            if level.properties["outdoor"]?.bool == nil {
                problems.append(.init(.warning, file: file, featureId: f.id, rule: "outdoor must be true or false; taken as false"))
                level.properties["outdoor"] = .bool(false)
            }
            keep(repairAddress(level, file: file, has: has, problems: &problems))
        }
        for type in [IMDFFeatureType.unit, .fixture, .section, .kiosk, .geofence, .detail] {
            for (f, file) in parsed[type] ?? [] {
                let levelId = f.reference("level_id")
                let required = type != .geofence
                if levelId == nil && !required { keep(f); continue }
                guard has(.level, levelId) else {
                    let what = levelId.map { "level_id \($0) is not a level of this archive" } ?? "has no level_id"
                    problems.append(.init(.error, file: file, featureId: f.id, rule: "\(what); the \(type.rawValue) was left out"))
                    continue
                }
                if type == .unit, let category = f.category, !IMDFCategories.unit.contains(category) {
                    problems.append(.init(.warning, file: file, featureId: f.id, rule: "unit category \(category) is not one of IMDF's; read as unspecified"))
                }
                keep(f)
            }
        }
        let openings = placeOpenings(parsed[.opening] ?? [], units: kept.filter { $0.type == .unit },
                                     levels: kept.filter { $0.type == .level }, has: has, problems: &problems)
        for f in openings { keep(f) }
        for (f, file) in parsed[.anchor] ?? [] {
            guard has(.unit, f.reference("unit_id")) else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "unit_id must name a unit of this archive; the anchor was left out"))
                continue
            }
            keep(repairAddress(f, file: file, has: has, problems: &problems))
        }
        for (f, file) in parsed[.amenity] ?? [] {
            let units = f.references("unit_ids")
            let known = units.filter { has(.unit, $0) }
            guard !known.isEmpty else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "unit_ids must name at least one unit of this archive; the amenity was left out"))
                continue
            }
            var amenity = f
            if known.count < units.count {
                problems.append(.init(.warning, file: file, featureId: f.id, rule: "unit_ids names \(units.count - known.count) unit(s) not in this archive; those were dropped"))
                amenity.properties["unit_ids"] = .array(known.map { .string($0) })
            }
            keep(repairAddress(amenity, file: file, has: has, problems: &problems))
        }
        for (f, file) in parsed[.occupant] ?? [] {
            guard has(.anchor, f.reference("anchor_id")) else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "anchor_id must name an anchor of this archive; the occupant was left out"))
                continue
            }
            guard f.name != nil else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "an occupant needs a name; it was left out"))
                continue
            }
            keep(f)
        }
        for (f, file) in parsed[.relationship] ?? [] {
            var missing: [String] = []
            for key in ["origin", "destination"] {
                guard let id = f.properties[key]?["id"]?.string, keptAny(id, keptIds) else {
                    missing.append(key); continue
                }
            }
            guard missing.isEmpty else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "\(missing.joined(separator: " and ")) must name a feature of this archive; the relationship was left out"))
                continue
            }
            keep(f)
        }

        var fatal: [String] = []
        if keptIds[.venue]?.isEmpty ?? true { fatal.append("venue.geojson holds no usable venue") }
        if keptIds[.level]?.isEmpty ?? true { fatal.append("level.geojson holds no usable level") }
        if keptIds[.unit]?.isEmpty ?? true { fatal.append("unit.geojson holds no usable unit") }
        for reason in fatal {
            let file = String(reason.prefix { $0 != " " })
            problems.append(.init(.error, file: file, rule: "the archive has nothing to show without it: \(reason.drop { $0 != " " }.dropFirst())"))
        }
        return Result(archive: fatal.isEmpty ? IMDFArchive(manifest: manifest, features: kept) : nil, problems: problems)
    }

    /// Features are read in the order they refer to one another, so that of two features with
    /// one id the one others depend on is kept.
    static let readingOrder: [IMDFFeatureType] = [
        .address, .venue, .building, .footprint, .level, .unit, .fixture, .section, .kiosk, .geofence,
        .detail, .opening, .anchor, .amenity, .occupant, .relationship,
    ]

    /// Keeps the openings on a level of the archive. Exports made in two runs can give doors
    /// level ids of another run; such a group is placed on the one level whose unit walls all of
    /// its doors lie on (at least nine in ten, and more than on any other level), else left out.
    private func placeOpenings(_ openings: [(IMDFFeature, String)], units: [IMDFFeature], levels: [IMDFFeature],
                               has: (IMDFFeatureType, String?) -> Bool, problems: inout [IMDFProblem]) -> [IMDFFeature] {
        var out: [IMDFFeature] = []
        var strays: [String: [(IMDFFeature, String)]] = [:]
        for (f, file) in openings {
            guard let levelId = f.reference("level_id") else {
                problems.append(.init(.error, file: file, featureId: f.id, rule: "has no level_id; the opening was left out"))
                continue
            }
            if has(.level, levelId) { out.append(f) } else { strays[levelId, default: []].append((f, file)) }
        }
        guard !strays.isEmpty else { return out }
        let origin = units.first?.geometry?.coordinates.first ?? Coordinate(latitude: 0, longitude: 0)
        let projection = PlanarProjection(origin: origin)
        var walls: [String: [[PlanarPoint]]] = [:]
        for u in units { if let l = u.reference("level_id"), let g = u.geometry { walls[l, default: []] += g.outerRings.map { $0.map(projection.point) } } }
        func onWall(_ f: IMDFFeature, _ level: String) -> Bool {
            guard case .lineString(let line)? = f.geometry else { return false }
            let p = Planar.midpoint(line.map(projection.point))
            return walls[level]?.contains { Planar.boundaryDistance(p, $0) <= 0.75 } ?? false
        }
        for (levelId, group) in strays.sorted(by: { $0.key < $1.key }) {
            let file = group[0].1
            let scores = levels.map { l in (level: l, count: group.count { onWall($0.0, l.id) }) }.sorted { $0.count > $1.count }
            if let best = scores.first, Double(best.count) >= 0.9 * Double(group.count),
               scores.count == 1 || scores[1].count < best.count {
                let name = best.level.name.map { "'\($0)'" } ?? best.level.id
                problems.append(.init(.warning, file: file, featureId: "\(group.count) openings with level_id \(levelId)",
                                      rule: "that level is not in this archive; \(best.count) of the \(group.count) lie on unit walls of level \(name) and more than on any other, so all were placed on it"))
                for (f, _) in group {
                    var placed = f
                    placed.properties["level_id"] = .string(best.level.id)
                    out.append(placed)
                }
            } else {
                for (f, file) in group {
                    problems.append(.init(.error, file: file, featureId: f.id, rule: "level_id \(levelId) is not a level of this archive; the opening was left out"))
                }
            }
        }
        return out
    }

    private func keptAny(_ id: String, _ kept: [IMDFFeatureType: Set<String>]) -> Bool {
        kept.values.contains { $0.contains(id) }
    }

    private func parseFile(file: String, type: IMDFFeatureType, data: Data, seen: inout [String: String],
                           problems: inout [IMDFProblem]) -> [(IMDFFeature, String)] {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            problems.append(.init(.error, file: file, rule: "is not valid JSON (\(Self.describe(error))); every \(type.rawValue) was left out"))
            return []
        }
        guard json["type"]?.string == "FeatureCollection", let list = json["features"]?.array else {
            problems.append(.init(.error, file: file, rule: "must be a GeoJSON FeatureCollection with a features list; every \(type.rawValue) was left out"))
            return []
        }
        var out: [(IMDFFeature, String)] = []
        out.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            guard let id = item["id"]?.string, !id.isEmpty else {
                problems.append(.init(.error, file: file, featureId: "#\(i + 1)", rule: "has no id; left out"))
                continue
            }
            if let other = seen[id] {
                problems.append(.init(.error, file: file, featureId: id, rule: "the id is already used in \(other); this one was left out"))
                continue
            }
            if UUID(uuidString: id) == nil {
                problems.append(.init(.warning, file: file, featureId: id, rule: "IMDF ids are UUIDs; kept as it is"))
            }
            if let declared = item["feature_type"]?.string, declared != type.rawValue {
                problems.append(.init(.error, file: file, featureId: id, rule: "feature_type is \(declared) in a file of \(type.rawValue) features; left out"))
                continue
            }
            guard let properties = item["properties"]?.object else {
                problems.append(.init(.error, file: file, featureId: id, rule: "properties must be an object; left out"))
                continue
            }
            var geometry: Geometry?
            switch item["geometry"] {
            case nil, .null?:
                if let allowed = type.allowedGeometries, !type.geometryOptional {
                    problems.append(.init(.error, file: file, featureId: id, rule: "a \(type.rawValue) needs a \(allowed.sorted().joined(separator: " or ")) geometry; left out"))
                    continue
                }
            case let value?:
                do {
                    geometry = try Geometry(json: value)
                } catch {
                    problems.append(.init(.error, file: file, featureId: id, rule: "geometry: \(error.message); left out"))
                    continue
                }
                if let g = geometry {
                    if let allowed = type.allowedGeometries {
                        guard allowed.contains(g.typeName) else {
                            problems.append(.init(.error, file: file, featureId: id, rule: "a \(type.rawValue) must be a \(allowed.sorted().joined(separator: " or ")), not a \(g.typeName); left out"))
                            continue
                        }
                    } else {
                        problems.append(.init(.warning, file: file, featureId: id, rule: "a \(type.rawValue) has no geometry in IMDF; its \(g.typeName) was dropped"))
                        geometry = nil
                    }
                }
            }
            var feature = IMDFFeature(id: id, type: type, geometry: geometry, properties: properties)
            if let point = feature.displayPoint, let g = geometry, g.isAreal, let box = BoundingBox(g.coordinates) {
                // Editors leave their sample's display point in place; a label 9,000 km away helps nobody.
                let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
                let reach = Geo.distance(centre, Coordinate(latitude: box.north, longitude: box.east)) + 100
                let off = Geo.distance(centre, point)
                if off > reach {
                    problems.append(.init(.warning, file: file, featureId: id, rule: "display_point lies \(Self.kilometres(off)) from the \(type.rawValue)'s geometry; dropped"))
                    feature.properties["display_point"] = .null
                }
            }
            seen[id] = file
            out.append((feature, file))
        }
        return out
    }

    private func repairAddress(_ f: IMDFFeature, file: String, has: (IMDFFeatureType, String?) -> Bool,
                               problems: inout [IMDFProblem]) -> IMDFFeature {
        guard let id = f.reference("address_id"), !has(.address, id) else { return f }
        var out = f
        out.properties["address_id"] = .null
        problems.append(.init(.warning, file: file, featureId: f.id, rule: "address_id \(id) is not an address of this archive; dropped"))
        return out
    }

    private func repairList(_ f: IMDFFeature, key: String, of type: IMDFFeatureType, file: String,
                            has: (IMDFFeatureType, String?) -> Bool, problems: inout [IMDFProblem]) -> IMDFFeature {
        let ids = f.references(key)
        let known = ids.filter { has(type, $0) }
        guard known.count < ids.count else { return f }
        var out = f
        out.properties[key] = known.isEmpty ? .null : .array(known.map { .string($0) })
        problems.append(.init(.warning, file: file, featureId: f.id, rule: "\(key) names \(ids.count - known.count) \(type.rawValue)(s) not in this archive; dropped"))
        return out
    }

    private static func kilometres(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres)) m" : "\(Int((metres / 1000).rounded()).formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) km"
    }

    private static func describe(_ error: any Error) -> String { String(describing: error) }
}
