import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import OpenAPIRuntime
import WaymarkAPI

/// A site's occupancy as one snapshot (PRK-4): every lot's latest counters and the live stream
/// position they include.
struct SiteOccupancySnapshot: Sendable {
    var siteId: String
    var lastEventId: Int64
    var lots: [Components.Schemas.LotOccupancy]

    /// Lot versions only grow, so their sum changes whenever any lot does.
    var etag: String { "\"o\(lots.reduce(Int64(0)) { $0 + $1.version })-\(lots.count)\"" }
}

/// The snapshot's JSON, written from each lot's encoding, which is kept until that lot's
/// version changes. Every open map asks for the snapshot every few seconds and most lots have
/// not changed in between; encoding the same counters again for every request was the largest
/// single cost of the route (29 % of the server's CPU under load, see Benchmarks/README.md).
final class OccupancyJSON: Sendable {
    private let lots = NIOLockedValueBox([String: (version: Int64, json: [UInt8])]())

    /// Bytes equal to what the generated encoder writes for `SiteOccupancy` with
    /// `Configuration.waymark`: keys sorted, no whitespace. `siteId` must need no escaping.
    func body(_ snapshot: SiteOccupancySnapshot, asOf: Date) throws -> [UInt8] {
        var parts: [[UInt8]] = []
        parts.reserveCapacity(snapshot.lots.count)
        var missing: [Int] = []
        lots.withLockedValue { cache in
            for (i, lot) in snapshot.lots.enumerated() {
                if let hit = cache[lot.lotId], hit.version == lot.version {
                    parts.append(hit.json)
                } else {
                    parts.append([])
                    missing.append(i)
                }
            }
        }
        if !missing.isEmpty {
            // Encoded outside the lock; two requests may encode the same version, harmlessly.
            var encoded: [(Int, [UInt8])] = []
            for i in missing { encoded.append((i, Array(try LiveEncoding.encoder.encode(snapshot.lots[i])))) }
            lots.withLockedValue { cache in
                for (i, json) in encoded {
                    let lot = snapshot.lots[i]
                    if (cache[lot.lotId]?.version ?? .min) <= lot.version { cache[lot.lotId] = (lot.version, json) }
                }
            }
            for (i, json) in encoded { parts[i] = json }
        }
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(96) { $0 + $1.count + 1 } + snapshot.siteId.utf8.count)
        out.append(contentsOf: "{\"asOf\":\"\(try WaymarkDateTranscoder().encode(asOf))\",\"lastEventId\":\(snapshot.lastEventId),\"lots\":[".utf8)
        for (i, part) in parts.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: part)
        }
        out.append(contentsOf: "],\"siteId\":\"\(snapshot.siteId)\"}".utf8)
        return out
    }
}

/// Answers `getSiteOccupancy` with `OccupancyJSON`'s bytes instead of letting the generated
/// code encode the body again. It sits innermost, so metrics, sessions, header bounds, CORS
/// and security headers apply as to every operation. Only the plain case is answered here: a
/// site with lots, an id that needs no decoding, and an Accept header (if any) that names JSON
/// outright. Everything else goes the generated way, which stays the reference for the bytes.
struct OccupancyResponseMiddleware: ServerMiddleware {
    static let operation = "getSiteOccupancy"
    static let contentType = "application/json; charset=utf-8"

    let live: LiveHub
    let queries: ParkingQueries
    let json: OccupancyJSON
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == Self.operation,
              let siteId = metadata.pathParameters["siteId"].map(String.init), Self.isPlainId(siteId),
              Self.acceptsJSON(request.headerFields[.accept]),
              let snapshot = try await live.siteSnapshot(siteId: siteId, queries: queries)
        else { return try await next(request, body, metadata) }

        let etag = snapshot.etag
        // `RawHeaderMiddleware` has percent-encoded it for the generated decoder.
        let ifNoneMatch = request.headerFields[.ifNoneMatch].map { $0.removingPercentEncoding ?? $0 }
        var response = HTTPResponse(status: .ok)
        response.headerFields[.eTag] = etag
        if ETag.matches(ifNoneMatch, etag) {
            response.status = .notModified
            return (response, nil)
        }
        response.headerFields[.cacheControl] = "no-cache"
        response.headerFields[.contentType] = Self.contentType
        return (response, HTTPBody(try json.body(snapshot, asOf: now())))
    }

    /// Ids as the server makes them (UUIDs): nothing to percent-decode or to escape in JSON.
    static func isPlainId(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
        }
    }

    /// No Accept header, or one whose media ranges include JSON by name or wildcard: the cases
    /// the generated code accepts for sure. Anything unusual is left to it.
    static func acceptsJSON(_ accept: String?) -> Bool {
        guard let accept else { return true }
        return accept.split(separator: ",").contains { part in
            let range = (part.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            return range == "application/json" || range == "application/*" || range == "*/*"
        }
    }
}
