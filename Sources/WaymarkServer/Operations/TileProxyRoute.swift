import AsyncHTTPClient
import Foundation
import NIOCore
import Vapor
import WaymarkCore

/// Map images through this server, when operators count them (PRK-20): `GET /tiles/{style}/{z}/{x}/{y}`
/// fetches the image from the configured tile server, counted per day; past the day's limit it
/// answers 429 until the next day, and the app shows its plain map (lots, spots and paths on a
/// blank ground). Only images of the configured servers are fetched, by numbers checked here:
/// the route cannot be turned into a way to fetch anything else.
struct TileProxyRoute: Sendable {
    static let styles = ["default", "satellite"]

    let usage: MapUsage
    let client: HTTPClient
    let templates: [String: (url: String, maxZoom: Int)]
    let now: @Sendable () -> Date

    init(config: WaymarkConfiguration, usage: MapUsage, client: HTTPClient, now: @escaping @Sendable () -> Date) {
        var templates = ["default": (config.tileURLTemplate, config.tileMaxZoom)]
        if !config.satelliteTileURLTemplate.isEmpty { templates["satellite"] = (config.satelliteTileURLTemplate, config.satelliteTileMaxZoom) }
        self.templates = templates
        self.usage = usage
        self.client = client
        self.now = now
    }

    /// The template clients are given for `style`.
    static func clientTemplate(_ style: String) -> String { "/tiles/\(style)/{z}/{x}/{y}" }

    func register(on routes: any RoutesBuilder) {
        routes.get("tiles", ":style", ":z", ":x", ":y") { req async throws -> Response in
            try await respond(style: req.parameters.get("style") ?? "", z: req.parameters.get("z") ?? "",
                              x: req.parameters.get("x") ?? "", y: req.parameters.get("y") ?? "")
        }
    }

    /// The upstream address of one image, or nil when the numbers name no image of a known style.
    func upstream(style: String, z: String, x: String, y: String) -> String? {
        guard let (template, maxZoom) = templates[style], let z = Int(z), let x = Int(x), let y = Int(y.split(separator: ".").first ?? ""),
              (0...maxZoom).contains(z), z <= 30, (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        return template.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y)).replacingOccurrences(of: "{s}", with: "a")
    }

    func respond(style: String, z: String, x: String, y: String) async throws -> Response {
        guard let url = upstream(style: style, z: z, x: x, y: y) else { throw Problem.notFound("map image") }
        let at = now()
        guard try await usage.take(.tiles, at: at) else {
            var spent = Problem(type: "map-budget-spent", title: "Map images are paused for today", status: 429,
                                detail: "This Waymark has handed out today's \(usage.tileDailyLimit ?? 0) map images; the map shows without them until tomorrow.")
            spent.retryAfter = try await usage.secondsToNextDay(from: at)
            throw spent
        }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "Waymark/\(WaymarkVersion.current) (tile proxy)")
        let answer: HTTPClientResponse
        let body: ByteBuffer
        do {
            answer = try await client.execute(request, timeout: .seconds(10))
            body = try await answer.body.collect(upTo: 2 << 20)
        } catch {
            throw Self.unavailable
        }
        guard answer.status == .ok else { throw Self.unavailable }
        var headers = HTTPHeaders()
        headers.add(name: .contentType, value: answer.headers.first(name: "Content-Type") ?? "image/png")
        // A browser keeps an image as long as its server says, a day when it says nothing.
        headers.add(name: .cacheControl, value: answer.headers.first(name: "Cache-Control") ?? "public, max-age=86400")
        return Response(status: .ok, headers: headers, body: .init(buffer: body))
    }

    static let unavailable = Problem(type: "map-image-unavailable", title: "The map image could not be fetched", status: 502,
                                     detail: "The map's tile server did not answer; the map shows without this image.")
}
