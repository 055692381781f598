import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

/// Find the trail (TRL-1, TRL-2, TRL-7): trails near a point, in a view or by name; a trail's
/// page, kept on disk so a trail once opened reads offline; its GPX; favourites.
extension WaymarkClient {
    public typealias TrailSummary = Components.Schemas.TrailSummary
    public typealias TrailPage = Components.Schemas.Trail

    /// Where to look for trails.
    public enum TrailPlace: Sendable {
        case near(Coordinate)
        case view(south: Double, west: Double, north: Double, east: Double)
        case named(String)
        case all(offset: Int)
    }

    public func trails(_ place: TrailPlace, difficulties: [TrailDifficulty] = [], features: [PointOfInterest.Kind] = [],
                       lines: Bool = false, limit: Int = 20) async throws -> (trails: [TrailSummary], total: Int) {
        var q = Operations.ListTrails.Input.Query(lines: lines, limit: limit)
        switch place {
        case .near(let c): q.latitude = c.latitude; q.longitude = c.longitude
        case .view(let s, let w, let n, let e): q.south = s; q.west = w; q.north = n; q.east = e
        case .named(let text): q.q = text
        case .all(let offset): q.offset = offset
        }
        if !difficulties.isEmpty { q.difficulty = difficulties.compactMap { .init(rawValue: $0.rawValue) } }
        if !features.isEmpty { q.feature = features.compactMap { .init(rawValue: $0.rawValue) } }
        let query = q
        let output = try await call { try await client.listTrails(query: query) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.trails, body.total)
    }

    /// A trail's page; the last good copy when the server is unreachable.
    public func trail(id: String) async throws -> Cached<TrailPage> {
        try await cachedRead(key: "trail-\(id)") {
            switch try await self.client.getTrail(path: .init(trailId: id)) {
            case .ok(let ok): return try ok.body.json
            case .notModified: throw WaymarkClientError.unexpectedStatus(304)
            case .badRequest(let br): throw WaymarkClientError.from(try br.body.applicationProblemJson)
            case .notFound(let nf): throw WaymarkClientError.from(try nf.body.applicationProblemJson)
            case .undocumented(let status, _): throw WaymarkClientError.unexpectedStatus(status)
            }
        }
    }

    /// Today and the three days after at the trailhead; `stale` when the weather service could not
    /// be reached and this is the last forecast the server kept. Show its `credit`.
    public func trailWeather(id: String) async throws -> Components.Schemas.TrailWeather {
        let output = try await call { try await client.getTrailWeather(path: .init(trailId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// The trail as a GPX 1.1 file.
    public func trailGPX(id: String) async throws -> Data {
        let output = try await call { try await client.getTrailGPX(path: .init(trailId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try await Data(collecting: try ok.body.applicationGpxXml, upTo: 64 << 20)
    }

    /// Operators: add or replace trails from a GPX file; what was left out is in `problems`.
    public func importTrails(gpx: Data, fileName: String, eachTrack: Bool = false) async throws -> (trails: [TrailSummary], problems: [String]) {
        let output = try await call { try await client.importTrails(query: .init(file: fileName, eachTrack: eachTrack), body: .applicationGpxXml(HTTPBody(gpx))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.trails, body.problems)
    }

    public func favouriteTrails() async throws -> [TrailSummary] {
        let output = try await call { try await client.listTrailFavourites() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.trails
    }

    public func setFavourite(trailId: String, _ starred: Bool) async throws {
        if starred {
            let output = try await call { try await client.addTrailFavourite(path: .init(trailId: trailId)) }
            guard case .noContent = output else { throw Self.unexpected }
        } else {
            let output = try await call { try await client.removeTrailFavourite(path: .init(trailId: trailId)) }
            guard case .noContent = output else { throw Self.unexpected }
        }
    }
}

/// Trail comments (TRL-4): a page of others' comments, the highest voted first, with your own
/// apart; writing, deleting, voting and reporting need an account.
extension WaymarkClient {
    public typealias TrailCommentList = Components.Schemas.TrailCommentList
    public typealias TrailComment = Components.Schemas.TrailComment

    public enum CommentVote: String, Sendable { case up, down, none }
    public enum ReportReason: String, Sendable { case spam, offensive, unsafe, wrong, other }

    public func trailComments(trailId: String, offset: Int = 0, limit: Int = 6) async throws -> TrailCommentList {
        let output = try await call { try await client.listTrailComments(path: .init(trailId: trailId), query: .init(limit: limit, offset: offset)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    /// Writes your comment, or replaces its stars and text.
    @discardableResult
    public func setMyComment(trailId: String, stars: Int, text: String) async throws -> TrailComment {
        let output = try await call { try await client.putMyTrailComment(path: .init(trailId: trailId), body: .json(.init(stars: stars, text: text))) }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    public func deleteMyComment(trailId: String) async throws {
        let output = try await call { try await client.deleteMyTrailComment(path: .init(trailId: trailId)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// The comment's score after the vote.
    @discardableResult
    public func vote(commentId: String, _ vote: CommentVote) async throws -> Int {
        let output = try await call { try await client.voteTrailComment(path: .init(commentId: commentId), body: .json(.init(vote: .init(rawValue: vote.rawValue)!))) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.score
    }

    public func report(commentId: String, reason: ReportReason) async throws {
        let output = try await call { try await client.reportTrailComment(path: .init(commentId: commentId), body: .json(.init(reason: .init(rawValue: reason.rawValue)!))) }
        guard case .noContent = output else { throw Self.unexpected }
    }
}
