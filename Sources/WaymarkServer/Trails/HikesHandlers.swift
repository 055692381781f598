import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

// MARK: Recorded hikes (TRL-6) and the hiker's body

extension APIHandler {
    private var hikes: Hikes { services.trails.hikes }

    private func hikeId(_ raw: String) throws -> String { try ClientChosenId.validated(raw, name: "hikeId", noun: "hike") }

    private func bodyView(_ userId: String) async throws -> Components.Schemas.HikerBody {
        let (b, year) = try await hikes.told(userId: userId)
        return .init(heightCentimetres: b.heightCentimetres, weightKilograms: b.weightKilograms, birthYear: year)
    }

    func getHikerBody(_ input: Operations.GetHikerBody.Input) async throws -> Operations.GetHikerBody.Output {
        let me = try RequestContext.requirePrincipal()
        return .ok(.init(body: .json(try await bodyView(me.userId))))
    }

    func putHikerBody(_ input: Operations.PutHikerBody.Input) async throws -> Operations.PutHikerBody.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        for (name, v) in [("heightCentimetres", b.heightCentimetres), ("weightKilograms", b.weightKilograms)] where v.map({ !$0.isFinite }) ?? false {
            throw Problem.badRequest("\(name) must be a number.")
        }
        try await hikes.setBody(userId: me.userId, heightCentimetres: b.heightCentimetres, weightKilograms: b.weightKilograms, birthYear: b.birthYear)
        return .ok(.init(body: .json(try await bodyView(me.userId))))
    }

    func listMyHikes(_ input: Operations.ListMyHikes.Input) async throws -> Operations.ListMyHikes.Output {
        let me = try RequestContext.requirePrincipal()
        let limit = input.query.limit ?? 10, offset = input.query.offset ?? 0
        guard (1...100).contains(limit), (0...100_000).contains(offset) else { throw Problem.badRequest("limit must be 1–100 and offset 0–100000.") }
        let sort = Hikes.Sort(rawValue: input.query.sort?.rawValue ?? "date") ?? .date
        let page = try await hikes.list(userId: me.userId, sort: sort, limit: limit, offset: offset)
        return .ok(.init(body: .json(.init(hikes: page.hikes.map(TrailsMapping.hikeSummary), total: page.total,
                                           timeZone: services.trails.timeZone.identifier))))
    }

    func getMyHike(_ input: Operations.GetMyHike.Input) async throws -> Operations.GetMyHike.Output {
        let me = try RequestContext.requirePrincipal()
        guard let hike = try await hikes.hike(userId: me.userId, id: try hikeId(input.path.hikeId)) else { throw Problem.notFound("hike") }
        return .ok(.init(body: .json(TrailsMapping.hike(hike))))
    }

    func saveMyHike(_ input: Operations.SaveMyHike.Input) async throws -> Operations.SaveMyHike.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let id = try hikeId(input.path.hikeId)
        guard body.trailId.unicodeScalars.count <= 64 else { throw Problem.badRequest("trailId must be at most 64 characters.") }
        guard body.fixes.count <= Hikes.maximumFixes else { throw Problem.badRequest("At most \(Hikes.maximumFixes) fixes; keep one every few seconds.") }
        var fixes: [HikeFix] = []
        fixes.reserveCapacity(body.fixes.count)
        for (i, raw) in body.fixes.enumerated() {
            guard (4...5).contains(raw.count), raw.allSatisfy(\.isFinite), raw[0] >= 0, let fix = HikeFix(wire: raw, start: body.startedAt) else {
                throw Problem.badRequest("fixes[\(i)] must be [seconds from startedAt (0 or more), latitude, longitude, accuracy, elevation?] with finite numbers.")
            }
            fixes.append(fix)
        }
        let r = try await hikes.save(userId: me.userId, id: id, trailId: body.trailId, startedAt: body.startedAt, endedAt: body.endedAt, fixes: fixes)
        let out = TrailsMapping.hike(r.hike)
        return r.created ? .created(.init(body: .json(out))) : .ok(.init(body: .json(out)))
    }

    func deleteMyHike(_ input: Operations.DeleteMyHike.Input) async throws -> Operations.DeleteMyHike.Output {
        let me = try RequestContext.requirePrincipal()
        guard try await hikes.delete(userId: me.userId, id: try hikeId(input.path.hikeId)) else { throw Problem.notFound("hike") }
        return .noContent(.init())
    }

    func getMyHikeGPX(_ input: Operations.GetMyHikeGPX.Input) async throws -> Operations.GetMyHikeGPX.Output {
        let me = try RequestContext.requirePrincipal()
        guard let hike = try await hikes.hike(userId: me.userId, id: try hikeId(input.path.hikeId)) else { throw Problem.notFound("hike") }
        let points = (hike.fixes ?? []).map { GPXDocument.Point(coordinate: $0.coordinate, elevation: $0.elevation, time: $0.time) }
        let document = GPXDocument(name: hike.trailName, description: "Recorded with Waymark", tracks: [.init(name: hike.trailName, segments: [points])], waypoints: [])
        return .ok(.init(headers: .init(contentDisposition: "attachment; filename=\"hike-\(hike.id).gpx\""), body: .applicationGpxXml(HTTPBody(document.gpx()))))
    }
}

// MARK: Scavenger hunts (TRL-10)

extension APIHandler {
    private func hunt(userId: String, trailId: String) async throws -> Components.Schemas.ScavengerHunt {
        let hunts = services.trails.hunts
        let (_, points) = try await hunts.focalPoints(trailId)
        let found = try await hunts.found(userId: userId, trailId: trailId)
        return .init(trailId: trailId, found: points.filter { found[$0.id] != nil }.count, total: points.count,
                     points: points.map { .init(point: TrailsMapping.point($0), found: found[$0.id] != nil, foundAt: found[$0.id]) })
    }

    func getMyScavengerHunt(_ input: Operations.GetMyScavengerHunt.Input) async throws -> Operations.GetMyScavengerHunt.Output {
        let me = try RequestContext.requirePrincipal()
        guard input.path.trailId.unicodeScalars.count <= 64 else { throw Problem.notFound("trail") }
        return .ok(.init(body: .json(try await hunt(userId: me.userId, trailId: input.path.trailId))))
    }

    func markScavengerFind(_ input: Operations.MarkScavengerFind.Input) async throws -> Operations.MarkScavengerFind.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        guard input.path.trailId.unicodeScalars.count <= 64 else { throw Problem.badRequest("trailId must be at most 64 characters.") }
        guard input.path.pointId.unicodeScalars.count <= 100 else { throw Problem.badRequest("pointId must be at most 100 characters.") }
        try await services.trails.hunts.mark(userId: me.userId, trailId: input.path.trailId, pointId: input.path.pointId, found: body.found)
        return .ok(.init(body: .json(try await hunt(userId: me.userId, trailId: input.path.trailId))))
    }
}
