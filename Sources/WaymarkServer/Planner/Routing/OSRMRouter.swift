import AsyncHTTPClient
import Foundation
import NIOCore
import WaymarkCore

/// A client of one OSRM server's table service (HTTP API v5): the fastest street route's time
/// and length between every pair of places, in one request.
struct OSRMRouter: Sendable {
    let client: HTTPClient
    /// Where the server answers, e.g. `http://osrm-car:5000`.
    let baseURL: String
    /// The profile in the path. OSRM answers with the one profile it was started with whatever
    /// this says; it is kept right for the server's logs.
    let profile: StreetProfile
    /// A router that has not answered by then is treated as down (the client waits 2 s to connect).
    var timeout: TimeAmount = .seconds(5)

    /// OSRM's default `--max-table-size`: more coordinates in one request are refused.
    static let maximumCoordinates = 100
    /// A table of 100 places with hints is well under a megabyte.
    static let maximumBody = 4 << 20

    /// The table between `places`, square and in their order. Throws `OSRMFailure`.
    func table(_ places: [Coordinate]) async throws -> OSRMTable {
        guard places.count <= Self.maximumCoordinates else {
            throw OSRMFailure.refused("\(places.count) places are more than the \(Self.maximumCoordinates) a table may have")
        }
        var request = HTTPClientRequest(url: Self.tableURL(base: baseURL, profile: profile.rawValue, places: places))
        request.headers.add(name: "Accept", value: "application/json")
        let status: UInt
        let body: Data
        do {
            let response = try await client.execute(request, timeout: timeout)
            status = response.status.code
            body = Data(buffer: try await response.body.collect(upTo: Self.maximumBody))
        } catch {
            throw OSRMFailure.unreachable("\(error)")
        }
        return try Self.parse(body, status: status, count: places.count)
    }

    /// `{base}/table/v1/{profile}/{lon,lat;lon,lat;…}?annotations=duration,distance`: OSRM writes
    /// longitude first; six decimals are a tenth of a metre.
    static func tableURL(base: String, profile: String, places: [Coordinate]) -> String {
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        let coordinates = places.map { String(format: "%.6f,%.6f", $0.longitude, $0.latitude) }.joined(separator: ";")
        return "\(root)/table/v1/\(profile)/\(coordinates)?annotations=duration,distance"
    }

    /// The answer to a table request of `count` places; anything but a complete `Ok` is a failure.
    static func parse(_ body: Data, status: UInt, count: Int) throws -> OSRMTable {
        let answer = try? JSONDecoder().decode(Answer.self, from: body)
        guard status == 200, let answer, answer.code == "Ok" else {
            let said = answer.map { "\($0.code)\($0.message.map { ": \($0)" } ?? "")" } ?? String(decoding: body.prefix(200), as: UTF8.self)
            throw OSRMFailure.refused("HTTP \(status) \(said)")
        }
        guard let durations = answer.durations, let distances = answer.distances,
              durations.count == count, distances.count == count,
              durations.allSatisfy({ $0.count == count }), distances.allSatisfy({ $0.count == count })
        else { throw OSRMFailure.refused("the table is not \(count) by \(count) with durations and distances") }
        // How far each place was from the street it was snapped to, whether as source or destination.
        func snap(_ waypoints: [Waypoint]?, _ i: Int) -> Double { waypoints.flatMap { i < $0.count ? $0[i].distance : nil } ?? 0 }
        let snapped = (0..<count).map { max(snap(answer.sources, $0), snap(answer.destinations, $0)) }
        return OSRMTable(durations: durations, distances: distances, snappedMetres: snapped)
    }

    /// The parts of OSRM's answer that are read; the waypoints' hints and names are not.
    private struct Answer: Decodable {
        var code: String
        var message: String?
        var durations: [[Double?]]?
        var distances: [[Double?]]?
        var sources: [Waypoint]?
        var destinations: [Waypoint]?
    }

    private struct Waypoint: Decodable {
        var distance: Double?
    }
}

/// A square table from OSRM: `durations[i][j]` seconds and `distances[i][j]` metres from place i
/// to place j, nil where the streets do not join them.
struct OSRMTable: Sendable, Equatable {
    var durations: [[Double?]]
    var distances: [[Double?]]
    /// Metres from each place to the street OSRM placed it on.
    var snappedMetres: [Double]
}

/// Why a router gave no table. Unreachable covers a refused connection and a timeout: the
/// router is left alone for a while then, so plans do not each wait for it.
enum OSRMFailure: Error, CustomStringConvertible {
    case unreachable(String)
    case refused(String)

    var description: String {
        switch self {
        case .unreachable(let why): "could not be reached: \(why)"
        case .refused(let why): "answered with an error: \(why)"
        }
    }
}
