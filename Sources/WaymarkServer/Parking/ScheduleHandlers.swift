import Foundation
import WaymarkAPI
import WaymarkCore

extension APIHandler {
    func getSchedule(_ input: Operations.GetSchedule.Input) async throws -> Operations.GetSchedule.Output {
        let me = try RequestContext.requirePrincipal()
        let blocks = try await services.parking.schedule.schedule(me)
        return .ok(.init(body: .json(.init(blocks: blocks.map(ScheduleMapping.block)))))
    }

    func createScheduleBlock(_ input: Operations.CreateScheduleBlock.Input) async throws -> Operations.CreateScheduleBlock.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        let block = try await services.parking.schedule.create(me, weekday: b.weekday, startSlot: b.startSlot, endSlot: b.endSlot, lotId: try ScheduleMapping.lotId(b.lotId))
        return .created(.init(body: .json(ScheduleMapping.block(block))))
    }

    func updateScheduleBlock(_ input: Operations.UpdateScheduleBlock.Input) async throws -> Operations.UpdateScheduleBlock.Output {
        guard case .json(let b) = input.body else { throw Problem.unsupportedMediaType }
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.blockId) != nil else {
            throw Problem.badRequest("A block's id is a UUID, such as 6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f.")
        }
        let (block, created) = try await services.parking.schedule.put(me, id: input.path.blockId.lowercased(), weekday: b.weekday,
                                                                       startSlot: b.startSlot, endSlot: b.endSlot, lotId: try ScheduleMapping.lotId(b.lotId))
        let body = ScheduleMapping.block(block)
        return created ? .created(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    func deleteScheduleBlock(_ input: Operations.DeleteScheduleBlock.Input) async throws -> Operations.DeleteScheduleBlock.Output {
        let me = try RequestContext.requirePrincipal()
        guard UUID(uuidString: input.path.blockId) != nil else { throw Problem.notFound("schedule block") }
        try await services.parking.schedule.delete(me, id: input.path.blockId.lowercased())
        return .noContent(.init())
    }

    func getScheduleLotAdvice(_ input: Operations.GetScheduleLotAdvice.Input) async throws -> Operations.GetScheduleLotAdvice.Output {
        let me = try RequestContext.requirePrincipal()
        let q = input.query
        let advised = try await services.parking.schedule.lotAdvice(me, siteId: q.siteId, weekday: q.weekday, startSlot: q.startSlot, endSlot: q.endSlot)
        return .ok(.init(body: .json(.init(lots: advised.map {
            .init(lotId: $0.block.lotId ?? $0.block.id, lotName: $0.lotName ?? "", advice: ScheduleMapping.advice($0.advice))
        }))))
    }
}

enum ScheduleMapping {
    static func block(_ a: ScheduleService.AdvisedBlock) -> Components.Schemas.ScheduleBlock {
        .init(id: a.block.id, weekday: a.block.weekday, startSlot: a.block.startSlot, endSlot: a.block.endSlot,
              lotId: a.block.lotId, lotName: a.lotName, advice: advice(a.advice))
    }

    static func advice(_ a: ScheduleAdvice) -> Components.Schemas.ScheduleAdvice {
        .init(level: .init(rawValue: a.level.rawValue)!, reason: a.reason, typicalOccupancy: a.typicalOccupancy,
              requiredPermits: a.level == .red ? a.requiredPermits.sorted().map(\.rawValue) : nil)
    }

    /// Ids are compared as stored (lower case); anything that is not a UUID names no lot.
    static func lotId(_ text: String?) throws -> String? {
        guard let text else { return nil }
        guard UUID(uuidString: text) != nil else { throw Problem.unknownReference(field: "lotId", "lot") }
        return text.lowercased()
    }
}
