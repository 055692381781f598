import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func listVenues(_ input: Operations.ListVenues.Input) async throws -> Operations.ListVenues.Output {
        let rows = try await services.wayfinding.venues.list()
        return .ok(.init(body: .json(.init(venues: rows.map(WayfindingMapping.summary)))))
    }

    func getVenue(_ input: Operations.GetVenue.Input) async throws -> Operations.GetVenue.Output {
        let (row, map) = try await venue(input.path.venueId)
        let etag = Self.venueETag(row)
        if ETag.matches(input.headers.ifNoneMatch, etag) { return .notModified(.init(headers: .init(eTag: etag))) }
        return .ok(.init(headers: .init(eTag: etag, cacheControl: "no-cache"), body: .json(try WayfindingMapping.venue(row, map))))
    }

    func getLevelMap(_ input: Operations.GetLevelMap.Input) async throws -> Operations.GetLevelMap.Output {
        let (row, map) = try await venue(input.path.venueId)
        let etag = Self.venueETag(row)
        if ETag.matches(input.headers.ifNoneMatch, etag) { return .notModified(.init(headers: .init(eTag: etag))) }
        guard let body = try WayfindingMapping.levelMap(row.id, input.path.levelId, map) else { throw Problem.notFound("level in this venue") }
        return .ok(.init(headers: .init(eTag: etag, cacheControl: "no-cache"), body: .json(body)))
    }

    func getPlace(_ input: Operations.GetPlace.Input) async throws -> Operations.GetPlace.Output {
        let (row, map) = try await venue(input.path.venueId)
        guard let entry = map.place(input.path.placeId) else { throw Problem.notFound("place in this venue") }
        return .ok(.init(body: .json(WayfindingMapping.place(entry, venueId: row.id, map))))
    }

    func getPerson(_ input: Operations.GetPerson.Input) async throws -> Operations.GetPerson.Output {
        let (row, map) = try await venue(input.path.venueId)
        guard let person = map.person(input.path.personId) else { throw Problem.notFound("person in this venue's directory") }
        return .ok(.init(body: .json(WayfindingMapping.person(person, venueId: row.id, map))))
    }

    func searchPlaces(_ input: Operations.SearchPlaces.Input) async throws -> Operations.SearchPlaces.Output {
        let q = input.query
        let limit = q.limit ?? 10
        guard (1...50).contains(limit) else { throw Problem.badRequest("`limit` must be from 1 to 50.") }
        guard (1...200).contains(q.q.count) else { throw Problem.badRequest("`q` has 1 to 200 characters.") }
        guard (q.venueId?.count ?? 0) <= 128 else { throw Problem.badRequest("`venueId` has at most 128 characters.") }
        let rows: [VenueRow]
        if let id = q.venueId {
            guard let row = try await services.wayfinding.venues.venue(id) else { throw Problem.notFound("venue") }
            rows = [row]
        } else {
            rows = try await services.wayfinding.venues.list()
        }
        var hits: [(hit: PlaceSearch.Hit, venue: String, map: VenueMap)] = []
        for row in rows {
            let map = try await services.wayfinding.map(row)
            hits += map.search.search(q.q, limit: limit).map { ($0, row.id, map) }
        }
        hits.sort { $0.hit.score > $1.hit.score }
        let places = hits.prefix(limit).map { WayfindingMapping.place($0.hit.entry, venueId: $0.venue, $0.map) }
        return .ok(.init(body: .json(.init(places: Array(places)))))
    }

    func getRoute(_ input: Operations.GetRoute.Input) async throws -> Operations.GetRoute.Output {
        let q = input.query
        let origin: VenueMap.Origin
        switch (q.from, q.fromLatitude, q.fromLongitude) {
        case (let id?, nil, nil):
            guard q.fromLevel == nil else { throw Problem.badRequest("`fromLevel` goes with a position (`fromLatitude`, `fromLongitude`), not with `from`.") }
            origin = .place(id)
        case (nil, let lat?, let lon?): origin = .position(Coordinate(latitude: lat, longitude: lon), level: q.fromLevel)
        case (nil, nil, nil): throw Problem.badRequest("Say where the route starts: `from` (a place) or `fromLatitude` and `fromLongitude`.")
        case (_?, _, _): throw Problem.badRequest("Give `from` or a position (`fromLatitude`, `fromLongitude`), not both.")
        default: throw Problem.badRequest("A position needs both `fromLatitude` and `fromLongitude`.")
        }
        let destination: VenueMap.Destination
        switch (q.to, q.nearest) {
        case (let id?, nil): destination = .place(id)
        case (nil, let kind?): destination = .nearest(VenueMap.Amenity(rawValue: kind.rawValue) ?? .restroom)
        case (nil, nil): throw Problem.badRequest("Say where the route goes: `to` (a place) or `nearest` (a kind of place).")
        default: throw Problem.badRequest("Give `to` or `nearest`, not both.")
        }
        let (row, map) = try await venue(input.path.venueId)
        let stepFree = q.stepFree ?? false
        do {
            let route = try map.route(from: origin, to: destination, stepFree: stepFree)
            let name: String? = if case .place(let id) = destination { map.name(of: id) } else { nil }
            return .ok(.init(body: .json(WayfindingMapping.route(route, venueId: row.id, destination: name, map))))
        } catch {
            throw Self.problem(error, map: map)
        }
    }

    func exportVenue(_ input: Operations.ExportVenue.Input) async throws -> Operations.ExportVenue.Output {
        guard let row = try await services.wayfinding.venues.venue(input.path.venueId) else { throw Problem.notFound("venue") }
        let zip = try ArchiveFiles.zip(try await services.wayfinding.venues.files(row.id), modified: row.importedAt)
        let file = row.name.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") { $0.append($1) }
        return .ok(.init(headers: .init(contentDisposition: "attachment; filename=\"\(file.isEmpty ? "venue" : file)-imdf.zip\""),
                         body: .applicationZip(HTTPBody(zip))))
    }

    func importVenue(_ input: Operations.ImportVenue.Input) async throws -> Operations.ImportVenue.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        guard case .applicationZip(let body) = input.body else { throw Problem.unsupportedMediaType }
        let data = Data(try await [UInt8](collecting: body, upTo: Int.max))
        let files: [(name: String, data: Data)]
        do { files = try ArchiveFiles.imdf.unzip(data, name: "The upload") } catch {
            throw Problem(type: "imdf-invalid", title: "The archive cannot be imported", status: 422, detail: error.description)
        }
        do {
            let r = try await services.wayfinding.importer.importVenue(files: files, strict: input.query.strict ?? false)
            return .ok(.init(body: .json(.init(venueId: r.venueId, name: r.name, version: r.version, features: r.features,
                                               warnings: r.problems.numbered))))
        } catch let failure as VenueImportFailure {
            throw Problem(type: "imdf-invalid", title: "The archive cannot be imported", status: 422,
                          detail: Self.listed(failure.summary, failure.problems))
        }
    }

    func replaceDirectory(_ input: Operations.ReplaceDirectory.Input) async throws -> Operations.ReplaceDirectory.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        guard case .csv(let body) = input.body else { throw Problem.unsupportedMediaType }
        let bytes = try await [UInt8](collecting: body, upTo: Int.max)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Problem(type: "csv-invalid", title: "The directory cannot be read", status: 400, detail: "The file is not UTF-8 text.") }
        let staff: [StaffMember]
        do { staff = try StaffCSV.parse(text, file: "The directory") } catch {
            throw Problem(type: "csv-invalid", title: "The directory cannot be read", status: 400, detail: Self.listed("", error.problems))
        }
        guard let r = try await services.wayfinding.importer.importDirectory(venueId: input.path.venueId, staff: staff) else {
            throw Problem.notFound("venue")
        }
        return .ok(.init(body: .json(.init(venueId: r.venueId, version: r.version, people: r.people,
                                           placed: r.people - r.unplaced.count, unplaced: r.unplaced))))
    }

    private func venue(_ id: String) async throws -> (VenueRow, VenueMap) {
        guard let found = try await services.wayfinding.venue(id) else { throw Problem.notFound("venue") }
        return found
    }

    private static func venueETag(_ row: VenueRow) -> String { "\"v\(row.version).\(row.importedAt.millis)\"" }

    /// The first problems of a long list, and how many more there are.
    private static func listed(_ summary: String, _ problems: [String], max: Int = 50) -> String {
        var lines = summary.isEmpty ? [] : [summary]
        lines += problems.prefix(max)
        if problems.count > max { lines.append("… and \(problems.count - max) more.") }
        return lines.joined(separator: "\n")
    }

    private static func problem(_ error: VenueMap.RouteError, map: VenueMap) -> Problem {
        switch error {
        case .unknownPlace(let id): Problem(type: "not-found", title: "Not found", status: 404, detail: "No place '\(id)' in this venue.")
        case .unknownLevel(let id): Problem(type: "not-found", title: "Not found", status: 404, detail: "No level '\(id)' in this venue.")
        case .notOnMap(let id):
            Problem(type: "not-on-map", title: "That place cannot be walked to", status: 422,
                    detail: "\(map.name(of: id) ?? id) is not in a room of the venue's plans\(map.person(id) != nil ? " (the directory names a room the plans lack)" : "").")
        case .noneOfKind(let kind):
            Problem(type: "none-of-kind", title: "No such place here", status: 422, detail: "This venue has no \(kind.words) on its plans.")
        case .noRoute:
            Problem(type: "no-route", title: "No route", status: 422, detail: "Nothing walkable on the venue's plans connects the two places.")
        case .noStepFreeRoute:
            Problem(type: "no-step-free-route", title: "No step-free route", status: 422,
                    detail: "Every way there uses stairs, steps or an escalator. Ask without the step-free option to see it, or ask staff for help.")
        }
    }
}
