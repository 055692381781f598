import Foundation
import WaymarkAPI
import WaymarkCore

/// The weekly parking schedule (PRK-16). Blocks are site-local half hours, 0 = 00:00–00:30.
extension WaymarkClient {
    public func schedule() async throws -> [Components.Schemas.ScheduleBlock] {
        let output = try await call { try await client.getSchedule() }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.blocks
    }

    public func addScheduleBlock(weekday: Int, startSlot: Int, endSlot: Int, lotId: String? = nil) async throws -> Components.Schemas.ScheduleBlock {
        let body = Components.Schemas.ScheduleBlockInput(weekday: weekday, startSlot: startSlot, endSlot: endSlot, lotId: lotId)
        let output = try await call { try await client.createScheduleBlock(body: .json(body)) }
        guard case .created(let created) = output else { throw Self.unexpected }
        return try created.body.json
    }

    /// Moves, resizes or changes the lot of a block; a nil lot clears it. A new UUID as the id
    /// adds the block, which is how an app adds one offline (`send(.putScheduleBlock…)`).
    public func updateScheduleBlock(id: String, weekday: Int, startSlot: Int, endSlot: Int, lotId: String?) async throws -> Components.Schemas.ScheduleBlock {
        let body = Components.Schemas.ScheduleBlockInput(weekday: weekday, startSlot: startSlot, endSlot: endSlot, lotId: lotId)
        let output = try await call { try await client.updateScheduleBlock(path: .init(blockId: id), body: .json(body)) }
        switch output {
        case .ok(let ok): return try ok.body.json
        case .created(let created): return try created.body.json
        default: throw Self.unexpected
        }
    }

    public func deleteScheduleBlock(id: String) async throws {
        let output = try await call { try await client.deleteScheduleBlock(path: .init(blockId: id)) }
        guard case .noContent = output else { throw Self.unexpected }
    }

    /// Every lot of the site advised for one block of time, best first: for a lot picker.
    public func lotAdvice(siteId: String, weekday: Int, startSlot: Int, endSlot: Int) async throws -> [Components.Schemas.LotAdvice] {
        let output = try await call {
            try await client.getScheduleLotAdvice(query: .init(siteId: siteId, weekday: weekday, startSlot: startSlot, endSlot: endSlot))
        }
        guard case .ok(let ok) = output else { throw Self.unexpected }
        return try ok.body.json.lots
    }
}
