import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    private var trails: TrailsServices { services.trails }

    /// The contract's bounds on text the generated types do not check.
    fileprivate func bounded(_ value: String, _ name: String, _ limit: Int) throws -> String {
        // JSON Schema counts code points, not what a person sees as characters.
        guard value.unicodeScalars.count <= limit else { throw Problem.badRequest("\(name) must be at most \(limit) characters.") }
        return value
    }
    fileprivate func trailId(_ value: String) throws -> String { try bounded(value, "trailId", 64) }

    func listTrails(_ input: Operations.ListTrails.Input) async throws -> Operations.ListTrails.Output {
        let q = input.query
        var query = TrailsServices.Query()
        for (name, value) in [("latitude", q.latitude), ("south", q.south), ("north", q.north)] where value.map({ !(-90...90).contains($0) }) ?? false {
            throw Problem.badRequest("\(name) must be between -90 and 90.")
        }
        for (name, value) in [("longitude", q.longitude), ("west", q.west), ("east", q.east)] where value.map({ !(-180...180).contains($0) }) ?? false {
            throw Problem.badRequest("\(name) must be between -180 and 180.")
        }
        guard (q.difficulty?.count ?? 0) <= 3, (q.feature?.count ?? 0) <= 5 else {
            throw Problem.badRequest("difficulty takes at most 3 tiers and feature at most 5 kinds.")
        }
        guard (1...100).contains(q.limit ?? 20) else { throw Problem.badRequest("limit must be between 1 and 100.") }
        guard (0...1_000_000).contains(q.offset ?? 0) else { throw Problem.badRequest("offset must be between 0 and 1000000.") }
        let point = [q.latitude, q.longitude].compactMap { $0 }.count
        let view = [q.south, q.west, q.north, q.east].compactMap { $0 }.count
        guard point == 0 || point == 2 else { throw Problem.badRequest("Give both latitude and longitude, or neither.") }
        guard view == 0 || view == 4 else { throw Problem.badRequest("A view needs all of south, west, north and east.") }
        guard [point > 0, view > 0, q.q != nil].filter({ $0 }).count <= 1 else {
            throw Problem.badRequest("Ask for trails near a point (latitude, longitude), in a view (south, west, north, east) or by name (q), one at a time.")
        }
        if let lat = q.latitude, let lon = q.longitude {
            query.place = .near(Coordinate(latitude: lat, longitude: lon))
        } else if let s = q.south, let w = q.west, let n = q.north, let e = q.east {
            guard s <= n else { throw Problem.badRequest("south must not be north of north.") }
            query.place = .view(south: s, west: w, north: n, east: e)
        } else if let text = q.q {
            _ = try bounded(text, "q", 100)
            guard !SearchText.words(text).isEmpty else { throw Problem.badRequest("q needs a letter or a digit.") }
            query.place = .named(text)
        }
        query.filter = TrailIndex.Filter(
            difficulties: q.difficulty.map { Set($0.compactMap { TrailDifficulty(rawValue: $0.rawValue) }) },
            features: Set((q.feature ?? []).compactMap { PointOfInterest.Kind(rawValue: $0.rawValue) }))
        query.limit = q.limit ?? 20
        query.offset = q.offset ?? 0
        let found = try await trails.list(query)
        let lines = q.lines == true ? try await trails.trails.lines(found.rows.map(\.row.id)) : [:]
        return .ok(.init(body: .json(.init(
            trails: found.rows.map { TrailsMapping.summary($0.row, metres: $0.metres, line: q.lines == true ? lines[$0.row.id] ?? [] : nil) },
            total: found.total,
            town: found.town.map { .init(name: $0.name, latitude: $0.position.latitude, longitude: $0.position.longitude) }))))
    }

    func getTrail(_ input: Operations.GetTrail.Input) async throws -> Operations.GetTrail.Output {
        guard let found = try await trails.trails.trail(try trailId(input.path.trailId)) else { throw Problem.notFound("trail") }
        let etag = "\"trail-\(found.row.id)-\(found.row.version)-\(trails.timeZone.identifier)\""
        if ETag.matches(input.headers.ifNoneMatch, etag) { return .notModified(.init(headers: .init(eTag: etag))) }
        return .ok(.init(headers: .init(eTag: etag, cacheControl: "no-cache"),
                         body: .json(TrailsMapping.trail(found.row, found.trail, timeZone: trails.timeZone))))
    }

    func getTrailGPX(_ input: Operations.GetTrailGPX.Input) async throws -> Operations.GetTrailGPX.Output {
        guard let found = try await trails.trails.trail(try trailId(input.path.trailId)) else { throw Problem.notFound("trail") }
        let data = found.trail.gpxDocument().gpx()
        return .ok(.init(headers: .init(contentDisposition: "attachment; filename=\"\(found.row.id).gpx\""),
                         body: .applicationGpxXml(HTTPBody(data))))
    }

    func getTrailWeather(_ input: Operations.GetTrailWeather.Input) async throws -> Operations.GetTrailWeather.Output {
        guard let row = try await trails.trails.row(try trailId(input.path.trailId)) else { throw Problem.notFound("trail") }
        let answer: TrailWeather.Answer?
        do { answer = try await trails.weather.forecast(at: row.trailhead) } catch {
            throw Problem.unavailable("The weather service cannot be reached just now, and no forecast is kept for this area yet.")
        }
        guard let answer else { throw Problem.unavailable("Weather is not set up on this server.") }
        return .ok(.init(body: .json(.init(
            days: answer.days.map { .init(date: $0.date, condition: .init(rawValue: $0.condition.rawValue)!, highCelsius: $0.highCelsius, lowCelsius: $0.lowCelsius) },
            timeZone: answer.timeZone, fetchedAt: answer.fetchedAt, stale: answer.stale, credit: OpenMeteo.credit, creditURL: OpenMeteo.creditURL))))
    }

    func importTrails(_ input: Operations.ImportTrails.Input) async throws -> Operations.ImportTrails.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        let data: Data, fallback: String
        switch input.body {
        case .applicationGpxXml(let body):
            do { data = try await Data(collecting: body, upTo: Self.trailFileLimit) } catch { throw Problem.tooLarge(limit: Self.trailFileLimit) }
            fallback = "upload.gpx"
        case .applicationGeoJson(let object):
            // Decoded by the contract's JSON reading (which bounds the body); read again as the file it was.
            data = try JSONEncoder().encode(object)
            fallback = "upload.geojson"
        }
        // The file's own name words the problems, but the body's type decides how it is read.
        if let f = input.query.file { _ = try bounded(f, "file", 200) }
        var file = (input.query.file.nonEmpty.map { ($0 as NSString).lastPathComponent }) ?? fallback
        let wantsJSON = fallback.hasSuffix(".geojson")
        if wantsJSON != TrailImport.isGeoJSON(file) { file += wantsJSON ? ".geojson" : ".gpx" }
        let result = try await trails.importFile(data, file: file, eachTrack: input.query.eachTrack ?? false)
        let problems = result.problems.map(\.description)
        guard !result.saved.isEmpty else {
            throw Problem(type: "trail-file-invalid", title: "No trail could be imported", status: 422, detail: problems.joined(separator: "\n"))
        }
        let rows = try await trails.rows(result.saved.map(\.id))
        return .ok(.init(body: .json(.init(trails: rows.map { TrailsMapping.summary($0) }, problems: problems))))
    }

    /// GPX recordings of a long day are a few MiB; ten is room for a folder's worth in GeoJSON.
    static let trailFileLimit = 10 << 20

    func updateTrail(_ input: Operations.UpdateTrail.Input) async throws -> Operations.UpdateTrail.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        guard case .json(let u) = input.body else { throw Problem.unsupportedMediaType }
        try checkBounds(u)
        guard var trail = try await trails.trails.trail(try trailId(input.path.trailId))?.trail else { throw Problem.notFound("trail") }
        if let v = u.name { guard let name = Optional(v).nonEmpty else { throw Problem.badRequest("name must not be blank.") }; trail.name = name }
        if let v = u.area { trail.area = v.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let v = u.description { trail.description = v }
        if let v = u.difficulty { trail.officialDifficulty = TrailDifficulty(rawValue: v.rawValue) }
        if let v = u.shape { trail.shape = Trail.Shape(rawValue: v.rawValue)! }
        if let v = u.accessible { trail.accessible = v }
        if let v = u.huntingAlert { trail.huntingAlert = Optional(v).nonEmpty }
        if let v = u.pictureId { trail.pictureId = try await knownPicture(v, field: "pictureId") }
        if let v = u.info { trail.info = TrailsMapping.info(v) }
        if let v = u.contacts { trail.contacts = v.map { RangerContact(name: $0.name, phones: $0.phones) } }
        if let v = u.amenities { trail.amenities = v.compactMap { TrailAmenity(rawValue: $0.rawValue) } }
        if let v = u.guidelines {
            var out: [SafetyGuideline] = []
            for (i, g) in v.enumerated() {
                out.append(SafetyGuideline(kind: SafetyGuideline.Kind(rawValue: g.kind.rawValue)!, name: g.name, description: g.description,
                                           warningSigns: g.warningSigns.nonEmpty,
                                           pictureId: try await knownPicture(g.pictureId, field: "guidelines[\(i)].pictureId")))
            }
            trail.guidelines = out
        }
        if let v = u.points {
            var out: [PointOfInterest] = []
            for (i, p) in v.enumerated() {
                let position = p.position.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
                if let position, !position.isValid { throw Problem.badRequest("points[\(i)].position is not on Earth.") }
                out.append(PointOfInterest(id: "\(trail.id)-\(i + 1)", kind: PointOfInterest.Kind(rawValue: p.kind.rawValue)!, name: p.name,
                                           history: p.history, position: position, focalPoint: p.focalPoint,
                                           pictureId: try await knownPicture(p.pictureId, field: "points[\(i)].pictureId")))
            }
            trail.points = out
        }
        try await trails.trails.save([trail], source: .operator_, now: trails.now())
        guard let saved = try await trails.trails.trail(trail.id) else { throw Problem.notFound("trail") }
        return .ok(.init(body: .json(TrailsMapping.trail(saved.row, saved.trail, timeZone: trails.timeZone))))
    }

    /// The contract's bounds on an edit, which the generated types do not check.
    private func checkBounds(_ u: Components.Schemas.TrailUpdate) throws {
        func text(_ v: String?, _ name: String, _ min: Int, _ max: Int) throws {
            guard let v else { return }
            let n = v.unicodeScalars.count
            guard n >= min, n <= max else { throw Problem.badRequest("\(name) must be \(min)–\(max) characters long.") }
        }
        func count(_ n: Int?, _ name: String, _ min: Int, _ max: Int) throws {
            guard let n else { return }
            guard n >= min, n <= max else { throw Problem.badRequest("\(name) must have \(min)–\(max) entries.") }
        }
        try text(u.name, "name", 1, 200); try text(u.area, "area", 0, 100); try text(u.description, "description", 0, 4000)
        try text(u.huntingAlert, "huntingAlert", 0, 500); try text(u.pictureId, "pictureId", 0, 100)
        if let i = u.info {
            try text(i.admission, "info.admission", 0, 500); try text(i.additionalFees, "info.additionalFees", 0, 500)
            try text(i.parking, "info.parking", 0, 500); try count(i.seasonalHours.count, "info.seasonalHours", 0, 20)
            for h in i.seasonalHours { try text(h.season, "info.seasonalHours.season", 1, 100); try text(h.hours, "info.seasonalHours.hours", 1, 200) }
        }
        try count(u.contacts?.count, "contacts", 0, 20)
        for c in u.contacts ?? [] {
            try text(c.name, "contacts.name", 1, 200); try count(c.phones.count, "contacts.phones", 1, 5)
            for p in c.phones { try text(p, "contacts.phones", 1, 40) }
        }
        try count(u.guidelines?.count, "guidelines", 0, 50)
        for g in u.guidelines ?? [] {
            try text(g.name, "guidelines.name", 1, 200); try text(g.description, "guidelines.description", 1, 4000)
            try text(g.warningSigns, "guidelines.warningSigns", 0, 2000); try text(g.pictureId, "guidelines.pictureId", 0, 100)
        }
        try count(u.points?.count, "points", 0, 100)
        for p in u.points ?? [] {
            try text(p.name, "points.name", 1, 200); try text(p.history, "points.history", 0, 4000); try text(p.pictureId, "points.pictureId", 0, 100)
        }
        try count(u.amenities?.count, "amenities", 0, 10)
    }

    /// Nil for nil or empty; a problem naming the field when no such picture was uploaded.
    private func knownPicture(_ id: String?, field: String) async throws -> String? {
        guard let id = id.nonEmpty else { return nil }
        guard try await trails.trails.hasPicture(id) else { throw Problem.unknownReference(field: field, "picture") }
        return id
    }

    func deleteTrail(_ input: Operations.DeleteTrail.Input) async throws -> Operations.DeleteTrail.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        guard try await trails.trails.delete(try trailId(input.path.trailId)) else { throw Problem.notFound("trail") }
        return .noContent(.init())
    }

    func uploadTrailPicture(_ input: Operations.UploadTrailPicture.Input) async throws -> Operations.UploadTrailPicture.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        let (kind, body): (PictureRules.Kind, HTTPBody) = switch input.body {
        case .png(let b): (.png, b)
        case .jpeg(let b): (.jpeg, b)
        case .imageWebp(let b): (.webp, b)
        }
        let data: Data
        do { data = try await Data(collecting: body, upTo: PictureRules.maximumBytes) } catch { throw Problem.tooLarge(limit: PictureRules.maximumBytes) }
        guard !data.isEmpty, kind.matches(data) else { throw Problem.badRequest("The body is not a \(kind.rawValue) image.") }
        let id = "p-" + UUID().uuidString.lowercased()
        try await trails.trails.addPicture(id: id, contentType: kind.rawValue, bytes: data, now: trails.now())
        return .created(.init(body: .json(.init(pictureId: id, url: TrailsMapping.pictureURL(id)!))))
    }

    func getTrailPicture(_ input: Operations.GetTrailPicture.Input) async throws -> Operations.GetTrailPicture.Output {
        guard let picture = try await trails.trails.picture(try bounded(input.path.pictureId, "pictureId", 100)) else { throw Problem.notFound("picture") }
        let headers = Operations.GetTrailPicture.Output.Ok.Headers(cacheControl: "public, max-age=31536000, immutable")
        let body = HTTPBody(picture.bytes)
        switch picture.contentType {
        case "image/png": return .ok(.init(headers: headers, body: .png(body)))
        case "image/jpeg": return .ok(.init(headers: headers, body: .jpeg(body)))
        case "image/webp": return .ok(.init(headers: headers, body: .imageWebp(body)))
        case "image/svg+xml": return .ok(.init(headers: headers, body: .imageSvgXml(body)))
        default: throw Problem.internalError
        }
    }

    func listTrailFavourites(_ input: Operations.ListTrailFavourites.Input) async throws -> Operations.ListTrailFavourites.Output {
        let me = try RequestContext.requirePrincipal()
        let rows = try await trails.rows(try await trails.trails.favourites(userId: me.userId))
        return .ok(.init(body: .json(.init(trails: rows.map { TrailsMapping.summary($0) }))))
    }

    func addTrailFavourite(_ input: Operations.AddTrailFavourite.Input) async throws -> Operations.AddTrailFavourite.Output {
        let me = try RequestContext.requirePrincipal()
        guard try await trails.trails.addFavourite(userId: me.userId, trailId: try trailId(input.path.trailId), now: trails.now()) else { throw Problem.notFound("trail") }
        return .noContent(.init())
    }

    func removeTrailFavourite(_ input: Operations.RemoveTrailFavourite.Input) async throws -> Operations.RemoveTrailFavourite.Output {
        let me = try RequestContext.requirePrincipal()
        try await trails.trails.removeFavourite(userId: me.userId, trailId: try await existingTrailId(input.path.trailId))
        return .noContent(.init())
    }
}

// MARK: Comments (TRL-4) and moderation (TRL-12)

extension APIHandler {
    private var comments: TrailComments { services.trails.comments }

    fileprivate func existingTrailId(_ raw: String) async throws -> String {
        let id = try trailId(raw)
        guard try await services.trails.trails.row(id) != nil else { throw Problem.notFound("trail") }
        return id
    }

    private func commentId(_ raw: String) throws -> String { try bounded(raw, "commentId", 64) }

    func listTrailComments(_ input: Operations.ListTrailComments.Input) async throws -> Operations.ListTrailComments.Output {
        let id = try await existingTrailId(input.path.trailId)
        let limit = input.query.limit ?? 6, offset = input.query.offset ?? 0
        guard (1...50).contains(limit), (0...100_000).contains(offset) else { throw Problem.badRequest("limit must be 1–50 and offset 0–100000.") }
        let page = try await comments.page(trailId: id, viewer: RequestContext.principal?.userId, limit: limit, offset: offset)
        return .ok(.init(body: .json(.init(comments: page.comments.map(TrailsMapping.comment), total: page.total,
                                           averageStars: page.average.map { ($0 * 10).rounded() / 10 }, mine: page.mine.map(TrailsMapping.comment)))))
    }

    func putMyTrailComment(_ input: Operations.PutMyTrailComment.Input) async throws -> Operations.PutMyTrailComment.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let id = try await existingTrailId(input.path.trailId)
        let r = try await comments.put(me, trailId: id, stars: body.stars, text: body.text)
        let out = TrailsMapping.comment(r.comment)
        return r.created ? .created(.init(body: .json(out))) : .ok(.init(body: .json(out)))
    }

    func deleteMyTrailComment(_ input: Operations.DeleteMyTrailComment.Input) async throws -> Operations.DeleteMyTrailComment.Output {
        let me = try RequestContext.requirePrincipal()
        try await comments.deleteMine(me, trailId: try await existingTrailId(input.path.trailId))
        return .noContent(.init())
    }

    func voteTrailComment(_ input: Operations.VoteTrailComment.Input) async throws -> Operations.VoteTrailComment.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let vote = switch body.vote { case .up: 1; case .down: -1; case .none: 0 }
        let r = try await comments.vote(me, commentId: try commentId(input.path.commentId), vote: vote)
        return .ok(.init(body: .json(.init(score: r.score, myVote: TrailsMapping.vote(r.vote)))))
    }

    func reportTrailComment(_ input: Operations.ReportTrailComment.Input) async throws -> Operations.ReportTrailComment.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        try await comments.report(me, commentId: try commentId(input.path.commentId), reason: body.reason.rawValue)
        return .noContent(.init())
    }

    func listReportedTrailComments(_ input: Operations.ListReportedTrailComments.Input) async throws -> Operations.ListReportedTrailComments.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        let queue = try await comments.queue()
        return .ok(.init(body: .json(.init(comments: queue.map {
            .init(comment: TrailsMapping.comment($0.comment), trailName: $0.trailName, reports: $0.reports, reasons: $0.reasons, hidden: $0.comment.hidden)
        }, timeZone: trails.timeZone.identifier))))
    }

    func moderateTrailComment(_ input: Operations.ModerateTrailComment.Input) async throws -> Operations.ModerateTrailComment.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        try await comments.moderate(commentId: try commentId(input.path.commentId), action: body.action.rawValue)
        return .noContent(.init())
    }
}

// MARK: The community forum (TRL-5) and its moderation (TRL-12)

extension APIHandler {
    private var forum: TrailForum { services.trails.forum }

    private func postId(_ raw: String) throws -> String { try ClientChosenId.validated(raw, name: "postId", noun: "post") }

    func listTrailForumPosts(_ input: Operations.ListTrailForumPosts.Input) async throws -> Operations.ListTrailForumPosts.Output {
        let id = try await existingTrailId(input.path.trailId)
        let limit = input.query.limit ?? 20, offset = input.query.offset ?? 0
        guard (1...50).contains(limit), (0...100_000).contains(offset) else { throw Problem.badRequest("limit must be 1–50 and offset 0–100000.") }
        let page = try await forum.page(trailId: id, limit: limit, offset: offset)
        let viewer = RequestContext.principal?.userId
        return .ok(.init(body: .json(.init(posts: page.posts.map { TrailsMapping.post($0, viewer: viewer) }, total: page.total))))
    }

    func putTrailForumPost(_ input: Operations.PutTrailForumPost.Input) async throws -> Operations.PutTrailForumPost.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        let postId = try postId(input.path.postId)
        guard let trail = try await services.trails.trails.trail(try bounded(input.path.trailId, "trailId", 64))?.trail else { throw Problem.notFound("trail") }
        let r = try await forum.put(me, trail: trail, postId: postId, text: body.text,
                                    pin: Coordinate(latitude: body.pin.latitude, longitude: body.pin.longitude))
        let out = TrailsMapping.post(r.post, viewer: me.userId)
        return r.created ? .created(.init(body: .json(out))) : .ok(.init(body: .json(out)))
    }

    func deleteTrailForumPost(_ input: Operations.DeleteTrailForumPost.Input) async throws -> Operations.DeleteTrailForumPost.Output {
        let me = try RequestContext.requirePrincipal()
        let postId = try postId(input.path.postId)
        try await forum.deleteMine(me, trailId: try await existingTrailId(input.path.trailId), postId: postId)
        return .noContent(.init())
    }

    func reportTrailForumPost(_ input: Operations.ReportTrailForumPost.Input) async throws -> Operations.ReportTrailForumPost.Output {
        let me = try RequestContext.requirePrincipal()
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        try await forum.report(me, postId: try postId(input.path.postId), reason: body.reason.rawValue)
        return .noContent(.init())
    }

    func listReportedTrailForumPosts(_ input: Operations.ListReportedTrailForumPosts.Input) async throws -> Operations.ListReportedTrailForumPosts.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        let queue = try await forum.queue()
        return .ok(.init(body: .json(.init(posts: queue.map {
            .init(post: TrailsMapping.post($0.post, viewer: nil), trailName: $0.trailName, reports: $0.reports, reasons: $0.reasons, hidden: $0.post.hidden)
        }, timeZone: services.trails.timeZone.identifier))))
    }

    func moderateTrailForumPost(_ input: Operations.ModerateTrailForumPost.Input) async throws -> Operations.ModerateTrailForumPost.Output {
        let me = try RequestContext.requirePrincipal()
        try await services.operations.operators.require(me)
        guard case .json(let body) = input.body else { throw Problem.unsupportedMediaType }
        try await forum.moderate(postId: try postId(input.path.postId), action: body.action.rawValue)
        return .noContent(.init())
    }
}
