import Foundation
import WaymarkAPI
import WaymarkCore

/// A trail's community forum (TRL-5): posts pinned to a point near the trail, newest first,
/// visible to everyone; writing, deleting and reporting need an account. A post's id is made
/// here when it is written, so sending it again after a lost answer stores it once.
extension WaymarkClient {
    public typealias TrailForumPost = Components.Schemas.TrailForumPost

    public func trailForum(trailId: String, offset: Int = 0, limit: Int = 20) async throws -> (posts: [TrailForumPost], total: Int) {
        let output = try await call { try await client.listTrailForumPosts(path: .init(trailId: trailId), query: .init(limit: limit, offset: offset)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.posts, body.total)
    }

    /// Writes a post (or, with the id of your own, edits it). Keep `id` with a post queued
    /// offline and send it again with the same one.
    @discardableResult
    public func postToForum(trailId: String, text: String, pin: Coordinate, id: String = UUID().uuidString.lowercased()) async throws -> TrailForumPost {
        let output = try await call {
            try await client.putTrailForumPost(path: .init(trailId: trailId, postId: id),
                                               body: .json(.init(text: text, pin: .init(latitude: pin.latitude, longitude: pin.longitude))))
        }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    public func deleteForumPost(trailId: String, id: String) async throws {
        let output = try await call { try await client.deleteTrailForumPost(path: .init(trailId: trailId, postId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    public func report(forumPostId: String, reason: ReportReason) async throws {
        let output = try await call {
            try await client.reportTrailForumPost(path: .init(postId: forumPostId), body: .json(.init(reason: .init(rawValue: reason.rawValue)!)))
        }
        guard case .noContent = output else { throw Self.unexpected }
    }
}
