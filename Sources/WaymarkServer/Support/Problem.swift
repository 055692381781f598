import Foundation
import Vapor

/// An RFC 9457 problem. Thrown anywhere in the server; `ProblemMiddleware` renders it.
/// `type` is stable per kind of error so that clients can branch on it.
public struct Problem: Error, Sendable, Codable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var instance: String?
    /// Seconds; sent as the `Retry-After` header too.
    public var retryAfter: Int?

    public init(type: String, title: String, status: Int, detail: String? = nil) {
        self.type = "https://waymark.dev/problems/" + type
        self.title = title
        self.status = status
        self.detail = detail
    }

    public static func badRequest(_ detail: String) -> Problem {
        Problem(type: "bad-request", title: "The request is not valid", status: 400, detail: detail)
    }

    public static func notFound(_ what: String) -> Problem {
        Problem(type: "not-found", title: "Not found", status: 404, detail: "No \(what) with that id.")
    }

    /// An id in the request body that names nothing. Not a 404: that would say the resource
    /// the URL names is missing (a client would drop the schedule block it was editing).
    public static func unknownReference(field: String, _ what: String) -> Problem {
        Problem(type: "unknown-reference", title: "The request names something that does not exist", status: 400,
                detail: "`\(field)` names no \(what).")
    }

    public static let unauthorized = Problem(
        type: "unauthorized", title: "Missing or invalid credentials", status: 401,
        detail: "Send `Authorization: Bearer <key>`.")

    public static func tooLarge(limit: Int) -> Problem {
        Problem(type: "too-large", title: "The request body is too large", status: 413,
                detail: "At most \(limit) bytes are accepted.")
    }

    public static let unsupportedMediaType = Problem(
        type: "unsupported-media-type", title: "Unsupported content type", status: 415,
        detail: "Send the body as application/json.")

    public static func unavailable(_ detail: String) -> Problem {
        Problem(type: "unavailable", title: "Not ready", status: 503, detail: detail)
    }

    public static func forbidden(_ detail: String) -> Problem {
        Problem(type: "forbidden", title: "Not allowed", status: 403, detail: detail)
    }

    public static func conflict(_ type: String, _ detail: String) -> Problem {
        Problem(type: type, title: "Conflicts with existing data", status: 409, detail: detail)
    }

    public static func tooManyRequests(retryAfter seconds: Int, _ detail: String) -> Problem {
        var p = Problem(type: "too-many-requests", title: "Too many requests", status: 429, detail: detail)
        p.retryAfter = max(1, seconds)
        return p
    }

    public static let internalError = Problem(
        type: "internal", title: "Something went wrong on our side", status: 500,
        detail: "The error was logged. Please try again.")
}
