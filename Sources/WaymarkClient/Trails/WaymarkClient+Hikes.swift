import Foundation
import OpenAPIRuntime
import WaymarkAPI
import WaymarkCore

/// Recorded hikes (TRL-6): record from a stream of positions (`HikeRecording`, `record`) with the live
/// figures, save under an id made when recording started (saving again stores it once), the
/// history, one hike and its GPX; and what the hiker tells for steps and calories.
extension WaymarkClient {
    public typealias HikeSummary = Components.Schemas.HikeSummary
    public typealias Hike = Components.Schemas.Hike
    public enum HikeSort: String, Sendable { case date, trailName, difficulty, area }

    @discardableResult
    public func saveHike(id: String, trailId: String, startedAt: Date, endedAt: Date, fixes: [HikeFix]) async throws -> Hike {
        let wire = fixes.map { $0.wire(start: startedAt) }
        let output = try await call {
            try await client.saveMyHike(path: .init(hikeId: id), body: .json(.init(trailId: trailId, startedAt: startedAt, endedAt: endedAt, fixes: wire)))
        }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    public func hikes(sort: HikeSort = .date, offset: Int = 0, limit: Int = 10) async throws -> (hikes: [HikeSummary], total: Int) {
        let output = try await call { try await client.listMyHikes(query: .init(sort: .init(rawValue: sort.rawValue), limit: limit, offset: offset)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        let body = try ok.body.json
        return (body.hikes, body.total)
    }

    public func hike(id: String) async throws -> Hike {
        let output = try await call { try await client.getMyHike(path: .init(hikeId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json
    }

    public func hikeGPX(id: String) async throws -> Data {
        let output = try await call { try await client.getMyHikeGPX(path: .init(hikeId: id)) }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try await Data(collecting: try ok.body.applicationGpxXml, upTo: 64 << 20)
    }

    public func deleteHike(id: String) async throws {
        let output = try await call { try await client.deleteMyHike(path: .init(hikeId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Height for steps; with weight and year of birth, calories.
    public func setHikerBody(heightCentimetres: Double?, weightKilograms: Double?, birthYear: Int?) async throws {
        let output = try await call {
            try await client.putHikerBody(body: .json(.init(heightCentimetres: heightCentimetres, weightKilograms: weightKilograms, birthYear: birthYear)))
        }
        guard case .ok = output else { throw Self.unexpected }
    }
}
